// The simulator's HTTP: every call answers (never throws), including the ones the simulator hangs up
// on itself (a client disconnecting mid-request) and the ones the network loses; sessions sign in
// again when their 15-minute access token runs out.

export type Answer =
  // biome-ignore lint/suspicious/noExplicitAny: the operations read each answer field by field and judge it themselves; a field they misread turns up in the report
  | { kind: 'answered'; status: number; body: any; text: string /** Set-Cookie headers. */; setCookies: string[] }
  | { kind: 'aborted' }
  | { kind: 'failed'; error: string };

export interface CallOptions {
  method?: string;
  token?: string;
  /** A JSON body. */
  body?: unknown;
  /** A form-encoded body (the reseller API). */
  form?: Record<string, string>;
  /** Exact bytes, sent as they are (a webhook replayed with its signature); content-type from `headers`. */
  raw?: string;
  headers?: Record<string, string>;
  /** The client address the Worker sees; sign-up and sign-in are rate limited per address. */
  ip?: string;
  /** Hang up this many ms after sending: the client disconnects mid-request. */
  abortAfterMs?: number;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 90_000;

/** Calls not answered yet, with when they were sent and how far they got: what a stuck step waits on. */
const inFlight = new Map<number, { url: string; sent: number; stage: 'sent' | 'reading the body' }>();
let nextCall = 0;

export function callsInFlight(): string[] {
  return [...inFlight.values()].map((entry) => `${entry.url} (${entry.stage}, ${Math.round((Date.now() - entry.sent) / 1000)} s)`);
}

export async function call(url: string, options: CallOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  } else if (options.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form).toString();
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['cf-connecting-ip'] = options.ip;
  // Plain timers on one controller: Node 20 may collect an AbortSignal.timeout() held only by
  // AbortSignal.any(), and its timer with it, leaving a call that never answers waiting for ever.
  const hangUp = new AbortController();
  let hungUp = false;
  const timer =
    options.abortAfterMs === undefined
      ? null
      : setTimeout(() => {
          hungUp = true;
          hangUp.abort();
        }, options.abortAfterMs);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let timedOut = false;
  const timeout = setTimeout(() => {
    timedOut = true;
    hangUp.abort();
  }, timeoutMs);
  const { signal } = hangUp;
  const id = nextCall++;
  const entry = { url: url.replace(/^https?:\/\/[^/]+/, ''), sent: Date.now(), stage: 'sent' as 'sent' | 'reading the body' };
  inFlight.set(id, entry);
  try {
    const response = await fetch(url, { method: options.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, signal });
    entry.stage = 'reading the body';
    // The body is raced against the same timers: a body whose connection went away mid-way can leave
    // response.text() pending for ever, deaf to the signal.
    const stopped = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener(
        'abort',
        () => {
          response.body?.cancel().catch(() => {});
          reject(signal.reason);
        },
        { once: true },
      );
    });
    const text = await Promise.race([response.text(), stopped]);
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { kind: 'answered', status: response.status, body: parsed, text, setCookies: response.headers.getSetCookie() };
  } catch (error) {
    if (hungUp) return { kind: 'aborted' };
    if (timedOut) return { kind: 'failed', error: `no answer within ${timeoutMs / 1000} s` };
    return { kind: 'failed', error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  } finally {
    inFlight.delete(id);
    if (timer) clearTimeout(timer);
    clearTimeout(timeout);
  }
}

/** The value of the cookie `name` an answer sets, if it sets it. */
export function cookieSet(answer: Answer, name: string): string | null {
  if (answer.kind !== 'answered') return null;
  for (const header of answer.setCookies) {
    const [pair] = header.split(';');
    const at = pair.indexOf('=');
    if (pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return null;
}

/** "201", "aborted", "failed": an answer in a word, for the step's description. */
export function said(answer: Answer): string {
  return answer.kind === 'answered' ? String(answer.status) : answer.kind;
}

export const statusOf = (answer: Answer): number | null => (answer.kind === 'answered' ? answer.status : null);

/** A signed-in user or administrator of the shop under simulation. */
export class Session {
  token = '';
  userId = 0;

  constructor(
    readonly shopUrl: string,
    readonly email: string,
    readonly password: string,
    readonly ip: string,
  ) {}

  async signIn(): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await call(`${this.shopUrl}/api/v1/auth/login`, { body: { email: this.email, password: this.password }, ip: this.ip });
      if (answer.kind === 'answered' && answer.status === 200) {
        this.token = answer.body.accessToken;
        this.userId = answer.body.user.id;
        return;
      }
      // A dropped database connection answers 5xx; anything else is the simulator's own mistake.
      if (attempt >= 5 || (answer.kind === 'answered' && answer.status < 500))
        throw new Error(`signing in ${this.email} failed: ${said(answer)} ${answer.kind === 'answered' ? answer.text.slice(0, 200) : ''}`);
      await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }

  /** A call under /api/v1 with this session's token; an expired token is renewed once by signing in again. */
  async api(path: string, options: Omit<CallOptions, 'token' | 'ip'> = {}): Promise<Answer> {
    const send = () => call(`${this.shopUrl}/api/v1/${path}`, { ...options, token: this.token, ip: this.ip });
    const answer = await send();
    if (answer.kind !== 'answered' || answer.status !== 401) return answer;
    await this.signIn();
    return send();
  }
}
