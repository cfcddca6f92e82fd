// The reconciliation's checks of the ledger against itself: each wallet equals the sum of its ledger, each
// running balance follows from the row before, each successful payment is credited exactly once, each debt
// follows from its reversals and settlements, each reversal move and each commission has exactly its ledger row.
//
// Over a year of a busy shop the first two read millions of rows (a minute of database time), so a run can be
// scoped to what changed since a moment: the ledger rows written since, each against the row before it; the
// wallets written since (a balance update moves wallets.updated_at) or with ledger rows since, each against its
// last row's running balance; the payments settled or credited since; the commissions recorded, released or
// credited since. Whatever was clean at that moment and not written since is still clean (the ledger is only ever
// appended to), so a run since the last clean run's start checks everything that can have gone wrong meanwhile:
// each wallet's ledger summed to its balance then, each row since follows from the one before, so the last row's
// running balance is still the sum of them all, and a wallet that equals it equals its ledger, without reading a
// heavy reseller's 100,000 rows again. Reversal moves are few whatever the shop's age: every run checks all of them.
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { moveSource, type ReconciliationScope } from './reconciliation-backing';

/** The most findings of one kind a run sends back. */
const LIMIT = 1000;

const signed = sql.raw('case when transaction_type = 1 then amount_kobo else -amount_kobo end');

/** The users whose wallet or ledger was written since `since`. */
const touchedSince = (since: Date) => sql`
  select user_id from wallets where updated_at >= ${since}
  union
  select user_id from wallet_transactions where created_at >= ${since}`;

function balanceQuery(scope: ReconciliationScope): SQL {
  if (scope.kind === 'full')
    return sql`
      select w.user_id, w.balance_kobo as balance, coalesce(l.sum, 0) as ledger
      from wallets w
      left join (select user_id, sum(${signed}) as sum from wallet_transactions group by user_id) l on l.user_id = w.user_id
      where w.balance_kobo <> coalesce(l.sum, 0)
      limit ${LIMIT}`;
  // The last row's running balance stands for the sum (top of file). A wallet written since has its last row among the
  // rows written since (the margin before `since` covers transactions open across it), all read in one pass; only a
  // wallet moved with no row since (which is itself a finding) looks its last row up by (user_id, id).
  return sql`
    with last_since as (
      select distinct on (user_id) user_id, balance_after_kobo from wallet_transactions
      where created_at >= ${scope.since} order by user_id, id desc
    )
    select w.user_id, w.balance_kobo as balance, coalesce(r.balance_after_kobo, l.balance_after_kobo, 0) as ledger
    from (${touchedSince(scope.since)}) touched
    join wallets w on w.user_id = touched.user_id
    left join last_since r on r.user_id = w.user_id
    left join lateral (
      select balance_after_kobo from wallet_transactions t where r.user_id is null and t.user_id = w.user_id order by t.id desc limit 1
    ) l on true
    where w.balance_kobo <> coalesce(r.balance_after_kobo, l.balance_after_kobo, 0)
    limit ${LIMIT}`;
}

function runningBalanceQuery(scope: ReconciliationScope): SQL {
  if (scope.kind === 'full')
    return sql`
      select user_id, id from (
        select user_id, id, balance_after_kobo, lag(balance_after_kobo, 1, 0::bigint) over (partition by user_id order by id) + ${signed} as expected
        from wallet_transactions
      ) t where balance_after_kobo <> expected
      limit ${LIMIT}`;
  // Each recent row against the one before it: a recent one when there is (in the same pass), else the row found by
  // (user_id, id). The rows written before stay unread.
  return sql`
    select t.user_id, t.id
    from (
      select user_id, id, balance_after_kobo, ${signed} as signed,
        lag(balance_after_kobo) over (partition by user_id order by id) as previous_since
      from wallet_transactions where created_at >= ${scope.since}
    ) t
    left join lateral (
      select p.balance_after_kobo from wallet_transactions p
      where t.previous_since is null and p.user_id = t.user_id and p.id < t.id order by p.id desc limit 1
    ) previous on true
    where t.balance_after_kobo <> coalesce(t.previous_since, previous.balance_after_kobo, 0) + t.signed
    limit ${LIMIT}`;
}

function paymentQuery(scope: ReconciliationScope): SQL {
  // Recent: the payments that succeeded since and those credited since, each with all its credits (a payment that did
  // not succeed matters only once credited).
  // As an array, found once (from the settled and created indexes) and read by both sides, each by its unique key: as
  // `in (subquery)`, Postgres hashed the few references and read every payment of the shop to match them. (The cast
  // makes `any` take the one array rather than read a subquery's rows.)
  const references = sql`(select list from recent_references)::text[]`;
  const [recent, intentFilter, creditFilter] =
    scope.kind === 'full'
      ? [sql``, sql``, sql``]
      : [
          sql`with recent_references as materialized (select array(
            select reference from payment_intents where status = 'success' and settled_at >= ${scope.since}
            union
            select source_ref from wallet_transactions where source_kind = 'payment' and created_at >= ${scope.since}) as list)`,
          sql`where reference = any(${references})`,
          sql`and source_ref = any(${references})`,
        ];
  return sql`${recent}
    select coalesce(p.reference, t.source_ref) as reference, p.status, count(t.id)::int as credits
    from (select reference, status from payment_intents ${intentFilter}) p
    -- Filtered before the join: in a full join's ON clause the filter would keep every other ledger row as unmatched.
    full join (select id, source_ref from wallet_transactions where source_kind = 'payment' ${creditFilter}) t on t.source_ref = p.reference
    where p.status = 'success' or t.id is not null
    group by coalesce(p.reference, t.source_ref), p.status
    having count(t.id) <> 1 or p.status is distinct from 'success'
    limit ${LIMIT}`;
}

function debtQuery(scope: ReconciliationScope): SQL {
  // A debt changes only with its wallet's row (ledger.ts moves updated_at with it).
  const wallet = scope.kind === 'full' ? sql`` : sql`and w.updated_at >= ${scope.since}`;
  const settlement = scope.kind === 'full' ? sql`` : sql`and user_id in (select user_id from wallets where updated_at >= ${scope.since})`;
  return sql`
    select w.user_id, w.debt_kobo as debt, coalesce(r.owed, 0) - coalesce(s.paid, 0) as expected
    from wallets w
    left join (select user_id, sum(debt_kobo) as owed from payment_reversal_moves group by user_id) r on r.user_id = w.user_id
    left join (
      select user_id, sum(amount_kobo) as paid from wallet_transactions where source_kind = 'debt_settlement' ${settlement} group by user_id
    ) s on s.user_id = w.user_id
    where w.debt_kobo <> coalesce(r.owed, 0) - coalesce(s.paid, 0) ${wallet}
    limit ${LIMIT}`;
}

/** A move's ledger row is named by its ledger_ref, under its party's source for its direction (reversal-moves.ts). */
const moveQuery = sql`
  select m.reversal_id, m.party, m.step, greatest(m.taken_kobo, m.returned_kobo) as recorded, coalesce(t.amount_kobo, 0) as ledger
  from payment_reversal_moves m
  left join wallet_transactions t on t.user_id = m.user_id and t.source_ref = m.ledger_ref and t.source_kind = ${moveSource}
  where coalesce(t.amount_kobo, 0) <> greatest(m.taken_kobo, m.returned_kobo)
  limit ${LIMIT}`;

/**
 * A released commission's credit is named by the deposit's reference (referral-commissions.ts); a held one has none.
 * Each commission looks up its credit, and each commission credit its commission, by their unique keys: as one full
 * join, Postgres matched two lists sorted by reference and read every payment of the shop to sort its side.
 * Recent: the commissions recorded, released or credited since, and the commission credits written since (a
 * commission changes only then; its reversals are moves, every one of which each run checks), so a busy shop's year
 * of commissions is not read again every day.
 */
function commissionQuery(scope: ReconciliationScope): SQL {
  const creditsSince = scope.kind === 'full' ? sql`` : sql`and t.created_at >= ${scope.since}`;
  // The commissions' own columns alone, so the few are picked before any join: those credited since by their deposit's id.
  const commissionsSince =
    scope.kind === 'full'
      ? sql``
      : sql`and (rc.created_at >= ${scope.since} or rc.released_at >= ${scope.since} or rc.payment_intent_id = any(array(
          select credited.id from wallet_transactions t join payment_intents credited on credited.reference = t.source_ref
          where t.source_kind = 'referral_commission' ${creditsSince})))`;
  return sql`
  (select p.reference, rc.credited_kobo as recorded, t.amount_kobo as credited
  from referral_commissions rc
  join payment_intents p on p.id = rc.payment_intent_id
  left join wallet_transactions t on t.source_kind = 'referral_commission' and t.source_ref = p.reference
  where ((t.id is null and rc.released_at is not null and rc.credited_kobo > 0)
    or (t.id is not null and (rc.released_at is null or t.amount_kobo <> rc.credited_kobo or t.user_id <> rc.referrer_id)))
    ${commissionsSince}
  limit ${LIMIT})
  union all
  (select t.source_ref, null, t.amount_kobo
  from wallet_transactions t
  where t.source_kind = 'referral_commission' ${creditsSince}
    and not exists (
      select 1 from payment_intents p join referral_commissions rc on rc.payment_intent_id = p.id where p.reference = t.source_ref
    )
  limit ${LIMIT})`;
}

const walletCountQuery = (scope: ReconciliationScope) =>
  scope.kind === 'full' ? sql`select count(*)::int as n from wallets` : sql`select count(*)::int as n from (${touchedSince(scope.since)}) touched`;

/** Every check of the ledger against itself over `scope`, each one statement, side by side. */
export async function checkLedger(db: DbOrTx, scope: ReconciliationScope) {
  const [balances, running, payments, wallets, debts, moves, commissions] = await Promise.all([
    db.execute<{ user_id: number; balance: string; ledger: string }>(balanceQuery(scope)),
    db.execute<{ user_id: number; id: string }>(runningBalanceQuery(scope)),
    db.execute<{ reference: string; status: string | null; credits: number }>(paymentQuery(scope)),
    db.execute<{ n: number }>(walletCountQuery(scope)),
    db.execute<{ user_id: number; debt: string; expected: string }>(debtQuery(scope)),
    db.execute<{ reversal_id: string; party: string; step: string; recorded: string; ledger: string }>(moveQuery),
    db.execute<{ reference: string; recorded: string | null; credited: string | null }>(commissionQuery(scope)),
  ]);
  return {
    walletsChecked: Number(wallets.rows[0].n),
    balances: balances.rows,
    running: running.rows,
    payments: payments.rows,
    debts: debts.rows,
    moves: moves.rows,
    commissions: commissions.rows,
  };
}
