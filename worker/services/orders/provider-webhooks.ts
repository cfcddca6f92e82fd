// Webhooks from an upstream panel that is a shop like ours: it signs each delivery as our own webhooks are signed
// (providers/webhook-post.ts), and its order.status and refill.status events are read with the SMM client's own parsers
// and acted on by the very steps the sync uses for a polled answer. A webhook only hurries news along: every step is
// guarded by the order's or refill's open status, so a repeat, a replay within the window or a late one changes nothing
// twice, and the polling goes on as before for whatever a webhook never brought.
import { z } from 'zod';
import type { Db } from '../../db';
import type { Env } from '../../env';
import { verifyHmacHex } from '../../lib/crypto';
import { invalid, notFound, unauthenticated } from '../../lib/errors';
import { readRefillStatus } from '../../providers/smm/answers';
import { readOrderState } from '../../providers/smm/order-state';
import type { SmmRefillStatus } from '../../providers/smm/types';
import { getProvider, type ProviderRow, providerWebhookSecret } from '../catalogue';
import { recordWarningOnce } from '../oversight';
import { type ActOutcome, actOnReading, openOrderAtProvider, readAnswer } from './order-status-sync';
import { moveRefill, openRefillsAt } from './order-sync';

/** A signature older or newer than this is refused: a captured delivery cannot be replayed later. */
export const PROVIDER_WEBHOOK_MAX_SKEW_SECONDS = 300;

const INVALID_SIGNATURE = 'Invalid signature';

const providerId = z.union([z.number().int().nonnegative(), z.string().trim().min(1).max(100)]).transform(String);
const envelope = z.object({ event: z.string().min(1).max(100), data: z.unknown() });
// Only what names the order and its status is required here; the other fields are read one by one by readOrderState,
// which names any it cannot read, exactly as for a polled answer.
const orderStatusData = z.looseObject({ order: providerId, status: z.string() });
const refillStatusData = z.looseObject({ refill: providerId, status: z.string() });

export type ProviderWebhookOutcome =
  | { event: 'webhook.test' }
  | { event: 'order.status'; orderId: number | null; outcome: ActOutcome['kind'] | 'not open' }
  | { event: 'refill.status'; refillId: number | null; moved: boolean }
  | { event: 'ignored' };

function signatureParts(header: string | null): { t: string; v1: string } | null {
  const parts = new Map<string, string>();
  for (const part of (header ?? '').split(',')) {
    const at = part.indexOf('=');
    if (at > 0) parts.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  const t = parts.get('t');
  const v1 = parts.get('v1');
  return t && v1 && /^\d{1,12}$/.test(t) ? { t, v1 } : null;
}

async function verifySignature(secret: string, rawBody: string, header: string | null, nowSeconds: number): Promise<void> {
  const signature = signatureParts(header);
  if (signature === null || Math.abs(nowSeconds - Number(signature.t)) > PROVIDER_WEBHOOK_MAX_SKEW_SECONDS) throw unauthenticated(INVALID_SIGNATURE);
  if (!(await verifyHmacHex(secret, `${signature.t}.${rawBody}`, signature.v1))) throw unauthenticated(INVALID_SIGNATURE);
}

/** A signed delivery we cannot read changes nothing; an administrator hears of it, once until read. */
async function refuseUnreadable(db: Db, provider: ProviderRow, problem: string): Promise<never> {
  await recordWarningOnce(db, {
    kind: 'order_unclear_answer',
    providerId: provider.id,
    message: `${provider.name} sent a signed webhook the shop cannot read (${problem}). Nothing was changed; its orders are still followed by polling.`,
  });
  throw invalid(`Unreadable webhook: ${problem}`);
}

const issues = (error: z.ZodError) => error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; ');

/** Checks and acts on one delivery from provider `id`. Throws 404 (no such provider, or none that sends webhooks), 401, or 400. */
export async function receiveProviderWebhook(
  db: Db,
  env: Pick<Env, 'ENCRYPTION_KEY'>,
  id: number,
  rawBody: string,
  signatureHeader: string | null,
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<ProviderWebhookOutcome> {
  const provider = await getProvider(db, id);
  const secret = await providerWebhookSecret(env, provider);
  if (secret === null) throw notFound('Provider not found');
  await verifySignature(secret, rawBody, signatureHeader, nowSeconds);

  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return refuseUnreadable(db, provider, 'the body is not JSON');
  }
  const body = envelope.safeParse(json);
  if (!body.success) return refuseUnreadable(db, provider, issues(body.error));
  const { event, data } = body.data;

  if (event === 'webhook.test') return { event };
  if (event === 'order.status') {
    const parsed = orderStatusData.safeParse(data);
    if (!parsed.success) return refuseUnreadable(db, provider, `order.status ${issues(parsed.error)}`);
    const order = await openOrderAtProvider(db, provider.id, parsed.data.order);
    // Not ours, not yet linked, or already closed: a closed order is never reopened, so there is nothing to do.
    if (order === null) return { event, orderId: null, outcome: 'not open' };
    const reading = readAnswer(order, { ok: true, ...readOrderState(parsed.data) }, provider.currency);
    return { event, orderId: order.id, outcome: (await actOnReading(db, provider, order, reading)).kind };
  }
  if (event === 'refill.status') {
    const parsed = refillStatusData.safeParse(data);
    if (!parsed.success) return refuseUnreadable(db, provider, `refill.status ${issues(parsed.error)}`);
    let status: SmmRefillStatus;
    try {
      status = readRefillStatus('refill.status webhook', parsed.data.status);
    } catch {
      return refuseUnreadable(db, provider, `refill.status with the status ${JSON.stringify(parsed.data.status)}`);
    }
    const [refill] = await openRefillsAt(db, provider.id, parsed.data.refill);
    if (!refill) return { event, refillId: null, moved: false };
    return { event, refillId: refill.id, moved: await moveRefill(db, refill, status) };
  }
  // balance.low and events added later tell us nothing we act on; the delivery is taken so the panel stops retrying it.
  return { event: 'ignored' };
}
