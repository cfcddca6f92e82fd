// Wrong passwords, counted where a stranger's guesses cannot reach the owner: per account and address, or per
// account and device once that device (its cookie) has signed in to the account. After a few free failures each
// further one blocks only its pair, for twice as long as the last. Against guesses spread over many addresses,
// each account also counts its failures per hour: past a ceiling, only the devices and addresses the account has
// signed in from before may still try. Unknown emails are counted the same way, so no answer tells them apart.
import { and, eq, lt, sql } from 'drizzle-orm';
import { signInFailures } from '../../../drizzle/schema';
import type { Db } from '../../db';
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

export type AttemptClaim = {
  /** The key the attempt counts on: its device's when the account knows that device, else its address's. */
  pair: string;
  known_device: boolean;
  known_address: boolean;
  /** False when the pair is waiting out a delay, or the account's ceiling shuts strangers out. */
  claimed: boolean;
  wait_seconds: number;
};

/**
 * Counts the attempt as a failure before its password is checked (a right password gives it back), in one
 * statement for the sign-in's first batch. Each count is claimed under its row's lock, the account's first
 * (the sign-in's own batch takes them in the same order), so a burst of parallel guesses gets no more tries
 * than guesses one after another: each finds the block or the ceiling the ones before it set.
 */
export function claimAttemptQuery(db: Db, attempt: SignInAttempt) {
  const { freeFailures, maxDelaySeconds, quietResetSeconds, accountCeiling, accountWindowSeconds } = SIGN_IN_LIMITS;
  const pairFailures = sql`(case when f.last_failure_at < now() - make_interval(secs => ${quietResetSeconds}) then 1 else f.failures + 1 end)`;
  const delaySeconds = sql`(case when ${pairFailures} <= ${freeFailures} then 0 else least(${maxDelaySeconds}, power(2, ${pairFailures} - ${freeFailures} - 1)) end)`;
  const account = accountKey(attempt);
  return db.execute<AttemptClaim>(sql`
    with place as (
      select coalesce(bool_or(exists (select 1 from sessions s where s.user_id = u.id and s.device = ${attempt.device})), false) as known_device,
             coalesce(bool_or(exists (select 1 from sessions s where s.user_id = u.id and s.ip = ${attempt.address})), false) as known_address
      from users u where u.email = ${attempt.email}
    ),
    target as (
      select case when known_device then ${deviceKey(attempt)} else ${addressKey(attempt)} end as pair,
             known_device or known_address as familiar, known_device, known_address
      from place
    ),
    account_claim as (
      insert into sign_in_failures as f (key, failures, last_failure_at, blocked_until)
      select ${account}, 1, now(), now() + make_interval(secs => ${accountWindowSeconds}) from target
      where not exists (select 1 from sign_in_failures p where p.key = target.pair and p.blocked_until > now())
      on conflict (key) do update set
        failures = case when f.blocked_until <= now() then 1 else f.failures + 1 end,
        last_failure_at = now(),
        blocked_until = case when f.blocked_until <= now() then now() + make_interval(secs => ${accountWindowSeconds}) else f.blocked_until end
      where (select familiar from target) or f.blocked_until <= now() or f.failures < ${accountCeiling}
      returning f.key
    ),
    pair_claim as (
      insert into sign_in_failures as f (key, failures, last_failure_at, blocked_until)
      select pair, 1, now(), now() from target where exists (select 1 from account_claim)
      on conflict (key) do update set
        failures = ${pairFailures},
        last_failure_at = now(),
        blocked_until = now() + make_interval(secs => ${delaySeconds})
      where f.blocked_until <= now()
      returning f.key
    )
    select target.pair, target.known_device, target.known_address,
      exists (select 1 from pair_claim) as claimed,
      greatest(1,
        (select ceil(extract(epoch from p.blocked_until - now())) from sign_in_failures p where p.key = target.pair),
        (select ceil(extract(epoch from a.blocked_until - now())) from sign_in_failures a
          where a.key = ${account} and not target.familiar and a.failures >= ${accountCeiling})
      )::int as wait_seconds
    from target`);
}

/** Refuses, before any password is checked, an attempt whose pair is blocked or which the ceiling shuts out. */
export function refuseUnclaimed(claim: AttemptClaim): void {
  if (!claim.claimed) throw tooManyAttempts(claim.wait_seconds);
}

/**
 * A right password gives its attempt back: off the account's count, and its own pair cleared (delays a
 * stranger earned on another pair stay theirs). The account's row first, in the claim's lock order; batched with the sign-in.
 */
export const forgiveAttemptQueries = (db: Db, attempt: SignInAttempt, pair: string) =>
  [
    db
      .update(signInFailures)
      .set({ failures: sql`greatest(0, ${signInFailures.failures} - 1)` })
      .where(eq(signInFailures.key, accountKey(attempt))),
    db.delete(signInFailures).where(eq(signInFailures.key, pair)),
  ] as const;

/**
 * The cron's sweep: a row quiet for a day counts from nothing again at its next failure, and its block has
 * long ended, so dropping it changes no answer; it keeps guesses at random emails from piling up.
 */
export async function forgetQuietSignInFailures(db: Db): Promise<{ forgotten: number }> {
  const quietSince = sql`now() - make_interval(secs => ${SIGN_IN_LIMITS.quietResetSeconds})`;
  const forgotten = await db
    .delete(signInFailures)
    .where(and(lt(signInFailures.lastFailureAt, quietSince), lt(signInFailures.blockedUntil, sql`now()`)))
    .returning({ key: signInFailures.key });
  return { forgotten: forgotten.length };
}
