// The dashboard's "Money" list: what about the shop's money needs an operator, apart from catalogue
// warnings, each with its next step and where to take it. Read in one statement:
//   - open disputes, soonest deadline first: the provider holds the money until the shop answers;
//   - refunds and lost chargebacks that left their payer in debt (wallets.debt_kobo > 0);
//   - deposits reversed after paying a referral commission, whose commission was taken back from the
//     referrer (payment_reversal_moves, party 'referrer'): for 30 days, and as long as the referrer owes debt;
//   - the last hourly reconciliation, when it did not come out clean (settings 'reconciliation');
//   - the card payment provider refusing the shop's key (settings 'payment_health', as payment-health.ts counts it).
// Most urgent first (disputes by deadline, the provider refusing the shop, the books), then the newest.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { formatNaira, koboToNaira, nairaToKobo } from '../../lib/decimal';
import type { PaymentProviderName } from '../../providers/payments/types';
import { PAYMENT_PROVIDER_LABELS } from '../../schemas/settings';
import { DEFAULT_PAYMENT_SETTINGS } from '../settings';
import type { PaymentHealth } from './payment-health';

export const MONEY_ALERT_KINDS = ['dispute_open', 'payment_refusals', 'reconciliation', 'chargeback_debt', 'commission_reversed'] as const;
export type MoneyAlertKind = (typeof MONEY_ALERT_KINDS)[number];

export interface MoneyAlert {
  /** Stable while the alert lasts ('dispute:<reversal id>', 'commission:<payment id>', ...), for keys in lists. */
  id: string;
  kind: MoneyAlertKind;
  title: string;
  detail: string;
  /** Naira, two decimals: what the alert is about (the disputed amount, the commission taken back, ...); null when none. */
  amount: string | null;
  nextStep: string;
  /** Where to act: a user's page (/admin/manage-user, opened with router state { userId }), Reconciliation or Payment settings. */
  link: { to: string; label: string; userId: number | null };
  /** The customer it is about (for a commission, the referrer). */
  user: { id: number; email: string } | null;
  provider: string | null;
  reference: string | null;
  /** ISO: when it happened (opened, taken back, checked, last refused). */
  createdAt: string;
  /** ISO: an open dispute's deadline for the shop's answer, as the provider gave it. */
  dueAt: string | null;
}

/** At most this many of each kind; `total` counts them all. */
const PER_KIND = 50;
/** How long a commission taken back stays listed when its referrer owes nothing. */
const COMMISSION_DAYS = 30;

const USER_PAGE = '/admin/manage-user';

interface DisputeRow {
  id: number;
  provider: string;
  amount: string;
  dueAt: string | null;
  createdAt: string;
  reference: string;
  channel: string;
  payment: string;
  userId: number;
  email: string;
  owes: string;
  total: number;
}

interface DebtRow {
  id: number;
  kind: 'refund' | 'dispute';
  provider: string;
  amount: string;
  createdAt: string;
  reference: string;
  channel: string;
  payment: string;
  userId: number;
  email: string;
  taken: string;
  debt: string;
  owes: string;
  total: number;
}

interface CommissionRow {
  intentId: number;
  reference: string;
  provider: string;
  kinds: string;
  payerId: number;
  payerEmail: string;
  userId: number;
  email: string;
  commission: string;
  taken: string;
  debt: string;
  returned: string;
  createdAt: string;
  owes: string;
  total: number;
}

interface LastReconciliation {
  checkedAt?: string;
  ok?: boolean;
  findings?: number;
  unbacked?: string;
}

interface MoneyRow extends Record<string, unknown> {
  disputes: DisputeRow[];
  debts: DebtRow[];
  commissions: CommissionRow[];
  settings: { payment?: { provider?: PaymentProviderName }; payment_health?: PaymentHealth; reconciliation?: LastReconciliation } | null;
}

/** A timestamp as ISO text in UTC, milliseconds included, the way the rest of the API answers. */
const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

async function readMoney(db: DbOrTx, userId: number | null): Promise<MoneyRow> {
  const anyone = sql`${userId}::int is null`;
  const result = await db.execute<MoneyRow>(sql`
    select
      (select coalesce(json_agg(d), '[]'::json) from (
        select r.id, r.provider, r.amount_kobo::text as amount, ${iso('r.due_at')} as "dueAt", ${iso('r.created_at')} as "createdAt",
          i.reference, i.channel, i.amount_kobo::text as payment, u.id as "userId", u.email, coalesce(w.debt_kobo, 0)::text as owes,
          count(*) over ()::int as total
        from payment_reversals r
          join payment_intents i on i.id = r.intent_id
          join users u on u.id = r.user_id
          left join wallets w on w.user_id = r.user_id
        where r.status = 'dispute_open' and (${anyone} or r.user_id = ${userId})
        order by r.due_at asc nulls last, r.created_at desc, r.id desc
        limit ${PER_KIND}) d) as disputes,
      (select coalesce(json_agg(c), '[]'::json) from (
        select r.id, r.kind, r.provider, r.amount_kobo::text as amount, ${iso('coalesce(r.resolved_at, r.created_at)')} as "createdAt",
          i.reference, i.channel, i.amount_kobo::text as payment, u.id as "userId", u.email,
          m.taken::text, m.debt::text, w.debt_kobo::text as owes, count(*) over ()::int as total
        from wallets w
          join payment_reversals r on r.user_id = w.user_id and r.status in ('taken', 'dispute_lost')
          join lateral (
            select sum(taken_kobo) as taken, sum(debt_kobo) as debt from payment_reversal_moves
            where reversal_id = r.id and party = 'payer'
          ) m on m.debt > 0
          join payment_intents i on i.id = r.intent_id
          join users u on u.id = w.user_id
        where w.debt_kobo > 0 and (${anyone} or w.user_id = ${userId})
        order by coalesce(r.resolved_at, r.created_at) desc, r.id desc
        limit ${PER_KIND}) c) as debts,
      (select coalesce(json_agg(k), '[]'::json) from (
        select m.intent_id as "intentId", i.reference, i.provider,
          (select string_agg(distinct kind, ',') from payment_reversals where intent_id = m.intent_id and status <> 'dispute_won') as kinds,
          payer.id as "payerId", payer.email as "payerEmail", referrer.id as "userId", referrer.email,
          rc.commission_kobo::text as commission, m.taken::text, m.debt::text, m.returned::text, ${iso('m.last_at')} as "createdAt",
          coalesce(w.debt_kobo, 0)::text as owes, count(*) over ()::int as total
        from (
          select intent_id, sum(taken_kobo) as taken, sum(debt_kobo) as debt, sum(returned_kobo) as returned, max(created_at) as last_at
          from payment_reversal_moves
          where party = 'referrer' and (${anyone} or user_id = ${userId} or intent_id in (select id from payment_intents where user_id = ${userId}))
          group by intent_id
        ) m
          join referral_commissions rc on rc.payment_intent_id = m.intent_id
          join payment_intents i on i.id = m.intent_id
          join users payer on payer.id = rc.referred_user_id
          join users referrer on referrer.id = rc.referrer_id
          left join wallets w on w.user_id = rc.referrer_id
        where m.taken + m.debt > m.returned
          and (m.last_at > now() - make_interval(days => ${COMMISSION_DAYS}) or w.debt_kobo > 0)
        order by m.last_at desc, m.intent_id desc
        limit ${PER_KIND}) k) as commissions,
      (select json_object_agg(key, value) from settings where ${anyone} and key in ('payment', 'payment_health', 'reconciliation')) as settings`);
  return result.rows[0];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "25 Nov 2020, 18:00 UTC": a deadline said the same way to every administrator, wherever they are. */
export function sayWhen(at: string | Date): string {
  const date = new Date(at);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}, ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())} UTC`;
}

const naira = (kobo: string | bigint) => formatNaira(BigInt(kobo));
const providerLabel = (provider: string) => PAYMENT_PROVIDER_LABELS[provider as PaymentProviderName] ?? provider;
const channelWord = (channel: string) => (channel === 'bank_transfer' ? 'bank-transfer' : 'card');
const userLink = (userId: number) => ({ to: USER_PAGE, label: 'Open user', userId });

function disputeAlert(row: DisputeRow, now: number): MoneyAlert {
  const at = providerLabel(row.provider);
  const owes = BigInt(row.owes);
  let nextStep = `Answer at ${at} with evidence of the orders delivered as soon as you can (it gave no deadline), or accept it.`;
  if (row.dueAt !== null) {
    nextStep =
      Date.parse(row.dueAt) > now
        ? `Answer at ${at} with evidence of the orders delivered before ${sayWhen(row.dueAt)}, or accept it.`
        : `The deadline (${sayWhen(row.dueAt)}) has passed: check at ${at} whether the dispute was accepted for you, and answer if it still can be.`;
  }
  return {
    id: `dispute:${row.id}`,
    kind: 'dispute_open',
    title: `Open dispute of ${naira(row.amount)} at ${at}`,
    detail:
      `${row.email} disputes their ${naira(row.payment)} ${channelWord(row.channel)} deposit ${row.reference}, opened ${sayWhen(row.createdAt)}; ` +
      `the disputed money is held back from their wallet until it is resolved${owes > 0n ? `, and they owe ${naira(owes)}` : ''}.`,
    amount: koboToNaira(BigInt(row.amount)),
    nextStep,
    link: userLink(row.userId),
    user: { id: row.userId, email: row.email },
    provider: row.provider,
    reference: row.reference,
    createdAt: row.createdAt,
    dueAt: row.dueAt,
  };
}

function debtAlert(row: DebtRow): MoneyAlert {
  const what = row.kind === 'refund' ? 'Refund' : 'Chargeback lost';
  return {
    id: `debt:${row.id}`,
    kind: 'chargeback_debt',
    title: `${what}: ${row.email} owes ${naira(row.owes)}`,
    detail:
      `${providerLabel(row.provider)} took back ${naira(row.amount)} of the ${naira(row.payment)} ${channelWord(row.channel)} deposit ${row.reference} after it was spent: ` +
      `${naira(row.taken)} came out of the balance and ${naira(row.debt)} became debt.`,
    amount: koboToNaira(BigInt(row.amount)),
    nextStep: `Their orders are refused until a deposit settles the ${naira(row.owes)} first. Ask them to pay it, or suspend the account if the payment was fraud.`,
    link: userLink(row.userId),
    user: { id: row.userId, email: row.email },
    provider: row.provider,
    reference: row.reference,
    createdAt: row.createdAt,
    dueAt: null,
  };
}

function commissionAlert(row: CommissionRow): MoneyAlert {
  const takenBack = BigInt(row.taken) + BigInt(row.debt) - BigInt(row.returned);
  const kinds = (row.kinds ?? '').split(',');
  const reversed = kinds.includes('dispute') ? (kinds.includes('refund') ? 'refunded and charged back' : 'charged back') : 'refunded';
  const owes = BigInt(row.owes);
  return {
    id: `commission:${row.intentId}`,
    kind: 'commission_reversed',
    title: `Commission taken back from ${row.email}`,
    detail:
      `${row.payerEmail}'s deposit ${row.reference} was ${reversed}, so ${naira(takenBack)} of the ${naira(row.commission)} commission it paid was taken back` +
      `${BigInt(row.debt) > 0n ? `, ${naira(row.debt)} of it as debt (already spent)` : ''}.`,
    amount: koboToNaira(takenBack),
    nextStep:
      owes > 0n
        ? `${row.email} owes ${naira(owes)}: their orders are refused until credits settle it. If the two accounts look like one person, void the referral.`
        : 'Nothing to collect. If the two accounts look like one person, void the referral.',
    link: userLink(row.userId),
    user: { id: row.userId, email: row.email },
    provider: row.provider,
    reference: row.reference,
    createdAt: row.createdAt,
    dueAt: null,
  };
}

function reconciliationAlert(last: LastReconciliation | undefined): MoneyAlert | null {
  // While a run is under way the setting holds only its start; the verdict comes with checkedAt.
  if (last?.ok !== false || typeof last.checkedAt !== 'string') return null;
  const findings = last.findings ?? 0;
  let unbacked: bigint | null = null;
  try {
    unbacked = typeof last.unbacked === 'string' ? nairaToKobo(last.unbacked) : null;
  } catch {
    // an amount we cannot read is left unsaid
  }
  return {
    id: `reconciliation:${last.checkedAt}`,
    kind: 'reconciliation',
    title: 'The books are not clean',
    detail:
      `The hourly reconciliation of ${sayWhen(last.checkedAt)} found ${findings} problem${findings === 1 ? '' : 's'}` +
      `${unbacked ? `; ${naira(unbacked)} of credit has nothing behind it` : ''}.`,
    amount: unbacked === null ? null : koboToNaira(unbacked),
    nextStep: 'Open Reconciliation, run it again, and resolve each finding by its user and cause.',
    link: { to: '/admin/reconciliation', label: 'Open Reconciliation', userId: null },
    user: null,
    provider: null,
    reference: null,
    createdAt: last.checkedAt,
    dueAt: null,
  };
}

/** The provider that takes deposits now refusing the shop's calls since its key was last accepted (as paymentRefusalAlert reads it). */
function refusalAlert(settings: MoneyRow['settings']): MoneyAlert | null {
  const provider = settings?.payment?.provider ?? DEFAULT_PAYMENT_SETTINGS.provider;
  const refusals = settings?.payment_health?.[provider]?.refusals;
  if (!refusals?.count) return null;
  const label = providerLabel(provider);
  return {
    id: `refusals:${provider}`,
    kind: 'payment_refusals',
    title: `${label} is refusing the shop's key`,
    detail: `${label} refused the shop's calls ${refusals.count} time${refusals.count === 1 ? '' : 's'} since its key was last verified; the last at ${sayWhen(refusals.lastAt)}: “${refusals.lastError}”.`,
    amount: null,
    nextStep: 'Card deposits fail while this lasts: check the secret key in Payment settings and save it to have it verified.',
    link: { to: '/admin/payment-settings', label: 'Open Payment settings', userId: null },
    user: null,
    provider,
    reference: null,
    createdAt: refusals.lastAt,
    dueAt: null,
  };
}

/**
 * The Money list, most urgent first; `total` counts every alert, `items` shows at most PER_KIND of each kind.
 * With a user, only the alerts about them (as payer or referrer); the shop's books and keys are nobody's.
 */
export async function moneyAlerts(db: DbOrTx, options: { userId?: number; now?: number } = {}): Promise<{ total: number; items: MoneyAlert[] }> {
  const now = options.now ?? Date.now();
  const row = await readMoney(db, options.userId ?? null);
  const urgent = [
    ...row.disputes.map((dispute) => disputeAlert(dispute, now)),
    refusalAlert(row.settings),
    reconciliationAlert(row.settings?.reconciliation),
  ].filter((alert): alert is MoneyAlert => alert !== null);
  const newest = [...row.debts.map(debtAlert), ...row.commissions.map(commissionAlert)].sort(
    (a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id),
  );
  const counted = (rows: Array<{ total: number }>) => rows[0]?.total ?? 0;
  const total = counted(row.disputes) + counted(row.debts) + counted(row.commissions) + (urgent.length - row.disputes.length);
  return { total, items: [...urgent, ...newest] };
}
