// The books of the money that comes back out (refunds, disputes) and of referral commissions, checked
// after every step with direct SQL against the simulator's record of what the providers sent
// (provider-truth.ts), in the same snapshot as invariants.ts:
//   - every reversal move has exactly its ledger row (a take its 'chargeback' or 'commission_reversal'
//     debit of what it took from the balance, none when all of it became debt; a give-back its
//     'chargeback_return' or 'commission_return' credit), in the wallet of the right person, and every such
//     ledger row has its move; each wallet's debt is what its moves added less what 'debt_settlement' paid;
//   - (a) no wallet holds credit the shop did not keep: per payment, the credit minus its payer moves (what
//     they took from the balance or added as debt, less what they gave back) is payment_intents.reversed_kobo
//     away from the payment, and that state is exactly what the provider's events delivered so far claim
//     (min(paid, Σ claims)). Once all of them were answered 200 (after the drain, always), it leaves the
//     payer exactly what the provider says the shop kept. A payment with a delivery in doubt (no answer,
//     or not a 200: the shop may or may not have acted, and the provider will send it again) is checked
//     once it is answered; a payment never credited has no moves;
//   - (b) commissions follow their deposits: for each commission C on a payment P, its reversed part is
//     ceil(C × P.reversed / P), and the referrer's wallet effect (its 'referral_commission' credit, less its
//     referrer moves, plus their give-backs) is C − that part once released and 0 while held; it is paid on
//     a credited deposit of the one who was referred, to their referrer, at the seed's rate, only while the
//     programme is on, and within the cap per referred account;
//   - (c) no commission between accounts sharing a card or a sending bank account (as the simulator paid:
//     the same card name at one provider, or by the shop's own payer fingerprints) that both had used before
//     the commission, nor between accounts made from one address or on one browser (its device cookie), nor
//     while either account's email address is unconfirmed;
//   - after the drain, every credited deposit of a referred user earned its referrer a commission, unless
//     the two share an address, a browser, a card or an account, the seed capped commissions, or it was
//     credited before both addresses were confirmed;
//   - (d) the shop's own GET admin/reconciliation is clean (checkReconciliation, after the drain).
import { claimedBy, eventsOf, keptByProvider } from './provider-truth';
import type { Sim, SimDeposit } from './world';

export type Query = <T extends Record<string, unknown>>(text: string, values?: unknown[]) => Promise<T[]>;

const big = (text: string | null | undefined) => BigInt(text ?? '0');
const ceilShare = (commission: bigint, reversed: bigint, paid: bigint) => (commission * reversed + paid - 1n) / paid;

const MOVE_SOURCE = `case when m.party = 'payer' then (case when m.returned_kobo = 0 then 'chargeback' else 'chargeback_return' end)
  else (case when m.returned_kobo = 0 then 'commission_reversal' else 'commission_return' end) end`;

/** Moves against the ledger and the debt they leave. */
export async function checkReversalMoves(query: Query, ids: number[], problems: string[]): Promise<void> {
  const moves = await query<{
    id: string;
    user_id: number;
    party: string;
    step: string;
    taken: string;
    debt: string;
    returned: string;
    ledger_ref: string;
    payer: number;
    referrer: number | null;
    ledger_user: number | null;
    ledger_type: number | null;
    ledger_amount: string | null;
  }>(
    `
    select m.id::text, m.user_id, m.party, m.step, m.taken_kobo::text as taken, m.debt_kobo::text as debt, m.returned_kobo::text as returned,
      m.ledger_ref, p.user_id as payer, c.referrer_id as referrer,
      t.user_id as ledger_user, t.transaction_type as ledger_type, t.amount_kobo::text as ledger_amount
    from payment_reversal_moves m
    join payment_intents p on p.id = m.intent_id
    left join referral_commissions c on c.payment_intent_id = m.intent_id
    left join wallet_transactions t on t.source_kind = ${MOVE_SOURCE} and t.source_ref = m.ledger_ref
    where m.user_id = any($1::int[]) or p.user_id = any($1::int[])`,
    [ids],
  );
  for (const move of moves) {
    const say = (what: string) => problems.push(`reversal move ${move.id} (${move.party}, ${move.step}, ${move.ledger_ref}) of user ${move.user_id}: ${what}`);
    const owner = move.party === 'payer' ? move.payer : move.referrer;
    if (move.user_id !== owner) say(`moves the wallet of user ${move.user_id}, yet the ${move.party} is user ${owner ?? 'nobody'}`);
    const returned = big(move.returned);
    const expected = returned > 0n ? returned : big(move.taken);
    if (expected === 0n) {
      if (move.ledger_amount !== null) say(`took nothing from the balance (all debt), yet has a ledger row of ${move.ledger_amount}`);
      continue;
    }
    const type = returned > 0n ? 1 : 2;
    if (move.ledger_amount === null || big(move.ledger_amount) !== expected || move.ledger_type !== type || move.ledger_user !== move.user_id)
      say(
        `records ${returned > 0n ? 'giving back' : 'taking'} ${expected} kobo, its ledger row is ${move.ledger_amount === null ? 'missing' : `${move.ledger_amount} kobo of type ${move.ledger_type} in the wallet of user ${move.ledger_user}`}`,
      );
  }
  const orphans = await query<{ id: string; source_kind: string; source_ref: string; user_id: number }>(
    `
    select t.id::text, t.source_kind, t.source_ref, t.user_id from wallet_transactions t
    where t.user_id = any($1::int[]) and t.source_kind in ('chargeback', 'chargeback_return', 'commission_reversal', 'commission_return')
      and not exists (select 1 from payment_reversal_moves m where m.ledger_ref = t.source_ref and m.user_id = t.user_id and ${MOVE_SOURCE} = t.source_kind)`,
    [ids],
  );
  for (const row of orphans) problems.push(`ledger row ${row.id} (${row.source_kind} ${row.source_ref}) of user ${row.user_id} has no reversal move behind it`);
  const debts = await query<{ user_id: number; debt: string; added: string; settled: string }>(
    `
    select w.user_id, w.debt_kobo::text as debt, coalesce(m.added, 0)::text as added, coalesce(s.settled, 0)::text as settled
    from wallets w
    left join (select user_id, sum(debt_kobo) as added from payment_reversal_moves group by user_id) m on m.user_id = w.user_id
    left join (select user_id, sum(amount_kobo) as settled from wallet_transactions where source_kind = 'debt_settlement' group by user_id) s on s.user_id = w.user_id
    where w.user_id = any($1::int[]) and (w.debt_kobo <> coalesce(m.added, 0) - coalesce(s.settled, 0) or w.debt_kobo < 0)`,
    [ids],
  );
  for (const row of debts)
    problems.push(`wallet of user ${row.user_id} owes ${row.debt} kobo; its reversal moves added ${row.added} and debt settlements paid ${row.settled}`);
}

export interface PaymentRow extends Record<string, unknown> {
  id: string;
  reference: string;
  provider: string;
  status: string;
  user_id: number;
  amount: string;
  reversed: string;
  moved: string;
  moves: number;
  settled_ms: string | null;
  payer_fingerprint: string | null;
}

const kobo = (value: bigint | number) => `₦${(Number(value) / 100).toFixed(2)}`;

/** (a), per payment of the seed's users. Answers the rows, for the commission checks. */
export async function checkPayments(sim: Sim, query: Query, ids: number[], problems: string[]): Promise<Map<string, PaymentRow>> {
  const rows = await query<PaymentRow>(
    `
    select p.id::text, p.reference, p.provider, p.status, p.user_id, p.amount_kobo::text as amount, p.reversed_kobo::text as reversed,
      coalesce(m.net, 0)::text as moved, coalesce(m.n, 0)::int as moves,
      (extract(epoch from p.settled_at) * 1000)::bigint::text as settled_ms, p.payer_fingerprint
    from payment_intents p
    left join (select intent_id, sum(taken_kobo + debt_kobo - returned_kobo) as net, count(*) as n from payment_reversal_moves where party = 'payer' group by intent_id) m
      on m.intent_id = p.id
    where p.user_id = any($1::int[])`,
    [ids],
  );
  const byReference = new Map(rows.map((row) => [row.reference, row]));
  const deposits = new Map(sim.world.deposits.map((deposit) => [`${deposit.provider}:${deposit.reference}`, deposit]));
  for (const row of rows) {
    const say = (what: string) =>
      problems.push(`payment ${row.reference} (${row.provider}, ${kobo(big(row.amount))} by user ${row.user_id}, ${row.status}): ${what}`);
    if (row.reversed !== row.moved) say(`stands reversed by ${row.reversed} kobo, its payer's moves add up to ${row.moved}`);
    if (row.status !== 'success') {
      if (row.moves > 0 || row.reversed !== '0') say(`never credited, yet ${row.moves} move(s) reversed ${row.reversed} kobo of it`);
      continue;
    }
    const deposit = deposits.get(`${row.provider}:${row.reference}`);
    if (!deposit) {
      say('credited, yet the simulator never paid it');
      continue;
    }
    const events = eventsOf(sim.world, deposit);
    if (events.some((event) => event.delivery === 'doubt')) continue;
    const delivered = events.filter((event) => event.delivery === 'delivered');
    const claimed = BigInt(claimedBy(deposit.amountKobo, delivered));
    if (big(row.reversed) === claimed) continue;
    const holds = big(row.amount) - big(row.reversed);
    const allIn = delivered.length === events.length;
    const told = delivered.map((event) => `${event.record.event}#${event.record.id} ${event.state} ${kobo(event.amountKobo)}`).join(', ') || 'none';
    say(
      allIn
        ? `the wallet holds ${kobo(holds)} of it, the provider says the shop kept ${kobo(keptByProvider(sim.world, deposit))} (events, all delivered: ${told})`
        : `the wallet holds ${kobo(holds)} of it, the provider's events delivered so far leave the shop ${kobo(big(row.amount) - claimed)} (delivered: ${told}; ${events.length - delivered.length} not yet sent)`,
    );
  }
  return byReference;
}

/** What paid a deposit, as one comparable key: a card or account at one provider. */
const instrumentKey = (deposit: SimDeposit) => `${deposit.provider}|${deposit.instrument}`;
/** A referrer's payment counts as seen by a commission this long before it (a credit committing as the commission starts may not be). */
const SEEN_BEFORE_MS = 250n;

interface CommissionRow extends Record<string, unknown> {
  id: string;
  referrer_id: number;
  referred_user_id: number;
  intent_id: string;
  commission: string;
  credited: string;
  reversed: string;
  rate_bps: number;
  released: boolean;
  created_ms: string;
  reference: string;
  payer: number;
  status: string;
  amount: string;
  p_reversed: string;
  referral_referrer: number | null;
  credit_row: string;
  credit_rows: number;
  taken: string;
  returned: string;
}

/** (b) and (c), and after the drain the commissions owed. */
export async function checkCommissions(sim: Sim, query: Query, ids: number[], payments: Map<string, PaymentRow>, final: boolean, problems: string[]) {
  const { world } = sim;
  const rows = await query<CommissionRow>(
    `
    select c.id::text, c.referrer_id, c.referred_user_id, c.payment_intent_id::text as intent_id, c.commission_kobo::text as commission,
      c.credited_kobo::text as credited, c.reversed_kobo::text as reversed, c.rate_bps, c.released_at is not null as released,
      (extract(epoch from c.created_at) * 1000)::bigint::text as created_ms,
      p.reference, p.user_id as payer, p.status, p.amount_kobo::text as amount, p.reversed_kobo::text as p_reversed, r.referrer_id as referral_referrer,
      coalesce((select sum(amount_kobo) from wallet_transactions t where t.source_kind = 'referral_commission' and t.source_ref = p.reference and t.user_id = c.referrer_id), 0)::text as credit_row,
      (select count(*) from wallet_transactions t where t.source_kind = 'referral_commission' and t.source_ref = p.reference)::int as credit_rows,
      coalesce(m.taken, 0)::text as taken, coalesce(m.returned, 0)::text as returned
    from referral_commissions c
    join payment_intents p on p.id = c.payment_intent_id
    left join referrals r on r.referred_user_id = c.referred_user_id
    left join lateral (
      select sum(taken_kobo + debt_kobo) as taken, sum(returned_kobo) as returned from payment_reversal_moves m where m.intent_id = c.payment_intent_id and m.party = 'referrer'
    ) m on true
    where c.referrer_id = any($1::int[]) or c.referred_user_id = any($1::int[])
    order by c.id`,
    [ids],
  );
  const confirmedAt = await confirmationTimes(query, ids);
  const users = new Map(world.users.map((user) => [user.id, user]));
  const settings = world.referral;
  const rateBps = settings ? Math.round(Number(settings.ratePercent) * 100) : null;
  const capKobo = settings?.capPerReferred ? BigInt(Math.round(Number(settings.capPerReferred) * 100)) : null;
  /** The instruments of a user's credited deposits credited before `beforeMs` (or the deposit `including` itself). */
  const paidWith = (userId: number, beforeMs: bigint | null, including?: string) => {
    const keys = new Set<string>();
    const prints = new Set<string>();
    for (const deposit of world.deposits) {
      if (deposit.userId !== userId) continue;
      const row = payments.get(deposit.reference);
      if (row?.status !== 'success') continue;
      if (beforeMs !== null && row.id !== including && (row.settled_ms === null || BigInt(row.settled_ms) >= beforeMs)) continue;
      keys.add(instrumentKey(deposit));
      if (row.payer_fingerprint) prints.add(row.payer_fingerprint);
    }
    return { keys, prints };
  };
  const kept = new Map<number, bigint>();
  for (const row of rows) {
    const say = (what: string) =>
      problems.push(
        `commission ${row.id} of ${row.commission} kobo to user ${row.referrer_id} on ${row.reference} (${kobo(big(row.amount))} by user ${row.referred_user_id}): ${what}`,
      );
    const C = big(row.commission);
    const P = big(row.amount);
    if (row.payer !== row.referred_user_id) say(`the deposit is user ${row.payer}'s`);
    if (row.referral_referrer !== row.referrer_id) say(`user ${row.referred_user_id} was referred by ${row.referral_referrer ?? 'nobody'}`);
    const simReferrer = users.get(row.referred_user_id)?.referrerId;
    if (simReferrer !== undefined && simReferrer !== row.referrer_id)
      say(`user ${row.referred_user_id} signed up through ${simReferrer === null ? 'no referral link' : `user ${simReferrer}'s link`}`);
    if (row.status !== 'success') say(`its deposit is ${row.status}`);
    // (b): the commission follows its deposit.
    const share = ceilShare(C, big(row.p_reversed), P);
    if (big(row.reversed) !== share)
      say(`records ${row.reversed} kobo reversed; its deposit stands reversed by ${row.p_reversed}, so ceil(C × ${row.p_reversed} / ${row.amount}) = ${share}`);
    const effect = big(row.credit_row) - big(row.taken) + big(row.returned);
    const owed = row.released ? C - share : 0n;
    if (effect !== owed)
      say(
        `${row.released ? 'released' : 'held'}: the referrer's wallet holds ${effect} kobo of it (credit ${row.credit_row}, taken back ${row.taken}, given back ${row.returned}), it should hold ${owed}`,
      );
    if (row.credit_rows > 1 || big(row.credited) !== big(row.credit_row))
      say(`records a credit of ${row.credited} kobo, the ledger has ${row.credit_rows} row(s) for ${row.credit_row}`);
    // The programme as the seed set it.
    if (settings && !settings.enabled) say('paid while the referral programme is off');
    if (rateBps !== null && row.rate_bps !== rateBps) say(`at ${row.rate_bps} basis points, the programme's rate is ${rateBps}`);
    if (C > (P * BigInt(row.rate_bps)) / 10000n) say(`more than ${row.rate_bps} basis points of the deposit`);
    kept.set(row.referred_user_id, (kept.get(row.referred_user_id) ?? 0n) + C - big(row.reversed));
    // (c): nothing between accounts sharing an address, a card or a bank account.
    const referrer = users.get(row.referrer_id);
    const referred = users.get(row.referred_user_id);
    if (referrer && referred && referrer.ip === referred.ip) say(`the two accounts were made from one address (${referrer.ip})`);
    if (referrer?.device && referrer.device === referred?.device) say('the two accounts were made on one browser');
    const created = BigInt(row.created_ms);
    // Nothing while either address is unconfirmed; an address confirmed by now may have been confirmed while the credit ran.
    for (const userId of [row.referrer_id, row.referred_user_id])
      if (confirmedAt.get(userId) === null) say(`user ${userId} has never confirmed their email address`);
    const theirs = paidWith(row.referred_user_id, created - SEEN_BEFORE_MS, row.intent_id);
    const mine = paidWith(row.referrer_id, created - SEEN_BEFORE_MS);
    const shared = [...theirs.keys].filter((key) => mine.keys.has(key));
    const sharedPrints = [...theirs.prints].filter((print) => mine.prints.has(print));
    if (shared.length > 0 || sharedPrints.length > 0) say(`the two accounts had both paid with ${[...shared, ...sharedPrints].join(', ')}`);
  }
  if (capKobo !== null)
    for (const [referred, total] of kept)
      if (total > capKobo) problems.push(`user ${referred} earned their referrer ${total} kobo in commissions, above the cap of ${capKobo}`);
  if (final && settings?.enabled && capKobo === null) checkCommissionsOwed(sim, payments, rows, confirmedAt, problems);
}

/** When each user confirmed their address (epoch ms), null for never. */
async function confirmationTimes(query: Query, ids: number[]): Promise<Map<number, number | null>> {
  const rows = await query<{ id: number; confirmed_ms: string | null }>(
    'select id, (extract(epoch from email_verified_at) * 1000)::bigint::text as confirmed_ms from users where id = any($1::int[])',
    [ids],
  );
  return new Map(rows.map((row) => [row.id, row.confirmed_ms === null ? null : Number(row.confirmed_ms)]));
}

/** A credit that started this long after the later confirmation surely saw both addresses confirmed. */
const CONFIRMED_BEFORE_MS = 1000;

/**
 * After the drain: each credited deposit of a referred user earned a commission, unless the two accounts share
 * something or it was credited before both addresses were confirmed.
 */
function checkCommissionsOwed(
  sim: Sim,
  payments: Map<string, PaymentRow>,
  rows: CommissionRow[],
  confirmedAt: Map<number, number | null>,
  problems: string[],
): void {
  const { world } = sim;
  const paidOn = new Set(rows.map((row) => row.reference));
  const users = new Map(world.users.map((user) => [user.id, user]));
  const everPaidWith = (userId: number) => {
    const keys = new Set<string>();
    for (const deposit of world.deposits) {
      const row = payments.get(deposit.reference);
      if (deposit.userId !== userId || row?.status !== 'success') continue;
      keys.add(instrumentKey(deposit));
      if (row.payer_fingerprint) keys.add(row.payer_fingerprint);
    }
    return keys;
  };
  for (const user of world.users) {
    if (user.referrerId === null) continue;
    const referrer = users.get(user.referrerId);
    if (!referrer || referrer.ip === user.ip || user.device === null || referrer.device === user.device) continue;
    const mine = everPaidWith(referrer.id);
    if ([...everPaidWith(user.id)].some((key) => mine.has(key))) continue;
    const [referredConfirmed, referrerConfirmed] = [confirmedAt.get(user.id), confirmedAt.get(referrer.id)];
    if (referredConfirmed == null || referrerConfirmed == null) continue;
    const bothConfirmed = Math.max(referredConfirmed, referrerConfirmed) + CONFIRMED_BEFORE_MS;
    for (const deposit of world.deposits) {
      const row = payments.get(deposit.reference);
      if (deposit.userId !== user.id || row?.status !== 'success' || paidOn.has(deposit.reference)) continue;
      if (row.settled_ms === null || Number(row.settled_ms) < bothConfirmed) continue;
      problems.push(`deposit ${deposit.reference} by user ${user.id}, whom user ${referrer.id} referred, was credited and earned no commission`);
    }
  }
}

/**
 * (d): the shop's own reconciliation, after the drain: everything (the seed's whole history is under test), and what the
 * hourly run reads since its last clean run (a wallet against its last row's running balance, the payments and
 * commissions credited since), which must not see a problem in what the full run finds clean. Findings about other
 * seeds' users count only while no seed has failed.
 */
export async function checkReconciliation(sim: Sim, othersClean: boolean): Promise<string[]> {
  const problems: string[] = [];
  for (const scope of ['full', 'recent'] as const) problems.push(...(await reconciliationProblems(sim, scope, othersClean)));
  return problems;
}

async function reconciliationProblems(sim: Sim, scope: 'full' | 'recent', othersClean: boolean): Promise<string[]> {
  const answer = await sim.admin.api(`admin/reconciliation?scope=${scope}`);
  if (answer.kind !== 'answered' || answer.status !== 200)
    return [`GET admin/reconciliation?scope=${scope} answered ${answer.kind === 'answered' ? `${answer.status} ${answer.text.slice(0, 200)}` : answer.kind}`];
  const data = answer.body.data;
  if (data.ok) return [];
  const ids = new Set(sim.world.users.map((user) => user.id));
  const problems: string[] = [];
  const ours = (userId: unknown) => othersClean || ids.has(Number(userId));
  for (const finding of data.unbacked?.findings ?? [])
    if (ours(finding.userId))
      problems.push(`reconciliation (${scope}): ${finding.cause} of ₦${finding.amount} for user ${finding.userId} (${finding.reference}): ${finding.detail}`);
  for (const key of ['balanceMismatches', 'brokenRunningBalances', 'paymentMismatches', 'debtMismatches', 'reversalMismatches', 'commissionMismatches'])
    for (const entry of (data[key] ?? []) as Array<Record<string, unknown>>)
      if (entry.userId === undefined || ours(entry.userId)) problems.push(`reconciliation (${scope}) ${key}: ${JSON.stringify(entry)}`);
  if (problems.length === 0 && othersClean) problems.push(`reconciliation (${scope}) answered ok: false with nothing listed: ${answer.text.slice(0, 300)}`);
  return problems;
}
