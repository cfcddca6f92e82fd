// /api/v2, the reseller API (SMM panel "API v2"): one URL, `key` and `action` (and the action's
// fields) from the query string and/or a POST body (form-encoded, multipart or JSON), always a
// JSON answer. Refusals are HTTP 200 {"error": "..."}, which is what the protocol's clients read.
// A failure whose outcome is unknown (the database dropped mid-call) is a 503 with the same
// shape, so a client that checks the status knows to look before it retries an `add`. A call
// over the key's rate limit is a 429 with Retry-After and the words tools retry on: nothing was
// done, and both a client reading the body and an HTTP client honouring 429 wait and try again.
// `services`, `status`, `refill_status` and `balance` also answer GET, as panels do; `add`,
// `refill` and `cancel` over GET are a 405 with the same shape, before the key is even looked at.
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../context';
import { describeError } from '../../lib/db-errors';
import { AppError, invalid } from '../../lib/errors';
import { isRecord } from '../../providers/http';
import { PANEL_ERRORS, RESELLER_POST_ONLY_ACTIONS, resellerActionSchema } from '../../schemas/reseller-api';
import { answerResellerCall, type ResellerParams, refusalText } from '../../services/reseller';

/** Room for a Custom Comments order of a few hundred long lines. */
const MAX_BODY_BYTES = 256 * 1024;
const UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';
/** The rate limit counts fixed one-minute windows, so waiting one always clears it. */
const RATE_LIMIT_WINDOW_SECONDS = 60;
const POST_ONLY = 'The add, refill and cancel actions must be sent with POST, with the key in the body';

/** The call's fields: the query string, then the body's fields over it (clients mix the two). */
async function readParams(c: Context<AppEnv>): Promise<ResellerParams> {
  const query = Object.entries(c.req.query());
  if (c.req.method !== 'POST') return Object.fromEntries(query);
  if (Number(c.req.header('content-length') ?? '0') > MAX_BODY_BYTES) throw invalid('Request body is too large');
  const body = await c.req.arrayBuffer();
  if (body.byteLength > MAX_BODY_BYTES) throw invalid('Request body is too large');
  if (body.byteLength === 0) return Object.fromEntries(query);
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (type.includes('application/json')) {
    let data: unknown;
    try {
      data = JSON.parse(new TextDecoder().decode(body));
    } catch {
      throw invalid(PANEL_ERRORS.incorrectRequest);
    }
    if (!isRecord(data)) throw invalid(PANEL_ERRORS.incorrectRequest);
    return Object.fromEntries([...query, ...Object.entries(data)]);
  }
  if (type.includes('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Response(body, { headers: { 'content-type': type } }).formData();
    } catch {
      throw invalid(PANEL_ERRORS.incorrectRequest);
    }
    // Uploaded files are no field of the protocol.
    return Object.fromEntries([...query, ...[...form.entries()].filter(([, value]) => typeof value === 'string')]);
  }
  // Form-encoded, which is also what a body sent without a type means (`curl -d` and most clients).
  return Object.fromEntries([...query, ...new URLSearchParams(new TextDecoder().decode(body))]);
}

function isPostOnly(params: ResellerParams): boolean {
  const parsed = resellerActionSchema.safeParse(params);
  return parsed.success && RESELLER_POST_ONLY_ACTIONS.has(parsed.data.action);
}

async function answer(c: Context<AppEnv>) {
  try {
    const params = await readParams(c);
    if (c.req.method !== 'POST' && isPostOnly(params)) {
      c.header('Allow', 'POST');
      return c.json({ error: POST_ONLY }, 405);
    }
    return c.json(await answerResellerCall(c.var.db, c.env, params, c.req.header('idempotency-key')));
  } catch (error) {
    if (error instanceof AppError) {
      if (error.kind !== 'rate_limited') return c.json({ error: refusalText(error) });
      c.header('Retry-After', String(RATE_LIMIT_WINDOW_SECONDS));
      return c.json({ error: refusalText(error) }, 429);
    }
    c.var.log.error('reseller API call failed', { error: describeError(error) });
    return c.json({ error: UNAVAILABLE, message: UNAVAILABLE }, 503);
  }
}

export const resellerApiRoutes = new Hono<AppEnv>().get('/', answer).post('/', answer);
