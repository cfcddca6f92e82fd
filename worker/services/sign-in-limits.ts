// Wrong passwords, counted where a stranger's guesses cannot reach the owner: per account and address, or per
// account and device once that device (its cookie) has signed in to the account. After a few free failures each
// further one blocks only its pair, for twice as long as the last. Against guesses spread over many addresses,
// each account also counts its failures per hour: past a ceiling, only the devices and addresses the account has
// signed in from before may still try. Unknown emails are counted the same way, so no answer tells them apart.
import { eq, inArray, sql } from 'drizzle-orm';
import { signInFailures } from '../../drizzle/schema';
import type { Db } from '../db';
import { tooManyAttempts } from './rate-limit';

export const SIGN_IN_LIMITS = {
  /** Typos, a forgotten caps lock, a password manager out of date. */
  freeFailures: 5,
  maxDelaySeconds: 15 * 60,
  /** A pair's count starts again once it has been quiet this long. */
  quietResetSeconds: 24 * 3600,
  /** Failures of one account over every pair in one window, past which only known devices and addresses may try. */
  accountCeiling: 50,
  accountWindowSeconds: 3600,
} as const;

/** Who is trying to sign in, as the counts know them. */
export interface SignInAttempt {
  email: string;
  address: string;
  /** The browser's device cookie, when it sent one. */
  device: string | null;
}

const addressKey = ({ email, address }: SignInAttempt) => `${email}|ip:${address}`;
const deviceKey = ({ email, device }: SignInAttempt) => `${email}|device:${device}`;
/** The account's row counts failures of the window that ends at its blocked_until. */
const accountKey = ({ email }: SignInAttempt) => `${email}|account`;

/** The counts an attempt meets, read before the password is checked; travels in the sign-in's first batch. */
export function failureCountsQuery(db: Db, attempt: SignInAttempt) {
  const keys = [addressKey(attempt), accountKey(attempt), ...(attempt.device ? [deviceKey(attempt)] : [])];
  return db
    .select({
      key: signInFailures.key,
      failures: signInFailures.failures,
      secondsLeft: sql<number>`ceil(extract(epoch from ${signInFailures.blockedUntil} - now()))::int`,
    })
    .from(signInFailures)
    .where(inArray(signInFailures.key, keys));
}

export type FailureCounts = Awaited<ReturnType<typeof failureCountsQuery>>;

/** Where the attempt comes from, as far as the account's own earlier sign-ins know it. */
export interface Familiarity {
  knownDevice: boolean;
  knownAddress: boolean;
}

/**
 * Refuses, before any password is checked, an attempt whose pair is blocked, or a stranger's once the account's
 * ceiling is reached; otherwise answers the pair its failure would count against.
 */
export function pairAllowedToTry(attempt: SignInAttempt, familiarity: Familiarity, counts: FailureCounts): string {
  const pair = familiarity.knownDevice ? deviceKey(attempt) : addressKey(attempt);
  const blocked = counts.find((row) => row.key === pair && row.secondsLeft > 0);
  if (blocked) throw tooManyAttempts(blocked.secondsLeft);
  const account = counts.find((row) => row.key === accountKey(attempt));
  const stranger = !familiarity.knownDevice && !familiarity.knownAddress;
  if (stranger && account && account.failures >= SIGN_IN_LIMITS.accountCeiling && account.secondsLeft > 0) throw tooManyAttempts(account.secondsLeft);
  return pair;
}

/** Counts a wrong password against its pair (blocking it when past the free failures) and its account, in one round trip. */
export async function recordWrongPassword(db: Db, attempt: SignInAttempt, pair: string): Promise<void> {
  const { freeFailures, maxDelaySeconds, quietResetSeconds, accountWindowSeconds } = SIGN_IN_LIMITS;
  const failures = sql`(case when ${signInFailures.lastFailureAt} < now() - make_interval(secs => ${quietResetSeconds}) then 1 else ${signInFailures.failures} + 1 end)`;
  const delaySeconds = sql`(case when ${failures} <= ${freeFailures} then 0 else least(${maxDelaySeconds}, power(2, ${failures} - ${freeFailures} - 1)) end)`;
  const windowOver = sql`${signInFailures.blockedUntil} <= now()`;
  await db.batch([
    db
      .insert(signInFailures)
      .values({ key: pair, failures: 1, blockedUntil: sql`now()` })
      .onConflictDoUpdate({
        target: signInFailures.key,
        set: { failures: sql`${failures}`, lastFailureAt: sql`now()`, blockedUntil: sql`now() + make_interval(secs => ${delaySeconds})` },
      }),
    db
      .insert(signInFailures)
      .values({ key: accountKey(attempt), failures: 1, blockedUntil: sql`now() + make_interval(secs => ${accountWindowSeconds})` })
      .onConflictDoUpdate({
        target: signInFailures.key,
        set: {
          failures: sql`case when ${windowOver} then 1 else ${signInFailures.failures} + 1 end`,
          lastFailureAt: sql`now()`,
          blockedUntil: sql`case when ${windowOver} then now() + make_interval(secs => ${accountWindowSeconds}) else ${signInFailures.blockedUntil} end`,
        },
      }),
  ]);
}

/** A right password clears its own pair only: delays a stranger earned on another pair stay theirs. Batched with the sign-in. */
export const forgetPairQuery = (db: Db, pair: string) => db.delete(signInFailures).where(eq(signInFailures.key, pair));
