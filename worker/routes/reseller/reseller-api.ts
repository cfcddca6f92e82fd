// /api/v2, the reseller API (SMM panel "API v2"): one URL, `key` and `action` (and the action's
// fields) from the query string and/or a POST body (form-encoded, multipart or JSON), always a
// JSON answer. Refusals are HTTP 200 {"error": "..."}, which is what the protocol's clients read.
// A failure whose outcome is unknown (the database dropped mid-call) is a 503 with the same
// shape, so a client that checks the status knows to look before it retries an `add`. Every
// answer to a known key carries X-RateLimit-Limit, -Remaining and -Reset (seconds) for the
// key's meter of that kind of call; a call over it is a 429 with Retry-After and the words tools
// retry on, nothing done. Every action answers GET as well as POST, as panels do; a write over
// GET is noted on the key, and a 405 with the same shape where the operator refuses them.
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../context';
import { describeError } from '../../lib/db-errors';
import { AppError, invalid } from '../../lib/errors';
import { isRecord } from '../../providers/http';
import { PANEL_ERRORS } from '../../schemas/reseller-api';
import type { Meter } from '../../services/accounts';
import { answerResellerCall, OrderedAnswer, type ResellerParams, refusalText } from '../../services/reseller';

/** Room for a Custom Comments order of a few hundred long lines. */
const MAX_BODY_BYTES = 256 * 1024;
const UNAVAILABLE = 'The service is briefly unavailable. Please try again in a moment.';

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

async function answer(c: Context<AppEnv>) {
  let retryAfter = 0;
  const onMeter = (meter: Meter) => {
    c.header('X-RateLimit-Limit', String(meter.limit));
    c.header('X-RateLimit-Remaining', String(meter.remaining));
    c.header('X-RateLimit-Reset', String(meter.resetSeconds));
    retryAfter = meter.resetSeconds;
  };
  try {
    const params = await readParams(c);
    const call = { params, idempotencyKey: c.req.header('idempotency-key'), overGet: c.req.method !== 'POST' };
    const answered = await answerResellerCall(c.var.db, c.env, call, onMeter);
    return answered instanceof OrderedAnswer ? c.body(answered.toJSONText(), 200, { 'Content-Type': 'application/json' }) : c.json(answered);
  } catch (error) {
    if (error instanceof AppError) {
      if (error.kind === 'method_not_allowed') {
        c.header('Allow', 'POST');
        return c.json({ error: error.message }, 405);
      }
      if (error.kind !== 'rate_limited') return c.json({ error: refusalText(error) });
      c.header('Retry-After', String(retryAfter));
      return c.json({ error: refusalText(error) }, 429);
    }
    c.var.log.error('reseller API call failed', { error: describeError(error) });
    return c.json({ error: UNAVAILABLE, message: UNAVAILABLE }, 503);
  }
}

export const resellerApiRoutes = new Hono<AppEnv>().get('/', answer).post('/', answer);
