// Optional TOTP sign-in for administrators: set up (pending), confirmed with a first code,
// then asked for at every login. Each code works once (the last accepted step is kept).
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { users } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import { decryptSecret, encryptSecret } from '../lib/crypto';
import { conflict, invalid, unauthenticated } from '../lib/errors';
import { base32Decode, base32Encode, matchingStep, otpauthUrl } from '../lib/totp';
import { TWO_FACTOR_REQUIRED } from '../schemas/auth';
import { recordAudit } from './audit';

export const TWO_FACTOR_PROMPT = 'Enter the 6-digit code from your authenticator app.';
export const TWO_FACTOR_INVALID = 'That code is not valid. Check your authenticator app and try again.';

interface TwoFactorRow {
  id: number;
  totpSecretEncrypted: string | null;
  totpEnabledAt: Date | null;
}

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

export async function twoFactorStatus(db: Db, userId: number) {
  const row = await loadRow(db, userId);
  return { enabled: Boolean(row?.totpEnabledAt), enabledAt: row?.totpEnabledAt?.toISOString() ?? null };
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

export async function enableTwoFactor(db: Db, encryptionKey: string, userId: number, code: string) {
  const row = await loadRow(db, userId);
  if (row.totpEnabledAt) throw conflict('Two-factor sign-in is already on.');
  // Interactive: the change commits only if consumeCode accepted the code and claimed its time step.
  await db.transaction(async (tx) => {
    if (!(await consumeCode(tx, encryptionKey, row, code))) throw invalid(TWO_FACTOR_INVALID);
    await tx.update(users).set({ totpEnabledAt: new Date() }).where(eq(users.id, userId));
    await recordAudit(tx, { actorId: userId, action: 'two_factor.enable', target: { type: 'user', id: userId } });
  });
}

export async function disableTwoFactor(db: Db, encryptionKey: string, userId: number, code: string) {
  const row = await loadRow(db, userId);
  if (!row.totpEnabledAt) throw conflict('Two-factor sign-in is not on.');
  // Interactive: the change commits only if consumeCode accepted the code and claimed its time step.
  await db.transaction(async (tx) => {
    if (!(await consumeCode(tx, encryptionKey, row, code))) throw invalid(TWO_FACTOR_INVALID);
    await tx.update(users).set({ totpSecretEncrypted: null, totpEnabledAt: null, totpLastStep: null }).where(eq(users.id, userId));
    await recordAudit(tx, { actorId: userId, action: 'two_factor.disable', target: { type: 'user', id: userId } });
  });
}

/** The login step: a person with two-factor on must send a fresh code with the password. */
export async function checkLoginCode(db: DbOrTx, encryptionKey: string, row: TwoFactorRow, code: string | undefined): Promise<void> {
  if (!row.totpEnabledAt) return;
  if (!code) throw unauthenticated(TWO_FACTOR_PROMPT, { error: TWO_FACTOR_REQUIRED, code: 'two_factor_required' });
  if (!(await consumeCode(db, encryptionKey, row, code)))
    throw unauthenticated(TWO_FACTOR_INVALID, { error: TWO_FACTOR_REQUIRED, code: 'two_factor_required' });
}
