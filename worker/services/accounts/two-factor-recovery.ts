// One-time recovery codes for an administrator whose phone is lost: ten at a time, shown once, kept as
// hashes. A new set replaces the old one whole.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { twoFactorRecoveryCodes, users } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import { sha256Hex } from '../../lib/crypto';

export const RECOVERY_CODE_COUNT = 10;
/** Lowercase letters and digits a person cannot misread for another (no 0/o, 1/l/i, u/v). */
const ALPHABET = 'abcdefghjkmnpqrstwxyz23456789';
const HALF_LENGTH = 5;
/** What the login form accepts as a recovery code: letters and digits in two groups of five, the dash optional. */
export const RECOVERY_CODE_PATTERN = /^[a-z0-9]{5}-?[a-z0-9]{5}$/i;

function randomCharacters(count: number): string {
  let text = '';
  // Rejection sampling keeps every character equally likely (256 is no multiple of the alphabet's length).
  const ceiling = 256 - (256 % ALPHABET.length);
  while (text.length < count) {
    for (const byte of crypto.getRandomValues(new Uint8Array(count * 2))) {
      if (byte < ceiling && text.length < count) text += ALPHABET[byte % ALPHABET.length];
    }
  }
  return text;
}

const newRecoveryCode = () => `${randomCharacters(HALF_LENGTH)}-${randomCharacters(HALF_LENGTH)}`;

/** Salted with the account, so one table's hashes cannot be looked up for every account at once. */
async function recoveryCodeHash(userId: number, code: string): Promise<string> {
  const compact = code.trim().toLowerCase().replace('-', '');
  return sha256Hex(`${userId}:${compact.slice(0, HALF_LENGTH)}-${compact.slice(HALF_LENGTH)}`);
}

export const isRecoveryCode = (code: string) => RECOVERY_CODE_PATTERN.test(code.trim());

/** Replaces the account's codes with ten new ones, answered once in the clear. */
export async function replaceRecoveryCodes(tx: DbOrTx, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
  await tx.insert(twoFactorRecoveryCodes).values(await Promise.all(codes.map(async (code) => ({ userId, codeHash: await recoveryCodeHash(userId, code) }))));
  return codes;
}

export async function deleteRecoveryCodes(tx: DbOrTx, userId: number): Promise<void> {
  await tx.delete(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, userId));
}

/** Uses a code once: a conditional update claims it, so of two racing sign-ins with the same code one wins. */
export async function claimRecoveryCode(db: DbOrTx, userId: number, code: string): Promise<boolean> {
  const claimed = await db
    .update(twoFactorRecoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(twoFactorRecoveryCodes.userId, userId),
        eq(twoFactorRecoveryCodes.codeHash, await recoveryCodeHash(userId, code)),
        isNull(twoFactorRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorRecoveryCodes.id });
  return claimed.length === 1;
}

/** The count of unused codes, as a column of the caller's select from users. */
// The condition is built as its own fragment: a single-table select strips the table from its top-level columns,
// which would turn users.id into the codes' own id.
export const recoveryCodesLeftSql = sql<number>`(select count(*) from ${twoFactorRecoveryCodes} where ${and(eq(twoFactorRecoveryCodes.userId, users.id), isNull(twoFactorRecoveryCodes.usedAt))})::int`;
