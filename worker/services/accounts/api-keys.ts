// Reseller API keys: a user's keys (create, list, rotate, revoke) and resolving the key a call
// brings. A key is shown once, when it is made or rotated; only its SHA-256 is stored.
import { and, asc, count, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { apiKeys, users } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { sha256Hex, toHex } from '../../lib/crypto';
import { AppError, conflict, notFound } from '../../lib/errors';

/** Enough for a few tools per account; a cap keeps forgotten keys from piling up. */
export const MAX_API_KEYS_PER_USER = 10;
const PREFIX_LENGTH = 8;

type ApiKeyRow = typeof apiKeys.$inferSelect;

function toApiKeyView(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    /** When the key last sent add, refill or cancel over GET, so its owner can move that tool to POST. */
    last_get_write_at: row.lastGetWriteAt?.toISOString() ?? null,
  };
}
export type ApiKeyView = ReturnType<typeof toApiKeyView>;

/** A fresh key: 256 random bits as 64 hex digits, which every reseller tool accepts as a key. */
async function newSecret(): Promise<{ key: string; keyHash: string; prefix: string }> {
  const key = toHex(crypto.getRandomValues(new Uint8Array(32)));
  return { key, keyHash: await sha256Hex(key), prefix: key.slice(0, PREFIX_LENGTH) };
}

const liveKeyOf = (userId: number, id: number) => and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));
const keyNotFound = () => notFound('API key not found');

/** A key acts for the account: whoever registered someone else's address must not get one before its owner notices. */
export const EMAIL_UNVERIFIED_FOR_KEYS = 'Confirm your email address before creating API keys. Use the link we emailed you, or ask for a new one.';
const emailUnverified = () => new AppError('forbidden', EMAIL_UNVERIFIED_FOR_KEYS, { code: 'email_unverified' });
const ownerVerified = (userId: number) => sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.emailVerifiedAt} is not null)`;

/** How long a stopped key stays on the API page, so its owner can see what stopped it. */
const REVOKED_SHOWN_DAYS = 30;

const toRevokedKeyView = (row: ApiKeyRow) => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  revoked_at: row.revokedAt?.toISOString() ?? null,
  revoked_reason: row.revokedReason ?? 'owner',
});

/**
 * The live keys, and those stopped in the last month (newest first), in one read: stopped by their owner,
 * or by a reset, password change or promotion, so the owner sees what happened to a tool's key.
 */
export const apiKeysQuery = (db: DbOrTx, userId: number) =>
  db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, sql`now() - make_interval(days => ${REVOKED_SHOWN_DAYS})`))))
    .orderBy(asc(apiKeys.id));

export function apiKeysView(rows: ApiKeyRow[]) {
  return {
    live: rows.filter((row) => !row.revokedAt).map(toApiKeyView),
    revoked: rows
      .filter((row) => row.revokedAt)
      .sort((a, b) => b.revokedAt!.getTime() - a.revokedAt!.getTime())
      .map(toRevokedKeyView),
  };
}

/** Makes a key; the answer is the only time its secret is seen. */
export async function createApiKey(db: Db, userId: number, name: string): Promise<ApiKeyView & { key: string }> {
  const { key, keyHash, prefix } = await newSecret();
  // Interactive: counts the live keys under the user's row lock, then decides.
  const row = await db.transaction(async (tx) => {
    // Simultaneous creations for one user queue on their row, so the cap holds for them too.
    const [owner] = await tx.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)).for('no key update');
    if (!owner?.emailVerifiedAt) throw emailUnverified();
    const [{ live }] = await tx
      .select({ live: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    if (live >= MAX_API_KEYS_PER_USER) throw conflict(`You can have at most ${MAX_API_KEYS_PER_USER} API keys. Revoke one you no longer use first.`);
    const [created] = await tx.insert(apiKeys).values({ userId, name, prefix, keyHash }).returning();
    return created;
  });
  return { ...toApiKeyView(row), key };
}

/** Replaces a key's secret: the old one stops at once, the new one is shown once. */
export async function rotateApiKey(db: Db, userId: number, id: number): Promise<ApiKeyView & { key: string }> {
  const { key, keyHash, prefix } = await newSecret();
  const [row] = await db
    .update(apiKeys)
    .set({ keyHash, prefix, createdAt: new Date(), lastUsedAt: null })
    .where(and(liveKeyOf(userId, id), ownerVerified(userId)))
    .returning();
  if (!row) {
    // Only a refused rotation costs a second read, to say which refusal it was.
    const [owner] = await db.select({ emailVerifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
    throw owner && !owner.emailVerifiedAt ? emailUnverified() : keyNotFound();
  }
  return { ...toApiKeyView(row), key };
}

export async function revokeApiKey(db: Db, userId: number, id: number): Promise<void> {
  const revoked = await db.update(apiKeys).set({ revokedAt: new Date(), revokedReason: 'owner' }).where(liveKeyOf(userId, id)).returning({ id: apiKeys.id });
  if (revoked.length === 0) throw keyNotFound();
}

export type KeyRevocationReason = Exclude<NonNullable<ApiKeyRow['revokedReason']>, 'owner'>;
export interface RevokedKey {
  name: string;
  prefix: string;
}

/** Stops every live key of the account at once (a reset, a password change, a promotion), saying which. */
export async function revokeAllApiKeys(db: DbOrTx, userId: number, reason: KeyRevocationReason): Promise<RevokedKey[]> {
  return db
    .update(apiKeys)
    .set({ revokedAt: new Date(), revokedReason: reason })
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning({ name: apiKeys.name, prefix: apiKeys.prefix });
}

export interface ApiCaller {
  keyId: number;
  userId: number;
  /** The wallet balance when the call came in (the `balance` action's answer). */
  balanceKobo: bigint;
}

/** What is kept of a key, and looked up when a call brings one. */
export const hashApiKey = (key: string): Promise<string> => sha256Hex(key);

/**
 * The caller behind a key, as a statement that can travel in a batch (read it with apiCallerOf): the key must be live
 * and its owner an active user, so a suspended user's keys stop at once (and work again on reactivation) and a revoked
 * or rotated-away key never matches. The same statement notes when the key was last used, to the minute, so a busy key
 * writes its row once a minute rather than on every call, and when it last sent a write over GET.
 */
export function apiCallerQuery(db: Db, keyHash: string, writeOverGet: boolean) {
  return db.execute<{ id: number; user_id: number; balance_kobo: string }>(sql`
    with caller as (
      select k.id, k.user_id, coalesce(w.balance_kobo, 0) as balance_kobo
      from api_keys k
      join users u on u.id = k.user_id
      left join wallets w on w.user_id = k.user_id
      where k.key_hash = ${keyHash} and k.revoked_at is null and u.status = 'active' and u.user_type = ${USER_TYPE.user}
    ), touched as (
      update api_keys set
        last_used_at = case when last_used_at is null or last_used_at < now() - interval '1 minute' then now() else last_used_at end,
        last_get_write_at = case when ${writeOverGet}::boolean then now() else last_get_write_at end
      where id in (select id from caller) and (${writeOverGet}::boolean or last_used_at is null or last_used_at < now() - interval '1 minute')
    )
    select id, user_id, balance_kobo from caller`);
}

export function apiCallerOf({ rows: [row] }: Awaited<ReturnType<typeof apiCallerQuery>>): ApiCaller | null {
  return row ? { keyId: Number(row.id), userId: Number(row.user_id), balanceKobo: BigInt(row.balance_kobo) } : null;
}
