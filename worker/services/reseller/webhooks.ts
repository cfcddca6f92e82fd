// A reseller's webhook endpoints: made with a secret shown once (kept encrypted, to sign with), listed with
// their recent deliveries, deleted, and sent a test. What may receive them is decided here: an https address
// that is public; plain http only to this machine on the local stack, where the sandbox receiver listens.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { users, webhookDeliveries, webhookEndpoints } from '../../../drizzle/schema';
import { MAX_WEBHOOKS_PER_USER, WEBHOOK_TEST_EVENT } from '../../../vocabulary';
import type { Db } from '../../db';
import { type Env, isLocalEnvironment } from '../../env';
import { publicAddress } from '../../lib/address';
import { encryptSecret, randomToken } from '../../lib/crypto';
import { AppError, conflict, invalid } from '../../lib/errors';
import type { CreateWebhookInput } from '../../schemas/webhooks';
import { deliveryBody, queueDeliveries } from './webhook-deliveries';

export const WEBHOOK_NOT_PUBLIC = 'Webhook URL must be a public address: private, loopback and link-local addresses cannot receive webhooks';
export const WEBHOOK_NOT_HTTPS = 'Webhook URL must start with https://';
const EMAIL_UNVERIFIED_FOR_WEBHOOKS = 'Confirm your email address before adding webhooks. Use the link we emailed you, or ask for a new one.';
/** Deliveries the API page shows, across the account's endpoints. */
const LOG_LENGTH = 30;

const notFound = () => new AppError('not_found', 'Webhook not found');
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/** Why an address may not receive webhooks, or null when it may. */
export function webhookUrlProblem(raw: string, local: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Webhook URL must be a full address, such as https://example.com/webhooks';
  }
  if (url.username || url.password) return 'Webhook URL must not carry a user name or password';
  // The URL parser has already turned every way of writing an IPv4 address (decimal, hex, short) into dotted form.
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  if (local && loopback) return url.protocol === 'http:' || url.protocol === 'https:' ? null : WEBHOOK_NOT_HTTPS;
  if (url.protocol !== 'https:') return WEBHOOK_NOT_HTTPS;
  const literal = /^[\d.]+$/.test(host) || host.includes(':');
  if (LOCAL_NAMES.test(host) || (literal && (publicAddress(host) === null || host.startsWith('::ffff:')))) return WEBHOOK_NOT_PUBLIC;
  return null;
}

export interface WebhookView {
  id: number;
  url: string;
  events: string[];
  createdAt: string;
}

const toView = (row: typeof webhookEndpoints.$inferSelect): WebhookView => ({
  id: row.id,
  url: row.url,
  events: row.events,
  createdAt: row.createdAt.toISOString(),
});

/** Makes an endpoint; the answer is the only time its secret is seen. */
export async function createWebhook(db: Db, env: Env, userId: number, input: CreateWebhookInput): Promise<WebhookView & { secret: string }> {
  const problem = webhookUrlProblem(input.url, isLocalEnvironment(env));
  if (problem) throw invalid(problem);
  const secret = `whsec_${randomToken(24)}`;
  const secretCiphertext = await encryptSecret(env.ENCRYPTION_KEY, secret);
  const row = await db.transaction(async (tx) => {
    // Simultaneous creations for one user queue on their row, so the cap holds for them too.
    const [owner] = await tx.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).for('no key update');
    if (!owner?.emailVerifiedAt) throw new AppError('forbidden', EMAIL_UNVERIFIED_FOR_WEBHOOKS, { code: 'email_unverified' });
    const [{ held }] = await tx.select({ held: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
    if (held >= MAX_WEBHOOKS_PER_USER) throw conflict(`You can have at most ${MAX_WEBHOOKS_PER_USER} webhooks. Delete one you no longer use first.`);
    const [created] = await tx.insert(webhookEndpoints).values({ userId, url: input.url, events: input.events, secretCiphertext }).returning();
    return created;
  });
  return { ...toView(row), secret };
}

/** The account's endpoints and their latest deliveries, in one round trip. */
export async function listWebhooks(db: Db, userId: number) {
  const [endpoints, deliveries] = await db.batch([
    db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(webhookEndpoints.id),
    db
      .select({
        id: webhookDeliveries.id,
        endpointId: webhookDeliveries.endpointId,
        event: webhookDeliveries.event,
        state: webhookDeliveries.state,
        attempts: webhookDeliveries.attempts,
        responseStatus: webhookDeliveries.responseStatus,
        error: webhookDeliveries.error,
        body: webhookDeliveries.body,
        createdAt: webhookDeliveries.createdAt,
        lastAttemptAt: webhookDeliveries.lastAttemptAt,
        deliveredAt: webhookDeliveries.deliveredAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookEndpoints.userId, userId))
      .orderBy(desc(webhookDeliveries.id))
      .limit(LOG_LENGTH),
  ]);
  return {
    endpoints: endpoints.map(toView),
    deliveries: deliveries.map((d) => ({
      ...d,
      createdAt: d.createdAt.toISOString(),
      lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
      deliveredAt: d.deliveredAt?.toISOString() ?? null,
    })),
  };
}

export async function deleteWebhook(db: Db, userId: number, id: number): Promise<void> {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw notFound();
}

/** "Send test": a delivery like any other (signed, logged, retried), queued at once. */
export async function sendTestWebhook(db: Db, env: Env, userId: number, id: number): Promise<{ deliveryId: number }> {
  const createdAt = new Date();
  const body = deliveryBody(WEBHOOK_TEST_EVENT, createdAt, { message: 'A test from your SMM panel: your endpoint receives our webhooks.' });
  // One statement, so an endpoint deleted meanwhile is simply not found.
  const { rows } = await db.execute<{ id: string }>(sql`
    insert into ${webhookDeliveries} (endpoint_id, event, subject, body, state, created_at, queued_at)
    select id, ${WEBHOOK_TEST_EVENT}, '{}'::jsonb, ${body}, 'sending', ${createdAt.toISOString()}::timestamptz, now()
    from ${webhookEndpoints} where id = ${id} and user_id = ${userId}
    returning id`);
  if (rows.length === 0) throw notFound();
  // A bigserial comes back as text from a raw statement.
  const deliveryId = Number(rows[0].id);
  await queueDeliveries(env, [deliveryId]);
  return { deliveryId };
}
