// A referrer's commission on a referred user's deposit, from the money's side:
//   - earned in the transaction that credits the deposit (deposit-credited.ts), once per deposit (the unique
//     payment intent of referral_commissions), never for a voided referral or a suspended referrer, never
//     while either account's email address is unconfirmed, never between accounts that paid with the same
//     card or bank account or signed up from the same public address or browser, and never beyond the
//     operator's cap per referred account;
//   - held for the operator's hold days, then released by the cron (with no hold, at once): only then credited;
//   - following its deposit: when refunds and disputes take part of the deposit back, the same share of the
//     commission is taken back in the same transaction (debt for what the referrer already spent), and given
//     back if a dispute is then won (chargebacks.ts calls followDeposit).
// The referrer is told at each step.
import { and, eq, isNull, lte, sql } from 'drizzle-orm';
import { paymentIntents, referralCommissions, referrals, users } from '../../../drizzle/schema';
import type { ReversalStatus } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { formatNaira } from '../../lib/decimal';

import { notify } from '../notifications';
import { recordWarning } from '../oversight';
import type { CreditedDeposit } from './credited-deposit';
import { applyLedgerEntry } from './ledger';
import { displayName, referralRuleSql } from './referrals';
import { giveBack, settleDebt, takeBack } from './reversal-moves';

type Commission = typeof referralCommissions.$inferSelect;

const REFERRALS_PAGE = '/user/referrals';
const dateWords = (at: Date) => at.toLocaleDateString('en-NG', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'Africa/Lagos' });

/**
 * Why a referral earns nothing, as the administrators' warning says it: an account whose mailbox was never
 * proved may be someone else's address registered to farm commission, so neither side of it counts.
 */
const BLOCKED_BECAUSE = {
  'unconfirmed referrer': 'the referrer has not confirmed their email address',
  'unconfirmed referred': 'the depositor has not confirmed their email address',
  'sign-up address': 'the two accounts share a sign-up address',
  'sign-up device': 'the two accounts share a sign-up device',
  'payment card or bank account': 'the two accounts share a payment card or bank account',
} as const;
type BlockedBy = keyof typeof BLOCKED_BECAUSE;

/**
 * One statement for the common case (a depositor nobody referred: it finds nothing). For a referred one it
 * answers why no commission is due (an unconfirmed address; a shared card, bank account, sign-up address or
 * device) or records the commission.
 */
export async function earnCommission(tx: DbOrTx, deposit: CreditedDeposit): Promise<void> {
  const { enabled, rateBps, holdDays, capKobo } = referralRuleSql;
  const { rows } = await tx.execute<{
    referrer_id: number;
    full_name: string;
    blocked_by: BlockedBy | null;
    id: string | null;
    commission_kobo: string | null;
    release_at: string | null;
  }>(sql`
    with rule as (select ${enabled} as enabled, ${rateBps} as rate_bps, ${holdDays} as hold_days, ${capKobo} as cap_kobo),
    referral as (
      select r.referrer_id, referred.full_name, rule.rate_bps, rule.hold_days, rule.cap_kobo,
        case
          when referrer.email_verified_at is null then 'unconfirmed referrer'
          when referred.email_verified_at is null then 'unconfirmed referred'
          when referrer.signup_ip is not null and referrer.signup_ip = referred.signup_ip then 'sign-up address'
          when referrer.signup_device is not null and referrer.signup_device = referred.signup_device then 'sign-up device'
          when exists (
            select 1 from ${paymentIntents} mine join ${paymentIntents} theirs on theirs.payer_fingerprint = mine.payer_fingerprint
            where mine.user_id = r.referrer_id and theirs.user_id = r.referred_user_id and mine.status = 'success' and theirs.status = 'success'
          ) then 'payment card or bank account'
        end as blocked_by
      from ${referrals} r
      join ${users} referrer on referrer.id = r.referrer_id and referrer.status = 'active'
      join ${users} referred on referred.id = r.referred_user_id
      cross join rule
      where r.referred_user_id = ${deposit.userId} and r.voided_at is null and rule.enabled
    ),
    due as (
      -- bigint throughout: a parameter beside an int column would be typed int and overflow past ₦21 million.
      select referrer_id, rate_bps, hold_days,
        least(${deposit.amountKobo}::bigint * rate_bps / 10000, coalesce(cap_kobo - (
          -- Gross: a reversal counted off could be given back by a dispute won later, and the cap overrun.
          select coalesce(sum(c.commission_kobo), 0) from ${referralCommissions} c where c.referred_user_id = ${deposit.userId}
        ), ${deposit.amountKobo}::bigint)) as commission_kobo
      from referral where blocked_by is null
    ),
    recorded as (
      insert into ${referralCommissions} (referrer_id, referred_user_id, payment_intent_id, deposit_kobo, commission_kobo, rate_bps, release_at)
      select referrer_id, ${deposit.userId}, ${deposit.intentId}, ${deposit.amountKobo}::bigint, commission_kobo, rate_bps, now() + make_interval(days => hold_days)
      from due where commission_kobo > 0
      on conflict (payment_intent_id) do nothing
      returning id, referrer_id, commission_kobo, release_at
    )
    select referral.referrer_id, referral.full_name, referral.blocked_by, recorded.id, recorded.commission_kobo, recorded.release_at
    from referral left join recorded using (referrer_id)`);
  const [earned] = rows;
  if (!earned) return;
  const friend = displayName(earned.full_name);
  if (earned.blocked_by) {
    await recordWarning(tx, {
      kind: 'referral_blocked',
      message: `No referral commission for user #${earned.referrer_id} on deposit ${deposit.reference} by user #${deposit.userId}: ${BLOCKED_BECAUSE[earned.blocked_by]}.`,
      details: { referrerId: earned.referrer_id, referredUserId: deposit.userId, reference: deposit.reference, blockedBy: earned.blocked_by },
    });
    return;
  }
  if (earned.id === null || earned.commission_kobo === null || earned.release_at === null) return;
  const amount = formatNaira(BigInt(earned.commission_kobo));
  const releaseAt = new Date(earned.release_at);
  const held = releaseAt.getTime() > Date.now();
  await notify(tx, {
    userId: earned.referrer_id,
    kind: 'referral_earned',
    eventKey: earned.id,
    link: REFERRALS_PAGE,
    title: 'Referral commission earned',
    body: held
      ? `A deposit by ${friend} earned you ${amount}. It is held until ${dateWords(releaseAt)}, then added to your wallet.`
      : `A deposit by ${friend} earned you ${amount}, added to your wallet.`,
  });
  if (!held) await releaseCommission(tx, Number(earned.id));
}

/** Credits a held commission, less what its deposit's reversals already took, in the caller's transaction. */
async function releaseCommission(tx: DbOrTx, commissionId: number): Promise<boolean> {
  const [released] = await tx
    .update(referralCommissions)
    .set({ releasedAt: sql`now()`, creditedKobo: sql`${referralCommissions.commissionKobo} - ${referralCommissions.reversedKobo}` })
    .where(and(eq(referralCommissions.id, commissionId), isNull(referralCommissions.releasedAt)))
    .returning();
  if (!released) return false;
  const [deposit] = await tx
    .select({ reference: paymentIntents.reference, fullName: users.fullName })
    .from(paymentIntents)
    .innerJoin(users, eq(users.id, paymentIntents.userId))
    .where(eq(paymentIntents.id, released.paymentIntentId));
  const friend = displayName(deposit.fullName);
  if (released.creditedKobo > 0n) {
    await applyLedgerEntry(tx, {
      userId: released.referrerId,
      direction: 'credit',
      amountKobo: released.creditedKobo,
      source: 'referral_commission',
      sourceRef: deposit.reference,
      description: `Referral commission on a deposit by ${friend}`,
    });
    await settleDebt(tx, released.referrerId, `referral_commission:${deposit.reference}`);
  }
  await notify(tx, {
    userId: released.referrerId,
    kind: 'referral_released',
    eventKey: String(released.id),
    link: REFERRALS_PAGE,
    title: 'Referral commission ready to spend',
    body:
      released.creditedKobo > 0n
        ? `${formatNaira(released.creditedKobo)} of commission on a deposit by ${friend} is now in your wallet.`
        : `Your commission on a deposit by ${friend} was taken back before its hold ended: the deposit was refunded or disputed.`,
  });
  return true;
}

/** Cron: commissions whose hold has ended are credited, each with its deposit locked against a reversal arriving meanwhile. */
export async function releaseReferralCommissions(db: Db, _env?: unknown, limit = 100): Promise<{ released: number }> {
  const due = await db
    .select({ id: referralCommissions.id, intentId: referralCommissions.paymentIntentId })
    .from(referralCommissions)
    .innerJoin(users, and(eq(users.id, referralCommissions.referrerId), eq(users.status, 'active')))
    .where(and(isNull(referralCommissions.releasedAt), lte(referralCommissions.releaseAt, sql`now()`)))
    .orderBy(referralCommissions.releaseAt)
    .limit(limit);
  let released = 0;
  for (const { id, intentId } of due) {
    // Interactive: the deposit's lock first, as every reversal takes it, then the release.
    const done = await db.transaction(async (tx) => {
      await tx.select({ id: paymentIntents.id }).from(paymentIntents).where(eq(paymentIntents.id, intentId)).for('update');
      return releaseCommission(tx, id);
    });
    if (done) released += 1;
  }
  return { released };
}

const ceilShare = (commission: bigint, reversed: bigint, deposit: bigint) => (commission * reversed + deposit - 1n) / deposit;

/**
 * After a refund or dispute moved its deposit to `deposit.reversedKobo`: the commission's share follows, in the
 * same transaction, under the deposit's lock. A released one moves the referrer's wallet; a held one only shrinks.
 */
export async function followDeposit(
  tx: DbOrTx,
  deposit: { id: number; reference: string; amountKobo: bigint; reversedKobo: bigint },
  cause: { reversalId: number; step: ReversalStatus; ledgerRef: string },
): Promise<void> {
  const [commission]: Commission[] = await tx.select().from(referralCommissions).where(eq(referralCommissions.paymentIntentId, deposit.id)).for('update');
  if (!commission) return;
  const next = ceilShare(commission.commissionKobo, deposit.reversedKobo, deposit.amountKobo);
  const before = commission.reversedKobo;
  if (next === before) return;
  await tx.update(referralCommissions).set({ reversedKobo: next }).where(eq(referralCommissions.id, commission.id));
  const [{ fullName }] = await tx.select({ fullName: users.fullName }).from(users).where(eq(users.id, commission.referredUserId));
  const friend = displayName(fullName);
  const taking = next > before;
  const change = taking ? next - before : before - next;
  if (commission.releasedAt) {
    const move = { ...cause, intentId: deposit.id, userId: commission.referrerId, party: 'referrer' as const };
    if (taking) await takeBack(tx, move, change, `Referral commission taken back: a deposit by ${friend} was refunded or disputed`);
    else await giveBack(tx, move, change, `Referral commission returned: a dispute of a deposit by ${friend} was resolved`);
  }
  const where = commission.releasedAt
    ? taking
      ? 'taken from your wallet'
      : 'returned to your wallet'
    : taking
      ? 'taken off your held commission'
      : 'added back to your held commission';
  await notify(tx, {
    userId: commission.referrerId,
    kind: 'referral_reversed',
    eventKey: `${commission.id}:${cause.reversalId}:${cause.step}`,
    link: REFERRALS_PAGE,
    title: taking ? 'Referral commission taken back' : 'Referral commission returned',
    body: taking
      ? `A deposit by ${friend} was refunded or disputed, so ${formatNaira(change)} of your commission on it was ${where}.`
      : `A dispute of a deposit by ${friend} was resolved, so ${formatNaira(change)} of your commission on it was ${where}.`,
  });
}
