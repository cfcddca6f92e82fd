// Proving the mailbox: a link emailed at registration (and on request) whose use marks the address
// confirmed, or moves the account to the address the link went to. Only the token's SHA-256 is stored.
// Until it is confirmed an account cannot make API keys, earn or trigger referral commission, or be promoted.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { emailVerifications, users } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import type { Env } from '../../env';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { isUniqueViolation } from '../../lib/db-errors';
import { conflict, invalid } from '../../lib/errors';
import { sendShopEmail } from '../notifications';
import { emailConfirmationText } from './account-emails';
import { enforceRateLimits, type RateLimit } from './rate-limit';

export const EMAIL_VERIFICATION_TTL_HOURS = 48;
export const EMAIL_LINK_INVALID = 'This confirmation link is invalid or has expired. Sign in and ask for a new one.';
export const EMAIL_ALREADY_CONFIRMED = 'Your email address is already confirmed.';
export const EMAIL_TAKEN_MEANWHILE = 'Another account now uses this email address, so it cannot be confirmed for yours.';

/** A lost email can be asked for again soon; a mailbox cannot be flooded through the button. */
export const RESEND_LIMITS = {
  perMinute: { limit: 1, windowSeconds: 60 },
  perDay: { limit: 10, windowSeconds: 86_400 },
} satisfies Record<string, Omit<RateLimit, 'key'>>;

interface Recipient {
  id: number;
  email: string;
  fullName: string;
}

const expiry = () => sql`now() + make_interval(hours => ${EMAIL_VERIFICATION_TTL_HOURS})`;

async function mailLink(db: DbOrTx, env: Env, to: Recipient, token: string): Promise<void> {
  const link = `${env.APP_URL}/verify-email?token=${encodeURIComponent(token)}`;
  await sendShopEmail(db, env, {
    to: to.email,
    token,
    subject: 'Confirm your email address',
    text: emailConfirmationText(to.fullName, link, EMAIL_VERIFICATION_TTL_HOURS),
  });
}

/** At registration: a link to the address the account was made with. */
export async function sendEmailConfirmation(db: DbOrTx, env: Env, user: Recipient): Promise<void> {
  const token = randomToken();
  await db.insert(emailVerifications).values({ tokenHash: await sha256Hex(token), userId: user.id, email: user.email, expiresAt: expiry() });
  await mailLink(db, env, user, token);
}

/** A new link on the signed-in owner's request, within RESEND_LIMITS; none once the address is confirmed. */
export async function resendEmailConfirmation(db: DbOrTx, env: Env, user: Recipient & { emailVerified: boolean }): Promise<void> {
  if (user.emailVerified) throw conflict(EMAIL_ALREADY_CONFIRMED);
  await enforceRateLimits(db, [
    { key: `verify-resend:user:${user.id}`, ...RESEND_LIMITS.perMinute },
    { key: `verify-resend-day:user:${user.id}`, ...RESEND_LIMITS.perDay },
  ]);
  const token = randomToken();
  const tokenHash = await sha256Hex(token);
  // Made only while the address is still unconfirmed: another tab may have confirmed it a moment ago.
  const [made] = await db
    .insert(emailVerifications)
    .select((qb) =>
      qb
        .select({
          tokenHash: sql<string>`${tokenHash}`.as('token_hash'),
          userId: users.id,
          email: users.email,
          createdAt: sql<Date>`now()`.as('created_at'),
          expiresAt: sql<Date>`${expiry()}`.as('expires_at'),
          usedAt: sql<Date | null>`null::timestamptz`.as('used_at'),
        })
        .from(users)
        .where(and(eq(users.id, user.id), isNull(users.emailVerifiedAt))),
    )
    .returning({ email: emailVerifications.email });
  if (!made) throw conflict(EMAIL_ALREADY_CONFIRMED);
  await mailLink(db, env, { ...user, email: made.email }, token);
}

/**
 * Uses a link, in one statement: the claim of the unused, unexpired token (of two racing uses, the one that
 * waits on its row lock finds it used), the account's address confirmed (and moved to the address the link
 * went to), and the user's other outstanding links spent. An address another account took meanwhile fails
 * the whole statement on its unique index, so the link stays usable.
 */
export async function confirmEmail(db: DbOrTx, token: string): Promise<void> {
  const tokenHash = await sha256Hex(token);
  let confirmed: boolean;
  try {
    const { rows } = await db.execute<{ user_id: number }>(sql`
      with claimed as (
        update ${emailVerifications} set used_at = now()
        where token_hash = ${tokenHash} and used_at is null and expires_at > now()
        returning user_id, email
      ), confirmed as (
        update ${users} u set email = claimed.email, email_verified_at = now(), updated_at = now()
        from claimed where u.id = claimed.user_id
        returning u.id
      ), others as (
        update ${emailVerifications} e set used_at = now()
        from claimed where e.user_id = claimed.user_id and e.used_at is null and e.token_hash <> ${tokenHash}
      )
      select id as user_id from confirmed`);
    confirmed = rows.length > 0;
  } catch (error) {
    if (isUniqueViolation(error, 'users_email_key')) throw conflict(EMAIL_TAKEN_MEANWHILE);
    throw error;
  }
  if (!confirmed) throw invalid(EMAIL_LINK_INVALID);
}
