// Referrals: a sign-up through someone's link (/auth/register?ref=CODE) ties the new user to the
// referrer, who then earns a commission on each of that user's deposits. The commission is paid
// inside the transaction that credits the deposit (deposit-credited.ts): once per deposit (the
// unique payment intent of referral_commissions, and the ledger's unique reference behind it),
// never for a voided referral or a suspended referrer, and only while referrals are on.
import { and, count, desc, eq, isNull, sql, sum } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { referralCommissions, referrals, settings, users } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import type { Env } from '../env';
import { isUniqueViolation } from '../lib/db-errors';
import { koboToNaira, parseDecimalExact } from '../lib/decimal';
import { notFound } from '../lib/errors';
import {
  type AdminReferralsQuery,
  DEFAULT_REFERRAL_RATE_BPS,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  type ReferralSettingsInput,
} from '../schemas/referrals';
import { recordAudit } from './audit';
import type { CreditedDeposit } from './deposit-credited';
import { applyLedgerEntry } from './ledger';
import { bpsToPercent } from './margin';
import { saveSetting } from './settings';

const SETTINGS_KEY = 'referral';
export const REFERRAL_NOT_FOUND = 'This user did not sign up through a referral link.';

export interface ReferralSettings {
  enabled: boolean;
  rateBps: number;
}

/** The settings row as SQL, with the defaults, so the commission reads it in its own statement. */
const enabledSql = sql<boolean>`coalesce((select (value->>'enabled')::boolean from ${settings} where key = ${SETTINGS_KEY}), true)`;
const rateBpsSql = sql<number>`coalesce((select (value->>'rateBps')::int from ${settings} where key = ${SETTINGS_KEY}), ${DEFAULT_REFERRAL_RATE_BPS})`;

export async function getReferralSettings(db: DbOrTx): Promise<ReferralSettings> {
  const {
    rows: [row],
  } = await db.execute<{ enabled: boolean; rate_bps: number }>(sql`select ${enabledSql} as enabled, ${rateBpsSql} as rate_bps`);
  return { enabled: Boolean(row.enabled), rateBps: Number(row.rate_bps) };
}

export const referralSettingsView = ({ enabled, rateBps }: ReferralSettings) => ({ enabled, ratePercent: bpsToPercent(rateBps) });

export async function updateReferralSettings(db: Db, actorId: number, input: ReferralSettingsInput) {
  const next: ReferralSettings = { enabled: input.enabled, rateBps: Number(parseDecimalExact(input.ratePercent, 2)) };
  // Interactive: reads the settings before saving them, for the audit row's before and after.
  await db.transaction(async (tx) => {
    const before = await getReferralSettings(tx);
    await saveSetting(tx, SETTINGS_KEY, next, actorId);
    await recordAudit(tx, { actorId, action: 'settings.referral.update', target: { type: 'settings', id: SETTINGS_KEY }, details: { before, after: next } });
  });
  return referralSettingsView(next);
}

/** At sign-up, in the transaction creating the user: an unknown code (or one's own) ties nothing. */
export async function recordReferral(tx: DbOrTx, userId: number, code: string | undefined): Promise<void> {
  if (!code) return;
  await tx.execute(sql`
    insert into ${referrals} (referred_user_id, referrer_id)
    select ${userId}, id from ${users} where referral_code = ${code} and id <> ${userId}
    on conflict do nothing`);
}

/**
 * One statement for the common case (a depositor nobody referred: it finds nothing); for a
 * referred one it records the commission, and only a newly recorded one is credited.
 */
export async function payReferralCommission(tx: DbOrTx, deposit: CreditedDeposit): Promise<void> {
  const { rows } = await tx.execute<{ referrer_id: number; commission_kobo: string; username: string }>(sql`
    with rule as (select ${enabledSql} as enabled, ${rateBpsSql} as rate_bps),
    referral as (
      select r.referrer_id, referred.username, rule.rate_bps
      from ${referrals} r
      join ${users} referrer on referrer.id = r.referrer_id and referrer.status = 'active'
      join ${users} referred on referred.id = r.referred_user_id
      cross join rule
      where r.referred_user_id = ${deposit.userId} and r.voided_at is null and rule.enabled
    ),
    recorded as (
      -- bigint throughout: a parameter beside an int column would be typed int and overflow past ₦21 million.
      insert into ${referralCommissions} (referrer_id, referred_user_id, payment_intent_id, deposit_kobo, commission_kobo, rate_bps)
      select referrer_id, ${deposit.userId}, ${deposit.intentId}, ${deposit.amountKobo}::bigint, ${deposit.amountKobo}::bigint * rate_bps / 10000, rate_bps
      from referral where ${deposit.amountKobo}::bigint * rate_bps / 10000 > 0
      on conflict (payment_intent_id) do nothing
      returning referrer_id, commission_kobo
    )
    select recorded.referrer_id, recorded.commission_kobo, referral.username from recorded join referral using (referrer_id)`);
  const [paid] = rows;
  if (!paid) return;
  await applyLedgerEntry(tx, {
    userId: paid.referrer_id,
    direction: 'credit',
    amountKobo: BigInt(paid.commission_kobo),
    source: 'referral_commission',
    sourceRef: deposit.reference,
    description: `Referral commission on a deposit by ${paid.username}`,
  });
}

function newCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(REFERRAL_CODE_LENGTH));
  return Array.from(bytes, (b) => REFERRAL_CODE_ALPHABET[b % REFERRAL_CODE_ALPHABET.length]).join('');
}

/** The user's code, made the first time it is asked for (a clash with another user's tries again). */
export async function referralCodeOf(db: DbOrTx, userId: number): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const [row] = await db
        .update(users)
        .set({ referralCode: sql`coalesce(${users.referralCode}, ${newCode()})` })
        .where(eq(users.id, userId))
        .returning({ code: users.referralCode });
      if (!row?.code) throw notFound('User not found');
      return row.code;
    } catch (error) {
      if (!isUniqueViolation(error, 'users_referral_code_key')) throw error;
    }
  }
  throw new Error('could not find a free referral code');
}

/** GET user/referrals: the link, the rule, and who signed up through it with what they earned. */
export async function referralSummary(db: Db, env: Env, userId: number) {
  const earned = db
    .select({
      referredUserId: referralCommissions.referredUserId,
      deposits: count().as('deposits'),
      earned: sum(referralCommissions.commissionKobo).as('earned'),
    })
    .from(referralCommissions)
    .where(eq(referralCommissions.referrerId, userId))
    .groupBy(referralCommissions.referredUserId)
    .as('earned');
  const [code, rule, referred] = await Promise.all([
    referralCodeOf(db, userId),
    getReferralSettings(db),
    db
      .select({
        username: users.username,
        joinedAt: referrals.createdAt,
        voided: sql<boolean>`${referrals.voidedAt} is not null`,
        deposits: earned.deposits,
        earned: earned.earned,
      })
      .from(referrals)
      .innerJoin(users, eq(users.id, referrals.referredUserId))
      .leftJoin(earned, eq(earned.referredUserId, referrals.referredUserId))
      .where(eq(referrals.referrerId, userId))
      .orderBy(desc(referrals.createdAt))
      .limit(200),
  ]);
  const [totals] = await db
    .select({ signUps: count(), deposits: sql<number>`coalesce(sum(${earned.deposits}), 0)::int`, earned: sql<string>`coalesce(sum(${earned.earned}), 0)` })
    .from(referrals)
    .leftJoin(earned, eq(earned.referredUserId, referrals.referredUserId))
    .where(eq(referrals.referrerId, userId));
  return {
    ...referralSettingsView(rule),
    code,
    link: `${env.APP_URL.replace(/\/$/, '')}/auth/register?ref=${code}`,
    signUps: totals.signUps,
    depositsCredited: Number(totals.deposits),
    earnings: koboToNaira(BigInt(totals.earned)),
    referred: referred.map((r) => ({
      username: r.username,
      joinedAt: r.joinedAt.toISOString(),
      voided: r.voided,
      deposits: Number(r.deposits ?? 0),
      earned: koboToNaira(BigInt(r.earned ?? 0)),
    })),
  };
}

/** GET admin/referrals: newest first, with what each referral has paid so far. */
export async function listReferrals(db: Db, query: AdminReferralsQuery) {
  const referrer = alias(users, 'referrer');
  const referred = alias(users, 'referred');
  const where = query.userId ? sql`(${referrals.referrerId} = ${query.userId} or ${referrals.referredUserId} = ${query.userId})` : undefined;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({
        referral: referrals,
        referrer: { id: referrer.id, fullName: referrer.fullName, email: referrer.email },
        referred: { id: referred.id, fullName: referred.fullName, email: referred.email },
        commissions: sql<number>`(select count(*)::int from ${referralCommissions} c where c.referred_user_id = ${referrals.referredUserId})`,
        paid: sql<string>`(select coalesce(sum(c.commission_kobo), 0) from ${referralCommissions} c where c.referred_user_id = ${referrals.referredUserId})`,
      })
      .from(referrals)
      .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
      .innerJoin(referred, eq(referred.id, referrals.referredUserId))
      .where(where)
      .orderBy(desc(referrals.createdAt))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(referrals).where(where),
  ]);
  return {
    total,
    data: rows.map(({ referral, referrer: by, referred: of, commissions, paid }) => ({
      referrer: by,
      referred: of,
      createdAt: referral.createdAt.toISOString(),
      commissions: Number(commissions),
      paid: koboToNaira(BigInt(paid)),
      voidedAt: referral.voidedAt?.toISOString() ?? null,
      voidReason: referral.voidReason,
    })),
  };
}

/** Stops commissions on the referred user's later deposits; what was paid stays paid. Voiding twice changes nothing. */
export async function voidReferral(db: Db, actorId: number, referredUserId: number, reason: string) {
  // Interactive: the audit row follows only a void that matched; otherwise reads why not.
  return db.transaction(async (tx) => {
    const [voided] = await tx
      .update(referrals)
      .set({ voidedAt: sql`now()`, voidedBy: actorId, voidReason: reason })
      .where(and(eq(referrals.referredUserId, referredUserId), isNull(referrals.voidedAt)))
      .returning({ referrerId: referrals.referrerId });
    if (voided) {
      await recordAudit(tx, {
        actorId,
        action: 'referral.void',
        target: { type: 'user', id: referredUserId },
        details: { referrerId: voided.referrerId, reason },
      });
      return { voided: true };
    }
    const [existing] = await tx.select({ id: referrals.referredUserId }).from(referrals).where(eq(referrals.referredUserId, referredUserId));
    if (!existing) throw notFound(REFERRAL_NOT_FOUND);
    return { voided: false };
  });
}
