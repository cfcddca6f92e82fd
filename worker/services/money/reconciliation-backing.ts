// The reconciliation against the outside world: per successful payment, what its payer's wallet still holds of
// it is no more than what the provider's events (refunds, disputes) leave the shop; per commission, what the
// referrer holds is no more than its share of the deposit still kept; and recent payments are asked about again
// at their provider, which must still call them paid. Whatever a wallet holds beyond that is credit with nothing
// behind it. Only a payment something happened to can be found so; a recent run reads those, and the payments
// settled or credited since (recentCandidates).
import { sql } from 'drizzle-orm';
import { paymentIntents } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import type { Env } from '../../env';
import { formatNaira } from '../../lib/decimal';
import { log } from '../../lib/log';
import type { PaymentProviderName, VerifiedPayment } from '../../providers/payments/types';
import { getPaymentSettings } from '../settings';
import { paymentGateway } from './payment-gateway';

export type UnbackedCause = 'payment_not_kept' | 'commission_not_backed' | 'provider_disagrees' | 'reversal_state';

/** A finding before its user's email is looked up, with its amount in kobo. */
export interface Finding {
  userId: number;
  cause: UnbackedCause;
  reference: string;
  amountKobo: bigint;
  detail: string;
}

/** How many of the newest credited payments (of the last week) are asked about again per run. */
const RECHECK_LIMIT = 20;

/** Every row, or only what was written since `since` (reconciliation-ledger.ts says what a recent run reads). */
export type ReconciliationScope = { kind: 'full' } | { kind: 'recent'; since: Date };

/** The ledger source of a move `m`'s row, by its party and direction (reversal-moves.ts). */
export const moveSource = sql.raw(`case
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
export const perPaymentQuery = (scope: ReconciliationScope) => sql`
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
      or p.reversed_kobo <> 0 or coalesce(credit.amount_kobo, 0) > p.amount_kobo or p.id in (${recentlyCredited}))
    ${scope.kind === 'recent' ? sql`and p.id = any(array(${recentCandidates(scope.since)}))` : sql``}`;

/**
 * A recent run's payments: those with reversal events or moves (few, whatever the shop's age), the ones asked about
 * again, those settled since, and those whose deposit or commission was credited since (both credits are named by the
 * deposit's reference). A commission changes what its referrer holds only by its credit or by a move, so one
 * credited before the last clean run and moved by nothing since was checked then: a busy shop's thousands of past
 * commissions are not read again every day. A credit grown above its payment long ago is the full run's.
 */
const recentCandidates = (since: Date) => sql`
  select intent_id from payment_reversals
  union select intent_id from payment_reversal_moves
  union (${recentlyCredited})
  union select id from ${paymentIntents} where status = 'success' and settled_at >= ${since}
  union select p.id from wallet_transactions t join ${paymentIntents} p on p.reference = t.source_ref
    where t.source_kind in ('payment', 'referral_commission') and t.created_at >= ${since}`;

export interface PaymentRow extends Record<string, unknown> {
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
export function findUnbacked(rows: PaymentRow[]): Finding[] {
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

/** What a provider answers now about one of the newest credited payments. */
interface ProviderAnswer {
  id: number;
  reference: string;
  amountKobo: bigint;
  verified: VerifiedPayment;
}

/**
 * Asks the providers again about the newest credited payments, side by side with the ledger's checks (it needs
 * none of their rows): what each provider says now, and how many could not be asked.
 */
export async function askProvidersAgain(db: DbOrTx, env: Env): Promise<{ answers: ProviderAnswer[]; errors: number }> {
  // The payment settings are read beside the payments, once, rather than after them by each provider's gateway.
  const [recent, settings] = await Promise.all([
    db
      .select({ id: paymentIntents.id, reference: paymentIntents.reference, provider: paymentIntents.provider, amountKobo: paymentIntents.amountKobo })
      .from(paymentIntents)
      .where(sql`${paymentIntents.id} in (${recentlyCredited})`),
    getPaymentSettings(db, env),
  ]);
  const answers: ProviderAnswer[] = [];
  let errors = 0;
  const gateways = new Map<PaymentProviderName, ReturnType<typeof paymentGateway>>();
  const gatewayOf = (name: PaymentProviderName) => {
    if (!gateways.has(name)) gateways.set(name, paymentGateway(db, env, name, settings));
    return gateways.get(name)!;
  };
  await Promise.all(
    recent.map(async (payment) => {
      try {
        const { provider } = await gatewayOf(payment.provider as PaymentProviderName);
        answers.push({ id: payment.id, reference: payment.reference, amountKobo: payment.amountKobo, verified: await provider.verify(payment.reference) });
      } catch (error) {
        errors += 1;
        log.warn('reconciliation could not re-verify a payment', { reference: payment.reference, error: String(error) });
      }
    }),
  );
  return { answers, errors };
}

/** A payment its provider no longer calls paid, for what its payer's wallet still holds of it, is credit with nothing behind it. */
export function providerFindings(asked: { answers: ProviderAnswer[]; errors: number }, rows: PaymentRow[]) {
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  const checks = { checked: 0, disagreements: 0, errors: asked.errors };
  const findings: Finding[] = [];
  for (const { id, reference, amountKobo, verified } of asked.answers) {
    const row = byId.get(id);
    if (!row) continue;
    checks.checked += 1;
    const holds = BigInt(row.payer_holds);
    const paid = verified.status === 'success' && verified.amountKobo === amountKobo;
    if (paid || verified.status === 'pending' || holds <= 0n) continue;
    checks.disagreements += 1;
    findings.push({
      userId: row.user_id,
      cause: 'provider_disagrees',
      reference,
      amountKobo: holds,
      detail: `the provider now says "${verified.rawStatus}"${verified.status === 'success' ? ` for ${formatNaira(verified.amountKobo)}` : ''}, and no refund or dispute of it was recorded here`,
    });
  }
  return { checks, findings };
}
