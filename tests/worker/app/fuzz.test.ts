// Property test of the whole API surface: every route the app has at test time (read from
// app.routes, so routes added later are covered without touching this file) gets malformed,
// oversized and hostile bodies, headers, query strings and path parameters, as a visitor, a
// user and an administrator. Whatever arrives, the answer is below 500, every error is the
// JSON contract {message, error}, admin routes never answer 2xx to anyone else, and no
// money moves: the fuzzing accounts' wallets and ledgers are untouched and reconciliation holds.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { sessions as sessionsTable, wallets, walletTransactions } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';
import { app } from '../../../worker/app';
import { signAccessToken } from '../../../worker/services/accounts/tokens';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { BASE, call, createAdmin, registerAndLogin, type TestAccount, unique, uniqueIp, withDb } from '../../support/api';

type Role = 'visitor' | 'user' | 'admin';
const ROLES: Role[] = ['visitor', 'user', 'admin'];
const ORIGIN = new URL(BASE).origin;

// ---------------------------------------------------------------- the routes under test

interface Route {
  method: string;
  path: string;
}

/** Handlers of the real app, once each; `use()` middleware (method ALL on a wildcard) is not a route. */
function routesOf(routes: ReadonlyArray<{ method: string; path: string }>): Route[] {
  const seen = new Map<string, Route>();
  for (const { method, path } of routes) {
    if (method === 'ALL' && path.endsWith('*')) continue;
    seen.set(`${method} ${path}`, { method, path });
  }
  return [...seen.values()];
}

const ROUTES = routesOf(app.routes);

/**
 * Changes to a setting of the whole shop. An administrator's random body that happens to be valid (a minimum margin
 * of 0, a referral rule) would change what the test files running beside this one read, so these are fuzzed as a
 * visitor and a user (refused either way), and as an administrator with the known troubles alone (refused, or nothing
 * changed); their own tests cover what an administrator may set.
 */
const SHOP_WIDE_SETTINGS = /^\/api\/v1\/admin\/(settings\/|services\/settings$|referrals\/settings$)/;
/** Starts the shop's one full reconciliation run whatever the body, known troubles too: never fuzzed as an administrator (its own tests cover it). */
const startsTheShopsRun = (route: Route) => route.method === 'POST' && route.path === '/api/v1/admin/reconciliation/full';
const rolesFor = (route: Route): Role[] =>
  (route.method !== 'GET' && SHOP_WIDE_SETTINGS.test(route.path)) || startsTheShopsRun(route) ? ROLES.filter((role) => role !== 'admin') : ROLES;
/** Random requests, split evenly across the routes (each also gets four to ten fixed ones): about 25 s on two cores with 74 routes. */
const REQUEST_BUDGET = 2000;
const RUNS_PER_ROUTE = Math.min(60, Math.max(12, Math.ceil(REQUEST_BUDGET / ROUTES.length)));

/** Every field name any request schema knows, so generated objects reach the validators' deeper branches. */
function schemaFieldNames(): string[] {
  const names = new Set<string>();
  const visit = (schema: unknown, depth: number) => {
    const def = (schema as { _zod?: { def?: Record<string, unknown> } } | null)?._zod?.def;
    if (!def || depth > 6) return;
    if (def.type === 'object') {
      for (const [name, field] of Object.entries(def.shape as Record<string, unknown>)) {
        names.add(name);
        visit(field, depth + 1);
      }
    }
    for (const inner of [def.in, def.out, def.innerType, def.element, def.left, def.right, ...((def.options as unknown[]) ?? [])]) visit(inner, depth + 1);
  };
  const modules = import.meta.glob<Record<string, unknown>>('../../../worker/schemas/*.ts', { eager: true });
  for (const exports of Object.values(modules)) for (const value of Object.values(exports)) visit(value, 0);
  return [...names];
}

const FIELD_NAMES = schemaFieldNames();

// ---------------------------------------------------------------- hostile values

/** Marker a prototype-pollution payload would plant on Object.prototype. */
const POLLUTION_MARKER = 'fuzzPolluted';

/**
 * Values that coerce to a plausible row id (5, "5", " 5 ", "0x5", [5], true) are never generated:
 * with a valid rest of the body they would credit, suspend or debit a real account of a test
 * file running alongside. Ids here are either invalid or far beyond any row.
 */
function couldBeARealId(value: unknown): boolean {
  // A one-element array coerces like its element: Number([5]) is 5.
  if (Array.isArray(value)) return value.length === 1 && couldBeARealId(value[0]);
  if (typeof value !== 'number' && typeof value !== 'string' && typeof value !== 'boolean') return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n < 1_500_000_000;
}

/** Printable ASCII: what a header value may carry without workerd re-encoding it. */
const headerText = (maxLength: number) => fc.string({ unit: 'grapheme-ascii', maxLength });

const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    '\uDFFF\uD800',
    '\u202Eevil',
    '\uFEFF',
    '𝕬𝖉𝖒𝖎𝖓',
    '🔥'.repeat(50),
    'ǅ',
    '../../etc/passwd',
    "' or '1'='1",
    "'; drop table users; --",
    '$1',
    '<img src=x onerror=alert(1)>',
    '{{7*7}}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as typed: the ${...} must stay literal
    '${7*7}',
    '%s%n%x',
    'NaN',
    'Infinity',
    '-Infinity',
    '1e309',
    '-0',
    '0x10',
    '0b11',
    '1_000',
    '１２３',
    '١٢٣',
    '100.001',
    '  100  ',
    '-100',
    '5e-324',
    '2024-13-45',
    '2024-02-30',
    '0000-00-00',
    '9999-99-99',
    '2024-1-1',
    'yesterday',
    'admin@example.com',
    'a@b.co',
    'A@B.CO ',
    'a@b.co\u0000',
    'user@[127.0.0.1]',
    `${'a'.repeat(250)}@example.com`,
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
  ),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => 'é'.repeat(n)),
);

const hostileNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    0.1,
    0.001,
    1.005,
    99.999,
    1e21,
    1e308,
    -1e308,
    5e-324,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    2 ** 31,
    2 ** 63,
    -(2 ** 31) - 1,
  ),
  fc.double(),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
);

const pollutionObject = fc.constantFrom<Record<string, unknown>>(
  { ['__proto__']: { [POLLUTION_MARKER]: true, userType: 1 } },
  { constructor: { prototype: { [POLLUTION_MARKER]: true } } },
  { prototype: { [POLLUTION_MARKER]: true } },
);

const hostileValue: fc.Arbitrary<unknown> = fc
  .oneof(
    { arbitrary: hostileString, weight: 4 },
    { arbitrary: hostileNumber, weight: 3 },
    { arbitrary: fc.constantFrom(null, true, false), weight: 1 },
    { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
    { arbitrary: fc.array(hostileString, { maxLength: 5 }), weight: 1 },
    { arbitrary: pollutionObject, weight: 1 },
  )
  .filter((value) => !couldBeARealId(value));

/** Objects with the schemas' own field names (and pollution keys) holding hostile values. */
const hostileObject = fc.dictionary(fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor', 'prototype', 'userType', 'isAdmin'), hostileValue, {
  maxKeys: 8,
});

const deepNesting = fc
  .integer({ min: 50, max: 12_000 })
  .chain((depth) => fc.constantFrom('['.repeat(depth) + ']'.repeat(depth), `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, '['.repeat(depth)));

const rawBody = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '{"a":',
    '{"email": "a@b.co",}',
    "{'a': 1}",
    'NaN',
    'undefined',
    'null',
    '[]',
    '"text"',
    '123',
    'true',
    '\uFEFF{}',
    '{"a":1}{"b":2}',
    '{"__proto__":{"fuzzPolluted":true}}',
    '{"constructor":{"prototype":{"fuzzPolluted":true}}}',
    '{"amount":1e999}',
    '{"amount":-0}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '\u0000\u0000',
    'a=1&b=2',
    '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.integer({ min: 60_000, max: 70_000 }).map((n) => JSON.stringify({ text: 'x'.repeat(n) })),
  fc.integer({ min: 60_000, max: 70_000 }).map((n) => 'x'.repeat(n)),
  deepNesting,
);

const formBody = hostileObject.map((fields) =>
  new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])).toString(),
);

const body = fc.oneof(
  { arbitrary: hostileObject.map((fields) => JSON.stringify(fields)), weight: 5 },
  { arbitrary: rawBody, weight: 3 },
  { arbitrary: formBody, weight: 1 },
  { arbitrary: fc.constant(undefined), weight: 1 },
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  '*/*',
  ';;;',
  'application/json, text/html',
);

const pathSegment = fc.oneof(
  fc.constantFrom(
    '0',
    '-1',
    '1.5',
    '1e400',
    '2147483648',
    '9007199254740993',
    'NaN',
    'null',
    '__proto__',
    'constructor',
    '%',
    '%E0%A4%A',
    '%00',
    '%2F',
    '%2e%2e',
    ' ',
    '%20',
    'true',
    "'or'1'='1",
    '%F0%9F%94%A5',
  ),
  fc.integer({ min: 1_500_000_000, max: 2_147_483_647 }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
  fc.integer({ min: 200, max: 5000 }).map((n) => 'a'.repeat(n)),
);

/** List filters most query schemas share get half the picks; any schema field name the rest. */
const queryKey = fc.oneof(
  fc.constantFrom(
    'page',
    'limit',
    'search',
    'from',
    'to',
    'type',
    'status',
    'sort',
    'userId',
    'providerId',
    'enabled',
    'category',
    '__proto__[fuzzPolluted]',
    'constructor[prototype][fuzzPolluted]',
    'a[]',
    '',
  ),
  fc.constantFrom(...FIELD_NAMES),
);
const dateLike = fc
  .tuple(fc.integer({ min: -1, max: 10_000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
  .map(([year, month, day]) => `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
const queryValue = fc.oneof(
  hostileString.map((value) => encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, ''))),
  fc.constantFrom('%', '%E0%A4%A', '%00', '-1', '0', '1e9', '99999999999999999999', '1.5', '', 'true', 'yes'),
  dateLike,
  dateLike.map((date) => `${date}T25:61:00Z`),
  fc.integer({ min: 1000, max: 10_000 }).map((n) => 'q'.repeat(n)),
);
const queryString = fc
  .array(fc.tuple(queryKey, queryValue), { maxLength: 6 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));

// ---------------------------------------------------------------- who is asking

/** Authorization headers: mostly the role's own session (to get past the guards), else forged or broken. */
type AuthVariant = 'own' | 'none' | 'forged-session' | 'escalated' | 'wrong-secret' | 'alg-none' | 'expired' | 'garbage' | 'huge' | 'basic';
const authVariant = fc.oneof(
  { arbitrary: fc.constant<AuthVariant>('own'), weight: 12 },
  {
    arbitrary: fc.constantFrom<AuthVariant>('none', 'forged-session', 'escalated', 'wrong-secret', 'alg-none', 'expired', 'garbage', 'huge', 'basic'),
    weight: 4,
  },
);

const cookie = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 4 },
  {
    arbitrary: fc.constantFrom('refresh_token=', 'refresh_token=%E0%A4%A', 'refresh_token=a; refresh_token=b', '=;=;;', 'refresh_token="unterminated'),
    weight: 1,
  },
  { arbitrary: fc.integer({ min: 4000, max: 30_000 }).map((n) => `refresh_token=${'c'.repeat(n)}`), weight: 1 },
  { arbitrary: headerText(200).map((text) => `refresh_token=${text}`), weight: 1 },
);

const extraHeaders = fc.dictionary(
  fc.constantFrom(
    'idempotency-key',
    'x-paystack-signature',
    'x-forwarded-for',
    'cf-connecting-ip',
    'accept',
    'origin',
    'x-http-method-override',
    'content-encoding',
    'accept-encoding',
    'user-agent',
  ),
  fc.oneof(
    headerText(80),
    fc.constantFrom('gzip', 'br', 'deflate', 'DELETE', 'ab'.repeat(64), '*/*'),
    fc.integer({ min: 300, max: 8000 }).map((n) => 'h'.repeat(n)),
  ),
  { maxKeys: 3 },
);

interface Sessions {
  user: TestAccount;
  admin: TestAccount;
  /** Tokens that are well-formed but must never be accepted. */
  forged: Record<Exclude<AuthVariant, 'own' | 'none' | 'garbage' | 'huge' | 'basic'>, string>;
}

function authorizationFor(role: Role, variant: AuthVariant, sessions: Sessions, garbage: string): string | undefined {
  switch (variant) {
    case 'own':
      return role === 'visitor' ? undefined : `Bearer ${sessions[role].accessToken}`;
    case 'none':
      return undefined;
    case 'garbage':
      return `Bearer ${garbage}`;
    case 'huge':
      return `Bearer ${'A'.repeat(20_000)}`;
    case 'basic':
      return 'Basic YWRtaW46YWRtaW4=';
    default:
      return `Bearer ${sessions.forged[variant]}`;
  }
}

// ---------------------------------------------------------------- one request

interface FuzzRequest {
  role: Role;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

const PATH_PARAM = /:[A-Za-z0-9_]+(?:\{[^}]*\})?\??|\*/g;

interface RequestShape {
  role: Role;
  method: string;
  segments: string[];
  query: string;
  auth: AuthVariant;
  garbageToken: string;
  contentType: string;
  cookie: string | undefined;
  extraHeaders: Record<string, string>;
  body: string | undefined;
}

function buildRequest(route: Route, shape: RequestShape): FuzzRequest {
  let next = 0;
  const path = route.path.replace(PATH_PARAM, () => shape.segments[next++]);
  const headers: Record<string, string> = { 'cf-connecting-ip': uniqueIp(), ...shape.extraHeaders };
  const authorization = authorizationFor(shape.role, shape.auth, sessions, shape.garbageToken);
  if (authorization !== undefined) headers.authorization = authorization;
  if (shape.cookie !== undefined) headers.cookie = shape.cookie;
  const sendsBody = shape.method !== 'GET' && shape.method !== 'HEAD' && shape.body !== undefined;
  if (sendsBody && shape.contentType !== '') headers['content-type'] = shape.contentType;
  return { role: shape.role, method: shape.method, url: `${ORIGIN}${path}${shape.query}`, headers, body: sendsBody ? shape.body : undefined };
}

function randomRequestFor(route: Route): fc.Arbitrary<FuzzRequest> {
  const params = route.path.match(PATH_PARAM) ?? [];
  return fc
    .record({
      role: fc.constantFrom(...rolesFor(route)),
      method: route.method === 'ALL' ? fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') : fc.constant(route.method),
      segments: fc.array(pathSegment, { minLength: params.length, maxLength: params.length }),
      query: queryString,
      auth: authVariant,
      garbageToken: headerText(300),
      contentType,
      cookie,
      extraHeaders,
      body,
    })
    .map((shape) => buildRequest(route, shape));
}

/**
 * Tried on every route before the random requests, signed in as user and as admin, with ids that
 * pass validation but name no row: shapes that broke handlers before (an update with every
 * optional field absent, NUL characters, impossible dates, numbers past every column's range).
 */
function knownTroubleFor(route: Route): FuzzRequest[] {
  const params = route.path.match(PATH_PARAM) ?? [];
  // One trouble per request: validation stops at the first problem, so combined they would hide each other.
  const troubles =
    route.method === 'GET'
      ? ['?search=a%00b', '?from=2024-02-30', '?to=0000-01-01', '?userId=99999999999', '?providerId=99999999999'].map((query) => ({ query, body: undefined }))
      : ['{}', JSON.stringify(Object.fromEntries(FIELD_NAMES.map((name) => [name, 'a\u0000b'])))].map((body) => ({ query: '', body }));
  return (startsTheShopsRun(route) ? (['user'] as const) : (['user', 'admin'] as const)).flatMap((role) =>
    troubles.map((trouble) =>
      buildRequest(route, {
        role,
        method: route.method === 'ALL' ? 'POST' : route.method,
        segments: params.map(() => '2147483000'),
        auth: 'own',
        garbageToken: '',
        contentType: 'application/json',
        cookie: undefined,
        extraHeaders: {},
        ...trouble,
      }),
    ),
  );
}

/**
 * Straight into the app the Worker exports, with the test bindings. Not SELF.fetch: in this
 * pool every SELF.fetch gets slower than the one before (workers-sdk#15446), which turns a
 * thousand requests into minutes.
 */
async function send(request: FuzzRequest): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(request.url, { method: request.method, headers: request.headers, body: request.body }), env, ctx);
  const settled = new Response(await response.arrayBuffer(), response);
  await waitOnExecutionContext(ctx);
  return settled;
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);

function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${clip(value, 120)}`)
    .join('\n    ');
  return `${request.method} ${clip(request.url, 400)} as ${request.role}\n    ${headers}${request.body === undefined ? '' : `\n  body: ${clip(JSON.stringify(request.body))}`}`;
}

/** Checks one answer against the contract; returns what is wrong, or null. */
async function contractViolation(request: FuzzRequest, response: Response): Promise<string | null> {
  const text = await response.text();
  const answer = `${response.status} ${clip(text)}`;
  if (response.status >= 500) return `server error ${answer}`;
  if (response.status >= 400) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `error answer is not JSON: ${answer}`;
    }
    const { message, error } = (parsed ?? {}) as { message?: unknown; error?: unknown };
    if (typeof message !== 'string' || typeof error !== 'string') return `error answer lacks string message and error: ${answer}`;
    if (!/^application\/json/.test(response.headers.get('content-type') ?? '')) return `error answer has content-type ${response.headers.get('content-type')}`;
  }
  const adminOnly = new URL(request.url).pathname.startsWith('/api/v1/admin/');
  if (adminOnly && response.status < 400 && request.headers.authorization !== `Bearer ${sessions.admin.accessToken}`) {
    return `admin route answered ${response.status} without the administrator's own session`;
  }
  if (POLLUTION_MARKER in Object.prototype) return 'Object.prototype was polluted';
  return null;
}

// ---------------------------------------------------------------- the property, per route

let sessions: Sessions;
let fuzzAccountIds: number[];
let moneyBefore: Awaited<ReturnType<typeof moneyOf>>;

async function moneyOf(userIds: number[]) {
  return withDb(async (db) => ({
    wallets: await db.select().from(wallets).where(inArray(wallets.userId, userIds)).orderBy(wallets.userId),
    ledger: await db.select().from(walletTransactions).where(inArray(walletTransactions.userId, userIds)).orderBy(walletTransactions.id),
  }));
}

/** A fresh session straight in the database, as sign-in makes one: signing in again would soon hit its rate limit. */
async function withNewSession(account: TestAccount, userType: number): Promise<TestAccount> {
  const [session] = await withDb((db) =>
    db
      .insert(sessionsTable)
      .values({ userId: account.id, expiresAt: new Date(Date.now() + 86_400_000) })
      .returning({ id: sessionsTable.id }),
  );
  return { ...account, accessToken: await signAccessToken(env.JWT_SECRET, { userId: account.id, userType, sessionId: session.id }) };
}

async function forgedTokens(user: TestAccount): Promise<Sessions['forged']> {
  const claims = JSON.parse(atob(user.accessToken.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))) as { sid: string };
  const encode = (value: unknown) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return {
    'forged-session': await signAccessToken(env.JWT_SECRET, { userId: user.id, userType: 1, sessionId: crypto.randomUUID() }),
    escalated: await signAccessToken(env.JWT_SECRET, { userId: user.id, userType: 1, sessionId: claims.sid }),
    'wrong-secret': await signAccessToken('not-the-secret-not-the-secret-not-the-secret', { userId: user.id, userType: 1, sessionId: claims.sid }),
    'alg-none': `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: String(user.id), typ: 1, sid: claims.sid, iss: 'smm-panel' })}.`,
    expired: await new SignJWT({ typ: 2, sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuer('smm-panel')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(new TextEncoder().encode(env.JWT_SECRET)),
  };
}

beforeAll(async () => {
  const [user, admin] = await Promise.all([registerAndLogin({ fullName: 'Fuzz User' }), createAdmin()]);
  // Money the fuzzing could wrongly move: any debit or second credit would show in the final comparison.
  const seeded = await call('user/admin-credit-user-wallet', {
    token: admin.accessToken,
    body: { amount: 1000, reference: unique('fuzz-seed'), userId: user.id },
  });
  expect(seeded.status).toBe(200);
  sessions = { user, admin, forged: await forgedTokens(user) };
  fuzzAccountIds = [user.id, admin.id];
  moneyBefore = await moneyOf(fuzzAccountIds);
});

describe(`fuzzing all ${ROUTES.length} routes (${RUNS_PER_ROUTE} requests each)`, () => {
  it('found the routes in the app', () => {
    expect(ROUTES.length).toBeGreaterThan(10);
    expect(ROUTES).toContainEqual({ method: 'POST', path: '/api/v1/auth/login' });
    expect(FIELD_NAMES).toEqual(expect.arrayContaining(['email', 'amount', 'reference', 'userId']));
  });

  it.each(ROUTES)('$method $path answers every hostile request with a 4xx JSON error or a success', async (route) => {
    const result = await fc.check(
      fc.asyncProperty(randomRequestFor(route), async (request) => {
        const response = await send(request);
        const violation = await contractViolation(request, response);
        if (violation) throw new Error(violation);
        // A fuzzed sign-out that worked ended the role's session; open another to keep fuzzing past the guards.
        if (
          response.ok &&
          route.path.endsWith('/auth/logout') &&
          request.role !== 'visitor' &&
          request.headers.authorization === `Bearer ${sessions[request.role].accessToken}`
        ) {
          sessions[request.role] = await withNewSession(sessions[request.role], request.role === 'admin' ? USER_TYPE.admin : USER_TYPE.user);
        }
      }),
      { numRuns: RUNS_PER_ROUTE, endOnFailure: true, examples: knownTroubleFor(route).map((request) => [request] as [FuzzRequest]) },
    );
    if (result.failed) {
      const [request] = result.counterexample ?? [];
      throw new Error(
        `${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n  request: ${request ? describeRequest(request) : '(none)'}\n  seed: ${result.seed}`,
      );
    }
  });

  it('left every kobo where it was: no wallet or ledger row of the fuzzing accounts changed, and the books reconcile', async () => {
    expect(await moneyOf(fuzzAccountIds)).toEqual(moneyBefore);
    const report = await withDb((db) => reconcile(db));
    expect(report.balanceMismatches).toEqual([]);
    expect(report.brokenRunningBalances).toEqual([]);
    expect(report.paymentMismatches).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
