// Referrals: a sign-up through someone's link (/auth/register?ref=CODE) ties the new user to the referrer,
// who then earns a commission on each of that user's deposits once both have confirmed their email addresses
// (referral-commissions.ts: held, released, and following its deposit when it is refunded or disputed). This
// file holds the programme's settings, the link, what the referrer and the administrators see, and voiding.
import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { referralCommissions, referrals, settings, users } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { isUniqueViolation } from '../../lib/db-errors';
import { bpsToPercent, koboToNaira, nairaToKobo, parseDecimalExact } from '../../lib/decimal';
import { notFound } from '../../lib/errors';
import { pageIdsQuery } from '../../lib/paging';
import {
  type AdminReferralsQuery,
  DEFAULT_REFERRAL_HOLD_DAYS,
  DEFAULT_REFERRAL_RATE_BPS,
  REFERRAL_CODE_ALPHABET,
  REFERRAL_CODE_LENGTH,
  type ReferralSettingsInput,
} from '../../schemas/referrals';
import { recordAudit } from '../oversight';
import { saveSetting } from '../settings';

const SETTINGS_KEY = 'referral';
export const REFERRAL_NOT_FOUND = 'This user did not sign up through a referral link.';

export interface ReferralSettings {
  enabled: boolean;
  rateBps: number;
  /** Days a commission is held before it can be spent. */
  holdDays: number;
  /** The most one referred account can earn its referrer; null: no cap. */
  capKobo: bigint | null;
}

const setting = (field: string) => sql`(select value->>${field} from ${settings} where key = ${SETTINGS_KEY})`;
/** The settings as SQL, with the defaults, so the commission reads them in its own statement. */
export const referralRuleSql = {
  enabled: sql<boolean>`coalesce(${setting('enabled')}::boolean, true)`,
  rateBps: sql<number>`coalesce(${setting('rateBps')}::int, ${DEFAULT_REFERRAL_RATE_BPS})`,
  holdDays: sql<number>`coalesce(${setting('holdDays')}::int, ${DEFAULT_REFERRAL_HOLD_DAYS})`,
  capKobo: sql<string | null>`${setting('capKobo')}::bigint`,
};

export async function getReferralSettings(db: DbOrTx): Promise<ReferralSettings> {
  const {
    rows: [row],
  } = await db.execute<{ enabled: boolean; rate_bps: number; hold_days: number; cap_kobo: string | null }>(
    sql`select ${referralRuleSql.enabled} as enabled, ${referralRuleSql.rateBps} as rate_bps, ${referralRuleSql.holdDays} as hold_days, ${referralRuleSql.capKobo} as cap_kobo`,
  );
  return {
    enabled: Boolean(row.enabled),
    rateBps: Number(row.rate_bps),
    holdDays: Number(row.hold_days),
    capKobo: row.cap_kobo === null ? null : BigInt(row.cap_kobo),
  };
}

export const referralSettingsView = ({ enabled, rateBps, holdDays, capKobo }: ReferralSettings) => ({
  enabled,
  ratePercent: bpsToPercent(rateBps),
  holdDays,
  capPerReferred: capKobo === null ? null : koboToNaira(capKobo),
});

export async function updateReferralSettings(db: Db, actorId: number, input: ReferralSettingsInput) {
  // Interactive: reads the settings before saving them, for the audit row's before and after (and what the input leaves unchanged).
  return db.transaction(async (tx) => {
    const before = await getReferralSettings(tx);
    const next: ReferralSettings = {
      enabled: input.enabled,
      rateBps: Number(parseDecimalExact(input.ratePercent, 2)),
      holdDays: input.holdDays ?? before.holdDays,
      capKobo: input.capPerReferred === undefined ? before.capKobo : input.capPerReferred === null ? null : nairaToKobo(input.capPerReferred),
    };
    const stored = { ...next, capKobo: next.capKobo === null ? null : String(next.capKobo) };
    await saveSetting(tx, SETTINGS_KEY, stored, actorId);
    await recordAudit(tx, {
      actorId,
      action: 'settings.referral.update',
      target: { type: 'settings', id: SETTINGS_KEY },
      details: { before: { ...before, capKobo: before.capKobo === null ? null : String(before.capKobo) }, after: stored },
    });
    return referralSettingsView(next);
  });
}

/** How a referrer sees the friend they brought: first name and the initial of the last, never any of the email. */
export function displayName(fullName: string): string {
  const [first = '', ...rest] = fullName.trim().split(/\s+/);
  const last = rest.at(-1);
  return last ? `${first} ${last[0].toUpperCase()}.` : first;
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

const keptKobo = sql`${referralCommissions.commissionKobo} - ${referralCommissions.reversedKobo}`;

/**
 * GET user/referrals: the link, the rule, and who signed up through it with what they earned: released
 * commission (spendable) and held commission (pending), both net of what refunds and disputes took back.
 */
export async function referralSummary(db: Db, env: Env, userId: number) {
  const earned = db
    .select({
      referredUserId: referralCommissions.referredUserId,
      deposits: count().as('deposits'),
      earned: sql<string>`sum(case when ${referralCommissions.releasedAt} is not null then ${keptKobo} else 0 end)`.as('earned'),
      pending: sql<string>`sum(case when ${referralCommissions.releasedAt} is null then ${keptKobo} else 0 end)`.as('pending'),
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
        fullName: users.fullName,
        joinedAt: referrals.createdAt,
        voided: sql<boolean>`${referrals.voidedAt} is not null`,
        deposits: earned.deposits,
        earned: earned.earned,
        pending: earned.pending,
      })
      .from(referrals)
      .innerJoin(users, eq(users.id, referrals.referredUserId))
      .leftJoin(earned, eq(earned.referredUserId, referrals.referredUserId))
      .where(eq(referrals.referrerId, userId))
      .orderBy(desc(referrals.createdAt))
      .limit(200),
  ]);
  const [totals] = await db
    .select({
      signUps: count(),
      deposits: sql<number>`coalesce(sum(${earned.deposits}), 0)::int`,
      earned: sql<string>`coalesce(sum(${earned.earned}), 0)`,
      pending: sql<string>`coalesce(sum(${earned.pending}), 0)`,
    })
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
    pending: koboToNaira(BigInt(totals.pending)),
    referred: referred.map((r) => ({
      displayName: displayName(r.fullName),
      joinedAt: r.joinedAt.toISOString(),
      voided: r.voided,
      deposits: Number(r.deposits ?? 0),
      earned: koboToNaira(BigInt(r.earned ?? 0)),
      pending: koboToNaira(BigInt(r.pending ?? 0)),
    })),
  };
}

/** GET admin/referrals: newest first, with what each referral has paid so far (net of reversals) and what is still held. */
export async function listReferrals(db: Db, query: AdminReferralsQuery) {
  const referrer = alias(users, 'referrer');
  const referred = alias(users, 'referred');
  const where = query.userId ? sql`(${referrals.referrerId} = ${query.userId} or ${referrals.referredUserId} = ${query.userId})` : undefined;
  const newestFirst = [desc(referrals.createdAt), desc(referrals.referredUserId)];
  // The page is picked from the referrals alone (referrals_created_idx); only its rows are joined to the two users and their commissions.
  const pageIds = pageIdsQuery(db, referrals.referredUserId, where, newestFirst, query);
  const [rows, [{ total }]] = await db.batch([
    db
      .select({
        referral: referrals,
        referrer: { id: referrer.id, fullName: referrer.fullName, email: referrer.email },
        referred: { id: referred.id, fullName: referred.fullName, email: referred.email },
        commissions: sql<number>`(select count(*)::int from ${referralCommissions} c where c.referred_user_id = ${referrals.referredUserId})`,
        paid: sql<string>`(select coalesce(sum(c.commission_kobo - c.reversed_kobo) filter (where c.released_at is not null), 0) from ${referralCommissions} c where c.referred_user_id = ${referrals.referredUserId})`,
        held: sql<string>`(select coalesce(sum(c.commission_kobo - c.reversed_kobo) filter (where c.released_at is null), 0) from ${referralCommissions} c where c.referred_user_id = ${referrals.referredUserId})`,
      })
      .from(referrals)
      .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
      .innerJoin(referred, eq(referred.id, referrals.referredUserId))
      .where(inArray(referrals.referredUserId, pageIds))
      .orderBy(...newestFirst),
    db.select({ total: count() }).from(referrals).where(where),
  ]);
  return {
    total,
    data: rows.map(({ referral, referrer: by, referred: of, commissions, paid, held }) => ({
      referrer: by,
      referred: of,
      createdAt: referral.createdAt.toISOString(),
      commissions: Number(commissions),
      paid: koboToNaira(BigInt(paid)),
      held: koboToNaira(BigInt(held)),
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
