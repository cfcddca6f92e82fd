// The books, checked. Inside: each wallet equals its ledger, each running balance follows, each successful
// payment is credited once, each debt follows from its reversals and settlements, each reversal move and
// each commission has exactly its ledger rows. Against the outside world: per payment, what the payer's
// wallet still holds of it is no more than what the provider's events (refunds, disputes) leave the shop;
// per commission, what the referrer holds is no more than its share of the deposit still kept; and recent
// payments are asked about again at their provider, which must still call them paid. Whatever a wallet
// holds beyond that is "credit with nothing behind it", reported in kobo by user and cause.
import { count, inArray, sql } from 'drizzle-orm';
import { paymentIntents, users, wallets } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { formatNaira, koboToNaira, nairaToKobo } from '../../lib/decimal';
import { log } from '../../lib/log';
import type { PaymentProviderName } from '../../providers/payments/types';
import { recordWarning } from '../oversight';
import { paymentGateway } from './payment-gateway';

export type UnbackedCause = 'payment_not_kept' | 'commission_not_backed' | 'provider_disagrees' | 'reversal_state';

/** A finding before its user's email is looked up, with its amount in kobo. */
type Finding = Omit<UnbackedFinding, 'email' | 'amount'> & { amountKobo: bigint };

export interface UnbackedFinding {
  userId: number;
  email: string | null;
  cause: UnbackedCause;
  reference: string;
  /** Naira the wallet holds with nothing behind it (or, for reversal_state, by which the records disagree). */
  amount: string;
  detail: string;
}

export interface ReconciliationReport {
  ok: boolean;
  checkedAt: string;
  walletsChecked: number;
  /** Wallets whose balance is not the sum of their ledger. */
  balanceMismatches: Array<{ userId: number; balance: string; ledger: string }>;
  /** Ledger rows whose running balance does not follow from the previous row. */
  brokenRunningBalances: Array<{ userId: number; transactionId: number }>;
  /** Successful payments not credited exactly once, and payment credits without a successful payment. */
  paymentMismatches: Array<{ reference: string; status: string | null; credits: number }>;
  /** Wallets whose debt is not what their reversal moves left minus what credits paid towards it. */
  debtMismatches: Array<{ userId: number; debt: string; expected: string }>;
  /** Reversal moves whose ledger row does not carry exactly what the move records. */
  reversalMismatches: Array<{ reversalId: number; party: string; step: string; recorded: string; ledger: string }>;
  /** Released commissions not credited exactly as recorded, held ones credited, and commission credits with no record. */
  commissionMismatches: Array<{ reference: string; recorded: string | null; credited: string | null }>;
  /** Credit with nothing behind it, by user and cause. */
  unbacked: { total: string; findings: UnbackedFinding[] };
  /** Recent credited payments asked about again at their provider. */
  providerChecks: { checked: number; disagreements: number; errors: number };
}

const LIMIT = 1000;
/** How many of the newest credited payments (of the last week) are asked about again per run. */
const RECHECK_LIMIT = 20;

/** The ledger source of a move `m`'s row, by its party and direction (reversal-moves.ts). */
const moveSource = sql.raw(`case
  when m.party = 'payer' and m.returned_kobo = 0 then 'chargeback' when m.party = 'payer' then 'chargeback_return'
  when m.returned_kobo = 0 then 'commission_reversal' else 'commission_return' end`);

/** The newest credited payments of the last week, which each run asks their provider about again. */
const recentlyCredited = sql`
  select id from ${paymentIntents} where status = 'success' and settled_at > now() - interval '7 days' order by settled_at desc limit ${RECHECK_LIMIT}`;

/**
 * Per successful payment: what it claims from its reversal events (min(payment, Σ claims)), its stored state, what
 * its payer moves add up to, and what the payer's wallet still holds of it by the ledger (its credit, less the
 * ledger rows of its payer moves, less the debt they added). And its commission's share of the same events.
 */
const perPayment = sql`
  with claims as (
    select intent_id, sum(case when status = 'dispute_won' then 0 else amount_kobo end) as claimed
    from payment_reversals group by intent_id
  ),
  moves as (
    select m.intent_id, m.party,
      sum(m.taken_kobo + m.debt_kobo - m.returned_kobo) as net,
      sum(m.debt_kobo) as debt,
      sum(coalesce(t.amount_kobo, 0)) filter (where t.transaction_type = 2) as ledger_taken,
      sum(coalesce(t.amount_kobo, 0)) filter (where t.transaction_type = 1) as ledger_returned
    from payment_reversal_moves m
    left join wallet_transactions t on t.user_id = m.user_id and t.source_ref = m.ledger_ref and t.source_kind = ${moveSource}
    group by m.intent_id, m.party
  )
  select p.id, p.reference, p.user_id, p.amount_kobo, p.reversed_kobo,
    least(p.amount_kobo, coalesce(c.claimed, 0)) as expected,
    coalesce(payer.net, 0) as payer_net,
    coalesce(credit.amount_kobo, 0) - coalesce(payer.ledger_taken, 0) + coalesce(payer.ledger_returned, 0) - coalesce(payer.debt, 0) as payer_holds,
    rc.referrer_id, rc.commission_kobo, rc.released_at is not null as released, rc.reversed_kobo as commission_reversed,
    coalesce(rcredit.amount_kobo, 0) - coalesce(referrer.ledger_taken, 0) + coalesce(referrer.ledger_returned, 0) - coalesce(referrer.debt, 0) as referrer_holds
  from payment_intents p
  left join claims c on c.intent_id = p.id
  left join moves payer on payer.intent_id = p.id and payer.party = 'payer'
  left join moves referrer on referrer.intent_id = p.id and referrer.party = 'referrer'
  left join wallet_transactions credit on credit.source_kind = 'payment' and credit.source_ref = p.reference
  left join referral_commissions rc on rc.payment_intent_id = p.id
  left join wallet_transactions rcredit on rcredit.source_kind = 'referral_commission' and rcredit.source_ref = p.reference
  where p.status = 'success'
    -- Only a payment something happened to (a claim, a move, a commission, a credit above its amount) can be found
    -- unbacked, and the recent ones are asked about again: the rest, most of a busy shop's hundreds of thousands, stay
    -- in the database rather than fill an answer past the driver's 10 MB.
    and (c.intent_id is not null or payer.intent_id is not null or referrer.intent_id is not null or rc.payment_intent_id is not null
      or p.reversed_kobo <> 0 or coalesce(credit.amount_kobo, 0) > p.amount_kobo or p.id in (${recentlyCredited}))`;

interface PaymentRow extends Record<string, unknown> {
  id: string;
  reference: string;
  user_id: number;
  amount_kobo: string;
  reversed_kobo: string;
  expected: string;
  payer_net: string;
  payer_holds: string;
  referrer_id: number | null;
  commission_kobo: string | null;
  released: boolean | null;
  commission_reversed: string | null;
  referrer_holds: string;
}

const ceilShare = (commission: bigint, reversed: bigint, deposit: bigint) => (commission * reversed + deposit - 1n) / deposit;

/** The unbacked findings of the per-payment rows: the payer's side and the commission's, from the provider's events. */
function findUnbacked(rows: PaymentRow[]): Finding[] {
  const findings: Finding[] = [];
  for (const row of rows) {
    const amount = BigInt(row.amount_kobo);
    const expected = BigInt(row.expected);
    const reversed = BigInt(row.reversed_kobo);
    const payerHolds = BigInt(row.payer_holds);
    if (reversed !== expected || BigInt(row.payer_net) !== reversed) {
      const off = expected !== reversed ? expected - reversed : BigInt(row.payer_net) - reversed;
      findings.push({
        userId: row.user_id,
        cause: 'reversal_state',
        reference: row.reference,
        amountKobo: off < 0n ? -off : off,
        detail: `its refunds and disputes claim ${formatNaira(expected)}; the payment records ${formatNaira(reversed)} reversed, its moves ${formatNaira(BigInt(row.payer_net))}`,
      });
    }
    if (payerHolds > amount - expected) {
      findings.push({
        userId: row.user_id,
        cause: 'payment_not_kept',
        reference: row.reference,
        amountKobo: payerHolds - (amount - expected),
        detail: `the wallet holds ${formatNaira(payerHolds)} of a ${formatNaira(amount)} payment of which the provider's events leave the shop ${formatNaira(amount - expected)}`,
      });
    }
    if (row.referrer_id !== null && row.commission_kobo !== null) {
      const commission = BigInt(row.commission_kobo);
      const backed = row.released ? commission - ceilShare(commission, expected, amount) : 0n;
      const holds = BigInt(row.referrer_holds);
      if (holds > backed) {
        findings.push({
          userId: row.referrer_id,
          cause: 'commission_not_backed',
          reference: row.reference,
          amountKobo: holds - backed,
          detail: `the referrer holds ${formatNaira(holds)} of a ${formatNaira(commission)} commission; the deposit still kept backs ${formatNaira(backed)}`,
        });
      }
    }
  }
  return findings;
}

/** Asks the providers again about the newest credited payments: one they no longer call paid is credit with nothing behind it. */
async function recheckAtProviders(db: DbOrTx, env: Env, rows: PaymentRow[]) {
  const recent = await db
    .select({ id: paymentIntents.id, reference: paymentIntents.reference, provider: paymentIntents.provider, amountKobo: paymentIntents.amountKobo })
    .from(paymentIntents)
    .where(sql`${paymentIntents.id} in (${recentlyCredited})`);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const checks = { checked: 0, disagreements: 0, errors: 0 };
  const findings: Finding[] = [];
  await Promise.all(
    recent.map(async (payment) => {
      const row = byId.get(payment.id);
      if (!row) return;
      try {
        const { provider } = await paymentGateway(db, env, payment.provider as PaymentProviderName);
        const verified = await provider.verify(payment.reference);
        checks.checked += 1;
        const holds = BigInt(row.payer_holds);
        const paid = verified.status === 'success' && verified.amountKobo === payment.amountKobo;
        if (paid || verified.status === 'pending' || holds <= 0n) return;
        checks.disagreements += 1;
        findings.push({
          userId: row.user_id,
          cause: 'provider_disagrees',
          reference: payment.reference,
          amountKobo: holds,
          detail: `the provider now says "${verified.rawStatus}"${verified.status === 'success' ? ` for ${formatNaira(verified.amountKobo)}` : ''}, and no refund or dispute of it was recorded here`,
        });
      } catch (error) {
        checks.errors += 1;
        log.warn('reconciliation could not re-verify a payment', { reference: payment.reference, error: String(error) });
      }
    }),
  );
  return { checks, findings };
}

/**
 * Checks every kobo (see the top of this file). With `env`, the newest credited payments are also asked about
 * again at their provider; without it (the tests' books checks) only the recorded events are used.
 */
export async function reconcile(db: DbOrTx, env?: Env): Promise<ReconciliationReport> {
  const [balances, running, payments, [{ walletsChecked }], debts, moves, commissions, perPaymentRows] = await Promise.all([
    db.execute<{ user_id: number; balance: string; ledger: string }>(sql`
      select w.user_id, w.balance_kobo as balance, coalesce(l.sum, 0) as ledger
      from wallets w
      left join (
        select user_id, sum(case when transaction_type = 1 then amount_kobo else -amount_kobo end) as sum
        from wallet_transactions group by user_id
      ) l on l.user_id = w.user_id
      where w.balance_kobo <> coalesce(l.sum, 0)
      limit ${LIMIT}`),
    db.execute<{ user_id: number; id: string }>(sql`
      select user_id, id from (
        select user_id, id, balance_after_kobo,
          lag(balance_after_kobo, 1, 0::bigint) over (partition by user_id order by id) +
            case when transaction_type = 1 then amount_kobo else -amount_kobo end as expected
        from wallet_transactions
      ) t where balance_after_kobo <> expected
      limit ${LIMIT}`),
    db.execute<{ reference: string; status: string | null; credits: number }>(sql`
      select coalesce(p.reference, t.source_ref) as reference, p.status, count(t.id)::int as credits
      from ${paymentIntents} p
      -- Filtered before the join: in a full join's ON clause the filter would keep every other ledger row as unmatched.
      full join (select id, source_ref from wallet_transactions where source_kind = 'payment') t on t.source_ref = p.reference
      where p.status = 'success' or t.id is not null
      group by coalesce(p.reference, t.source_ref), p.status
      having count(t.id) <> 1 or p.status is distinct from 'success'
      limit ${LIMIT}`),
    db.select({ walletsChecked: count() }).from(wallets),
    db.execute<{ user_id: number; debt: string; expected: string }>(sql`
      select w.user_id, w.debt_kobo as debt, coalesce(r.owed, 0) - coalesce(s.paid, 0) as expected
      from wallets w
      left join (select user_id, sum(debt_kobo) as owed from payment_reversal_moves group by user_id) r on r.user_id = w.user_id
      left join (select user_id, sum(amount_kobo) as paid from wallet_transactions where source_kind = 'debt_settlement' group by user_id) s on s.user_id = w.user_id
      where w.debt_kobo <> coalesce(r.owed, 0) - coalesce(s.paid, 0)
      limit ${LIMIT}`),
    // A move's ledger row is named by its ledger_ref, under its party's source for its direction (reversal-moves.ts).
    db.execute<{ reversal_id: string; party: string; step: string; recorded: string; ledger: string }>(sql`
      select m.reversal_id, m.party, m.step, greatest(m.taken_kobo, m.returned_kobo) as recorded, coalesce(t.amount_kobo, 0) as ledger
      from payment_reversal_moves m
      left join wallet_transactions t on t.user_id = m.user_id and t.source_ref = m.ledger_ref and t.source_kind = ${moveSource}
      where coalesce(t.amount_kobo, 0) <> greatest(m.taken_kobo, m.returned_kobo)
      limit ${LIMIT}`),
    // A released commission's credit is named by the deposit's reference (referral-commissions.ts); a held one has none.
    db.execute<{ reference: string; recorded: string | null; credited: string | null }>(sql`
      select coalesce(c.reference, t.source_ref) as reference, c.credited_kobo as recorded, t.amount_kobo as credited
      from (
        select p.reference, rc.credited_kobo, rc.referrer_id, rc.released_at from referral_commissions rc join ${paymentIntents} p on p.id = rc.payment_intent_id
      ) c
      full join (select source_ref, amount_kobo, user_id from wallet_transactions where source_kind = 'referral_commission') t on t.source_ref = c.reference
      where (c.reference is null) or (t.source_ref is null and c.released_at is not null and c.credited_kobo > 0)
        or (t.source_ref is not null and (c.released_at is null or t.amount_kobo <> c.credited_kobo or t.user_id <> c.referrer_id))
      limit ${LIMIT}`),
    db.execute<PaymentRow>(perPayment),
  ]);
  const rows = perPaymentRows.rows;
  const outside = env ? await recheckAtProviders(db, env, rows) : null;
  const unbackedRows = [...findUnbacked(rows), ...(outside?.findings ?? [])];
  const emails = await emailsOf(db, [...new Set(unbackedRows.map((finding) => finding.userId))]);
  const findings = unbackedRows.map(({ amountKobo, ...finding }) => ({
    ...finding,
    amount: koboToNaira(amountKobo),
    email: emails.get(finding.userId) ?? null,
  }));
  // A reversal_state finding says by how much two records disagree, not what a wallet holds: it is not added in.
  const total = unbackedRows.filter((finding) => finding.cause !== 'reversal_state').reduce((sum, finding) => sum + finding.amountKobo, 0n);
  const report = {
    checkedAt: new Date().toISOString(),
    walletsChecked,
    balanceMismatches: balances.rows.map((r) => ({ userId: r.user_id, balance: koboToNaira(BigInt(r.balance)), ledger: koboToNaira(BigInt(r.ledger)) })),
    brokenRunningBalances: running.rows.map((r) => ({ userId: r.user_id, transactionId: Number(r.id) })),
    paymentMismatches: payments.rows.map((r) => ({ reference: r.reference, status: r.status, credits: Number(r.credits) })),
    debtMismatches: debts.rows.map((r) => ({ userId: r.user_id, debt: koboToNaira(BigInt(r.debt)), expected: koboToNaira(BigInt(r.expected)) })),
    reversalMismatches: moves.rows.map((r) => ({
      reversalId: Number(r.reversal_id),
      party: r.party,
      step: r.step,
      recorded: koboToNaira(BigInt(r.recorded)),
      ledger: koboToNaira(BigInt(r.ledger)),
    })),
    commissionMismatches: commissions.rows.map((r) => ({
      reference: r.reference,
      recorded: r.recorded === null ? null : koboToNaira(BigInt(r.recorded)),
      credited: r.credited === null ? null : koboToNaira(BigInt(r.credited)),
    })),
    unbacked: { total: koboToNaira(total), findings },
    providerChecks: outside?.checks ?? { checked: 0, disagreements: 0, errors: 0 },
  };
  const ok = [
    report.balanceMismatches,
    report.brokenRunningBalances,
    report.paymentMismatches,
    report.debtMismatches,
    report.reversalMismatches,
    report.commissionMismatches,
    report.unbacked.findings,
  ].every((found) => found.length === 0);
  return { ok, ...report };
}

async function emailsOf(db: DbOrTx, userIds: number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, userIds));
  return new Map(rows.map((row) => [row.id, row.email]));
}

const LAST_RUN_KEY = 'reconciliation';

/**
 * Cron, daily: the whole reconciliation, provider re-verification included. Books that are not clean are a
 * warning on the administrators' dashboard and an error in the log. The run is claimed first (one statement
 * that moves the last run's time only when a day has passed), so however often the cron fires it runs once a day.
 */
export async function dailyReconciliation(db: Db, env: Env): Promise<{ ran: boolean; ok?: boolean; findings?: number }> {
  const { rows: claimed } = await db.execute(sql`
    insert into settings (key, value) values (${LAST_RUN_KEY}, ${JSON.stringify({ startedAt: new Date().toISOString() })}::jsonb)
    on conflict (key) do update set value = excluded.value, updated_at = now()
    where settings.updated_at < now() - interval '1 day'
    returning key`);
  if (claimed.length === 0) return { ran: false };
  const report = await reconcile(db, env);
  const findings =
    report.unbacked.findings.length +
    report.balanceMismatches.length +
    report.brokenRunningBalances.length +
    report.paymentMismatches.length +
    report.debtMismatches.length +
    report.reversalMismatches.length +
    report.commissionMismatches.length;
  await db.execute(sql`
    update settings set value = ${JSON.stringify({ checkedAt: report.checkedAt, ok: report.ok, findings, unbacked: report.unbacked.total })}::jsonb
    where key = ${LAST_RUN_KEY}`);
  if (!report.ok) {
    log.error('reconciliation found problems', { findings, unbacked: report.unbacked.total });
    await recordWarning(db, {
      kind: 'reconciliation',
      message: `The daily reconciliation found ${findings} problem${findings === 1 ? '' : 's'}; ${formatNaira(nairaToKobo(report.unbacked.total))} of credit has nothing behind it. Open Reconciliation for the list.`,
      details: { findings, unbacked: report.unbacked.total, checkedAt: report.checkedAt },
    });
  }
  return { ran: true, ok: report.ok, findings };
}
