// TOTP sign-in for administrators: set up (pending), confirmed with a first code (which also answers ten
// recovery codes), then asked for at every login. Each code works once (the last accepted step is kept).
// Wrong codes after a right password are counted per account: enough of them lock two-factor sign-in for a
// while and tell the owner, whose password someone else then knows.
import { and, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { users } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import { describeError } from '../../lib/db-errors';
import { conflict, invalid, unauthenticated } from '../../lib/errors';
import { log } from '../../lib/log';
import { base32Decode, base32Encode, matchingStep, otpauthUrl } from '../../lib/totp';
import { TWO_FACTOR_REQUIRED } from '../../schemas/auth';

import { recordAudit } from '../oversight';
import { adminTwoFactorRequiredSql } from '../settings';
import { tooManyAttempts } from './rate-limit';
import { type SignInPlace, sendTwoFactorLockAlert } from './sign-in-notices';
import { claimRecoveryCode, deleteRecoveryCodes, isRecoveryCode, recoveryCodesLeftSql, replaceRecoveryCodes } from './two-factor-recovery';

export const TWO_FACTOR_PROMPT = 'Enter the 6-digit code from your authenticator app.';
export const TWO_FACTOR_INVALID = 'That code is not valid. Check your authenticator app and try again.';
export const TWO_FACTOR_LIMITS = { wrongCodes: 5, lockMinutes: 15 } as const;

interface TwoFactorRow {
  id: number;
  totpSecretEncrypted: string | null;
  totpEnabledAt: Date | null;
}

/** Whether this administrator must set up two-factor sign-in before anything else, as a column of a select from users. */
export const twoFactorSetupRequiredSql = (env: Pick<Env, 'ENVIRONMENT'>): SQL<boolean> =>
  sql<boolean>`(${users.userType} = ${USER_TYPE.admin} and ${users.totpEnabledAt} is null and ${adminTwoFactorRequiredSql(env)})`;

/** Seconds two-factor sign-in stays locked (0 when it is not), as a column of a select from users. */
export const twoFactorLockSecondsSql = sql<number>`greatest(0, coalesce(ceil(extract(epoch from ${users.totpLockedUntil} - now())), 0))::int`;

async function secretOf(encryptionKey: string, row: TwoFactorRow) {
  if (!row.totpSecretEncrypted) throw invalid('Start the two-factor setup first');
  return base32Decode(await decryptSecret(encryptionKey, row.totpSecretEncrypted));
}

/**
 * Accepts a code once: the step is recorded with a conditional update, so the same code
 * (or an older one) replayed, even concurrently, is refused.
 */
async function consumeCode(db: DbOrTx, encryptionKey: string, row: TwoFactorRow, code: string): Promise<boolean> {
  const step = await matchingStep(await secretOf(encryptionKey, row), code);
  if (step === null) return false;
  const claimed = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, row.id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return claimed.length === 1;
}

const twoFactorColumns = { id: users.id, email: users.email, totpSecretEncrypted: users.totpSecretEncrypted, totpEnabledAt: users.totpEnabledAt };

async function loadRow(db: DbOrTx, userId: number) {
  const [row] = await db.select(twoFactorColumns).from(users).where(eq(users.id, userId));
  return row;
}

export async function twoFactorStatus(db: Db, env: Env, userId: number) {
  const [row] = await db
    .select({ totpEnabledAt: users.totpEnabledAt, recoveryCodesLeft: recoveryCodesLeftSql, required: adminTwoFactorRequiredSql(env) })
    .from(users)
    .where(eq(users.id, userId));
  return {
    enabled: Boolean(row?.totpEnabledAt),
    enabledAt: row?.totpEnabledAt?.toISOString() ?? null,
    recoveryCodesLeft: row?.totpEnabledAt ? row.recoveryCodesLeft : 0,
    required: row?.required ?? false,
  };
}

export async function startTwoFactorSetup(db: Db, encryptionKey: string, issuer: string, userId: number) {
  const row = await loadRow(db, userId);
  if (row.totpEnabledAt) throw conflict('Two-factor sign-in is already on. Turn it off first to set up a new device.');
  const secret = base32Encode(crypto.getRandomValues(new Uint8Array(20)));
  await db
    .update(users)
    .set({ totpSecretEncrypted: await encryptSecret(encryptionKey, secret), totpLastStep: null })
    .where(eq(users.id, userId));
  return { secret, otpauthUrl: otpauthUrl(issuer, row.email, secret) };
}

/** Turns two-factor sign-in on with a first code; answers the recovery codes, shown this once. */
export async function enableTwoFactor(db: Db, encryptionKey: string, userId: number, code: string): Promise<string[]> {
  const row = await loadRow(db, userId);
  if (row.totpEnabledAt) throw conflict('Two-factor sign-in is already on.');
  // Interactive: the change commits only if consumeCode accepted the code and claimed its time step.
  return db.transaction(async (tx) => {
    if (!(await consumeCode(tx, encryptionKey, row, code))) throw invalid(TWO_FACTOR_INVALID);
    await tx.update(users).set({ totpEnabledAt: new Date(), totpFailures: 0, totpLockedUntil: null }).where(eq(users.id, userId));
    await recordAudit(tx, { actorId: userId, action: 'two_factor.enable', target: { type: 'user', id: userId } });
    return replaceRecoveryCodes(tx, userId);
  });
}

/** A new set of recovery codes for a current authenticator code; the old set stops working. */
export async function regenerateRecoveryCodes(db: Db, encryptionKey: string, userId: number, code: string): Promise<string[]> {
  const row = await loadRow(db, userId);
  if (!row.totpEnabledAt) throw conflict('Two-factor sign-in is not on.');
  // Interactive: the new set replaces the old only if consumeCode accepted the code.
  return db.transaction(async (tx) => {
    if (!(await consumeCode(tx, encryptionKey, row, code))) throw invalid(TWO_FACTOR_INVALID);
    await recordAudit(tx, { actorId: userId, action: 'two_factor.recovery_codes', target: { type: 'user', id: userId } });
    return replaceRecoveryCodes(tx, userId);
  });
}

export async function disableTwoFactor(db: Db, encryptionKey: string, userId: number, code: string) {
  const row = await loadRow(db, userId);
  if (!row.totpEnabledAt) throw conflict('Two-factor sign-in is not on.');
  // Interactive: the change commits only if consumeCode accepted the code and claimed its time step.
  await db.transaction(async (tx) => {
    if (!(await consumeCode(tx, encryptionKey, row, code))) throw invalid(TWO_FACTOR_INVALID);
    await tx.update(users).set({ totpSecretEncrypted: null, totpEnabledAt: null, totpLastStep: null }).where(eq(users.id, userId));
    await deleteRecoveryCodes(tx, userId);
    await recordAudit(tx, { actorId: userId, action: 'two_factor.disable', target: { type: 'user', id: userId } });
  });
}

/**
 * Counts the code as wrong before it is checked (a right one resets the count), under the account row's lock,
 * so of a burst of parallel codes no more are checked than one after another. The last code the limit allows
 * locks two-factor sign-in as it is reserved: it lifts again if that code is right, and a request that never
 * finishes leaves a lock that ends rather than a count that never does.
 */
async function reserveCodeAttempt(db: DbOrTx, userId: number): Promise<{ reserved: boolean; last: boolean; waitSeconds: number }> {
  const { wrongCodes, lockMinutes } = TWO_FACTOR_LIMITS;
  const { rows } = await db.execute<{ reserved: boolean; last: boolean; wait_seconds: number }>(sql`
    with current as (
      select id, totp_failures + 1 >= ${wrongCodes} as last,
             (totp_locked_until is null or totp_locked_until <= now()) and totp_failures < ${wrongCodes} as allowed,
             ceil(extract(epoch from totp_locked_until - now())) as lock_seconds
      from users where id = ${userId} for update
    ),
    reserved as (
      update users set
        totp_failures = case when current.last then 0 else users.totp_failures + 1 end,
        totp_locked_until = case when current.last then now() + make_interval(mins => ${lockMinutes}) else users.totp_locked_until end
      from current where users.id = current.id and current.allowed
      returning users.id
    )
    select allowed as reserved, last, greatest(1, lock_seconds)::int as wait_seconds from current`);
  return { reserved: rows[0].reserved, last: rows[0].last, waitSeconds: rows[0].wait_seconds };
}

interface LoginCodeRow extends TwoFactorRow {
  email: string;
  fullName: string;
  /** twoFactorLockSecondsSql, read with the account. */
  totpLockSeconds: number;
}

/**
 * The login step, after a right password: a person with two-factor on must send a fresh code (or an unused
 * recovery code) with it. Codes are refused while two-factor sign-in is locked, with when to try again.
 */
export async function checkLoginCode(db: Db, env: Env, row: LoginCodeRow, code: string | undefined, place: SignInPlace): Promise<void> {
  if (!row.totpEnabledAt) return;
  if (row.totpLockSeconds > 0) throw tooManyAttempts(row.totpLockSeconds);
  if (!code) throw unauthenticated(TWO_FACTOR_PROMPT, { error: TWO_FACTOR_REQUIRED, code: 'two_factor_required' });
  const reservation = await reserveCodeAttempt(db, row.id);
  if (!reservation.reserved) throw tooManyAttempts(reservation.waitSeconds);
  const accepted = isRecoveryCode(code) ? await claimRecoveryCode(db, row.id, code) : await consumeCode(db, env.ENCRYPTION_KEY, row, code);
  // The sign-in's own batch then resets the count and lifts the lock the last allowed code set.
  if (accepted) return;
  if (!reservation.last) throw unauthenticated(TWO_FACTOR_INVALID, { error: TWO_FACTOR_REQUIRED, code: 'two_factor_required' });
  // No actor: whoever typed the codes is unknown; the entry shows administrators an attack on one of them.
  await recordAudit(db, { actorId: null, action: 'two_factor.locked', target: { type: 'user', id: row.id }, details: { ip: place.ip } });
  await sendTwoFactorLockAlert(db, env, row, place, TWO_FACTOR_LIMITS.lockMinutes).catch((error: unknown) =>
    log.error('two-factor lock alert not sent', { userId: row.id, error: describeError(error) }),
  );
  throw tooManyAttempts(TWO_FACTOR_LIMITS.lockMinutes * 60);
}
