// Every order of a payment's refund and dispute events ends in one state (issue 25, "one state per payment"):
// the rule, the runs and the checks the Paystack and Flutterwave files share. A scenario is a list of events
// made to happen at a provider's sandbox (each answers its signed webhook undelivered); a run gives a fresh
// referred payer a fresh deposit (its referrer's commission released at once), makes the events, and delivers
// them to the shop in one order: once each and then all again, or all at once, each twice. Whatever the order,
// the payer's wallet gives up min(payment, Σ claims) (a refund claims its amount, a dispute open or lost its
// final amount, a dispute won nothing), the referrer's commission the same share rounded up, the part already
// spent becomes debt, and the books hold no credit the shop did not keep.
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { paymentIntents, paymentReversalMoves, paymentReversals, referralCommissions, settings, wallets, walletTransactions } from '../../drizzle/schema';
import type { Db } from '../../worker/db';
import { formatNaira } from '../../worker/lib/decimal';
import { reconcile } from '../../worker/services/money/reconciliation';
import { referralCodeOf } from '../../worker/services/money/referrals';
import { call, createAdmin, markEmailVerified, type TestAccount, unique, withDb } from '../support/api';

/** Every scenario's deposit: ₦5,000, and its 5% commission. */
const PAYMENT_KOBO = 500_000n;
const COMMISSION_KOBO = (PAYMENT_KOBO * 500n) / 10_000n;

type ReversalEvent =
  | { event: 'refund'; amountKobo?: bigint }
  | { event: 'dispute'; amountKobo?: bigint }
  /** The scenario's dispute resolved: won by the shop, or lost (accepted), for less when `acceptedKobo` is given. */
  | { event: 'resolve'; outcome: 'won' | 'lost'; acceptedKobo?: bigint };

type ReversalRow = { kind: 'refund' | 'dispute'; status: 'taken' | 'dispute_open' | 'dispute_won' | 'dispute_lost'; amountKobo: bigint };

interface Scenario {
  /** What it proves, for the test's name. */
  name: string;
  /** The events, in the order they happen at the provider. */
  events: ReversalEvent[];
  /** The payment's reversals once every event has arrived, whatever the order. */
  reversals: ReversalRow[];
  /** Money spent from each wallet (an administrator's debit) before the events: what the events take beyond it is debt. */
  spentKobo?: { payer?: bigint; referrer?: bigint };
}

const naira = (kobo: bigint) => formatNaira(kobo).replace('.00', '');
function describeEvent(step: ReversalEvent): string {
  if (step.event === 'refund') return `refund${step.amountKobo ? ` ${naira(step.amountKobo)}` : ''}`;
  if (step.event === 'dispute') return `dispute${step.amountKobo ? ` ${naira(step.amountKobo)}` : ''}`;
  return step.outcome === 'won' ? 'dispute won' : `dispute lost${step.acceptedKobo ? ` for ${naira(step.acceptedKobo)}` : ''}`;
}

/** A recorded webhook, as the provider signed it. */
export interface Hook {
  body: string;
  signature: string;
}

/** An account as the runs need it: no session, since signing in would cost each run another password hash. */
export interface Account {
  id: number;
  email: string;
}

/** One provider's sandbox and the shop's door for its webhooks. */
export interface ReversalDriver {
  /** A deposit by `payer` credited while referral commissions are released at once; its reference. */
  creditedDeposit(payer: Account, kobo: bigint): Promise<string>;
  /** Makes `events` happen to the payment at the provider, in order; the webhook each one sent. */
  makeEvents(reference: string, events: ReversalEvent[]): Promise<Hook[]>;
  /** Delivers a webhook to the shop, expecting it accepted. */
  deliver(hook: Hook): Promise<void>;
}

/**
 * Runs fn in a transaction in which referral commissions are 5%, released at once, without a cap, then puts the
 * shop's referral settings back as they were before committing: the deposit credited in fn earns and releases its
 * commission, while other files, which change these settings too, never see this file's.
 */
export function withCommissionsReleasedAtOnce<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
  return withDb((db) =>
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(settings).where(eq(settings.key, 'referral')).for('update');
      const rule = { enabled: true, rateBps: 500, holdDays: 0, capKobo: null };
      await tx
        .insert(settings)
        .values({ key: 'referral', value: rule })
        .onConflictDoUpdate({ target: settings.key, set: { value: rule } });
      const result = await fn(tx as unknown as Db);
      if (before)
        await tx.update(settings).set({ value: before.value, updatedAt: before.updatedAt, updatedBy: before.updatedBy }).where(eq(settings.key, 'referral'));
      else await tx.delete(settings).where(eq(settings.key, 'referral'));
      return result;
    }),
  );
}

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

const max0 = (value: bigint) => (value > 0n ? value : 0n);
const ceilShare = (commission: bigint, reversed: bigint, payment: bigint) => (commission * reversed + payment - 1n) / payment;

/** The design's rule: what the payer's wallet gives up for the payment. */
function reductionOf(reversals: ReversalRow[]): bigint {
  const claims = reversals.reduce((sum, r) => sum + (r.status === 'dispute_won' ? 0n : r.amountKobo), 0n);
  return claims < PAYMENT_KOBO ? claims : PAYMENT_KOBO;
}

/** A wallet that held `heldKobo` of this money before the events and gives up `reducedKobo`: what the balance keeps and what is owed. */
const walletAfter = (heldKobo: bigint, reducedKobo: bigint) => ({ balance: max0(heldKobo - reducedKobo), debt: max0(reducedKobo - heldKobo) });

/** The end state every order must reach. */
function expectedState(scenario: Scenario) {
  const reduced = reductionOf(scenario.reversals);
  const share = ceilShare(COMMISSION_KOBO, reduced, PAYMENT_KOBO);
  return {
    reversedKobo: reduced,
    payer: { ...walletAfter(PAYMENT_KOBO - (scenario.spentKobo?.payer ?? 0n), reduced), kept: PAYMENT_KOBO - reduced, movesNet: reduced },
    referrer: { ...walletAfter(COMMISSION_KOBO - (scenario.spentKobo?.referrer ?? 0n), share), kept: COMMISSION_KOBO - share, movesNet: share },
    commission: { commissionKobo: COMMISSION_KOBO, creditedKobo: COMMISSION_KOBO, reversedKobo: share, released: true },
    reversals: scenario.reversals.map(describeRow).sort(),
  };
}

const describeRow = (row: ReversalRow) => `${row.kind} ${row.status} ${row.amountKobo}`;

/** The sum of a user's ledger rows by source. */
async function ledgerOf(db: Db, userId: number): Promise<Map<string, bigint>> {
  const rows = await db
    .select({ source: walletTransactions.sourceKind, amount: walletTransactions.amountKobo })
    .from(walletTransactions)
    .where(eq(walletTransactions.userId, userId));
  const sums = new Map<string, bigint>();
  for (const row of rows) sums.set(row.source, (sums.get(row.source) ?? 0n) + row.amount);
  return sums;
}

interface Run {
  payer: Account;
  referrer: Account;
  reference: string;
}

/** The state of one run's payment and both wallets: what expectedState describes, plus what the moves left as debt. */
async function stateOf({ payer, referrer, reference }: Run) {
  return withDb(async (db) => {
    const [intent] = await db.select().from(paymentIntents).where(eq(paymentIntents.reference, reference));
    const [reversals, moves, [commission], payerWallet, referrerWallet, payerLedger, referrerLedger] = await Promise.all([
      db.select().from(paymentReversals).where(eq(paymentReversals.intentId, intent.id)),
      db.select().from(paymentReversalMoves).where(eq(paymentReversalMoves.intentId, intent.id)),
      db.select().from(referralCommissions).where(eq(referralCommissions.paymentIntentId, intent.id)),
      db.select().from(wallets).where(eq(wallets.userId, payer.id)),
      db.select().from(wallets).where(eq(wallets.userId, referrer.id)),
      ledgerOf(db, payer.id),
      ledgerOf(db, referrer.id),
    ]);
    const movesOf = (party: 'payer' | 'referrer') => {
      const mine = moves.filter((move) => move.party === party);
      return {
        net: mine.reduce((sum, m) => sum + m.takenKobo + m.debtKobo - m.returnedKobo, 0n),
        debt: mine.reduce((sum, m) => sum + m.debtKobo, 0n),
      };
    };
    const [payerMoves, referrerMoves] = [movesOf('payer'), movesOf('referrer')];
    const sum = (ledger: Map<string, bigint>, source: string) => ledger.get(source) ?? 0n;
    return {
      state: {
        reversedKobo: intent.reversedKobo,
        payer: {
          balance: payerWallet[0].balanceKobo,
          debt: payerWallet[0].debtKobo,
          // What the wallet still holds of the payment: its credit, less what reversals took from the balance or left as debt.
          kept: sum(payerLedger, 'payment') - sum(payerLedger, 'chargeback') + sum(payerLedger, 'chargeback_return') - payerMoves.debt,
          movesNet: payerMoves.net,
        },
        referrer: {
          balance: referrerWallet[0].balanceKobo,
          debt: referrerWallet[0].debtKobo,
          kept:
            sum(referrerLedger, 'referral_commission') -
            sum(referrerLedger, 'commission_reversal') +
            sum(referrerLedger, 'commission_return') -
            referrerMoves.debt,
          movesNet: referrerMoves.net,
        },
        commission: commission && {
          commissionKobo: commission.commissionKobo,
          creditedKobo: commission.creditedKobo,
          reversedKobo: commission.reversedKobo,
          released: commission.releasedAt !== null,
        },
        reversals: reversals.map(describeRow).sort(),
      },
      payerLedger,
      reversalIds: reversals.map((r) => r.id),
    };
  });
}

let admin: Promise<TestAccount> | undefined;
async function spend(account: Account, kobo: bigint) {
  admin ??= createAdmin();
  const debited = await call('admin/wallet/debit', {
    token: (await admin).accessToken,
    body: { userId: account.id, amount: Number(kobo) / 100, reference: unique('spent'), reason: 'spent before the reversal' },
  });
  expect(debited.status, JSON.stringify(debited.body)).toBe(200);
}

/** A new account, signed up through the shop's register call with the referral code given, if any, its address confirmed (commission needs it). */
async function signUp(fullName: string, referralCode?: string): Promise<Account> {
  const email = `${unique()}@example.com`;
  const registered = await call('auth/register', { body: { fullName, email, password: 'correct-horse-1', userType: 2, referralCode } });
  expect(registered.status, JSON.stringify(registered.body)).toBe(201);
  await markEmailVerified(registered.body.user.id);
  return { id: registered.body.user.id, email };
}

type Delivery = 'in order, then all again' | 'all at once, each twice';

/** A fresh referrer, a payer they referred, the payer's deposit credited with the commission released, and the spending the scenario asks for. */
async function newRun(driver: ReversalDriver, scenario: Scenario): Promise<Run> {
  const referrer = await signUp('Ada Referrer');
  const payer = await signUp('Bayo Payer', await withDb((db) => referralCodeOf(db, referrer.id)));
  const reference = await driver.creditedDeposit(payer, PAYMENT_KOBO);
  const { state } = await stateOf({ payer, referrer, reference });
  expect(state.commission, 'the deposit earned its referrer a commission released at once').toEqual({
    commissionKobo: COMMISSION_KOBO,
    creditedKobo: COMMISSION_KOBO,
    reversedKobo: 0n,
    released: true,
  });
  if (scenario.spentKobo?.payer) await spend(payer, scenario.spentKobo.payer);
  if (scenario.spentKobo?.referrer) await spend(referrer, scenario.spentKobo.referrer);
  return { payer, referrer, reference };
}

/** One order of the scenario's events, delivered one way, checked against the rule; what the books check afterwards needs. */
async function runOnce(driver: ReversalDriver, scenario: Scenario, order: number[], delivery: Delivery) {
  const run = await newRun(driver, scenario);
  const hooks = await driver.makeEvents(run.reference, scenario.events);
  const expected = expectedState(scenario);
  const inOrder = order.map((i) => hooks[i]);
  const check = async (when: string) => {
    const { state, payerLedger, reversalIds } = await stateOf(run);
    const wrong = differences(state, expected);
    expect(wrong, `${when}, payment ${run.reference}: ${wrong.join('; ')}`).toEqual([]);
    if (!scenario.spentKobo?.payer) {
      // Nothing spent, nothing owed: the payment's ledger rows alone say what the wallet kept.
      const net = (payerLedger.get('payment') ?? 0n) - (payerLedger.get('chargeback') ?? 0n) + (payerLedger.get('chargeback_return') ?? 0n);
      expect(net, `${when}: payment − chargeback + chargeback_return`).toBe(PAYMENT_KOBO - expected.reversedKobo);
    }
    return { users: [run.payer.id, run.referrer.id], reference: run.reference, reversalIds };
  };
  if (delivery === 'all at once, each twice') {
    await Promise.all(inOrder.flatMap((hook) => [driver.deliver(hook), driver.deliver(hook)]));
    return check('after every event arrived at once, twice');
  }
  for (const hook of inOrder) await driver.deliver(hook);
  await check('after each event arrived once');
  for (const hook of inOrder) await driver.deliver(hook);
  return check('after every event arrived again');
}

/** Where `actual` differs from `expected`, one line per field: "payer.debt: 100000 (expected 0)". */
function differences(actual: unknown, expected: unknown, path = 'state'): string[] {
  if (typeof expected === 'object' && expected !== null && typeof actual === 'object' && actual !== null && !Array.isArray(expected)) {
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((key) => differences((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key], `${path}.${key}`));
  }
  const show = (value: unknown) => JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v));
  return show(actual) === show(expected) ? [] : [`${path}: ${show(actual)} (expected ${show(expected)})`];
}

/** Runs `work` over `items`, at most `limit` at a time, settling all of them. */
async function settleAll<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]).then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason: unknown) => ({ status: 'rejected', reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Every order of the scenario's events, each delivered in order and again, and all at once: each run on a fresh
 * deposit ends in the state the rule gives. Failures are reported together, each with its order and delivery.
 */
export async function expectEveryOrderToAgree(driver: ReversalDriver, scenario: Scenario): Promise<void> {
  const orders = permutations(scenario.events.map((_, i) => i));
  const runs = orders.flatMap((order) => (['in order, then all again', 'all at once, each twice'] as const).map((delivery) => ({ order, delivery })));
  const results = await settleAll(runs, 4, ({ order, delivery }) => runOnce(driver, scenario, order, delivery));
  const failures = results.flatMap((result, i) => {
    if (result.status === 'fulfilled') return [];
    const { order, delivery } = runs[i];
    const reason = result.reason instanceof Error ? result.reason.message : String(result.reason);
    return [`${order.map((e) => describeEvent(scenario.events[e])).join(' → ')} (${delivery}):\n${reason}`];
  });
  expect(failures, failures.join('\n\n')).toEqual([]);
  const checked = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  await expectBooksToHoldFor(checked);
}

/** The reconciliation finds nothing wrong with these runs' users, payments and reversals (other files' data is theirs to check). */
async function expectBooksToHoldFor(runs: Array<{ users: number[]; reference: string; reversalIds: number[] }>) {
  const users = new Set(runs.flatMap((run) => run.users));
  const references = new Set(runs.map((run) => run.reference));
  const reversalIds = new Set(runs.flatMap((run) => run.reversalIds));
  const report = await withDb((db) => reconcile(db));
  const aboutUs = {
    balanceMismatches: report.balanceMismatches.filter((m) => users.has(m.userId)),
    brokenRunningBalances: report.brokenRunningBalances.filter((m) => users.has(m.userId)),
    debtMismatches: report.debtMismatches.filter((m) => users.has(m.userId)),
    paymentMismatches: report.paymentMismatches.filter((m) => references.has(m.reference)),
    commissionMismatches: report.commissionMismatches.filter((m) => references.has(m.reference)),
    reversalMismatches: report.reversalMismatches.filter((m) => reversalIds.has(m.reversalId)),
    unbackedFindings: report.unbacked.findings.filter((f) => users.has(f.userId) || references.has(f.reference)),
  };
  expect(aboutUs).toEqual({
    balanceMismatches: [],
    brokenRunningBalances: [],
    debtMismatches: [],
    paymentMismatches: [],
    commissionMismatches: [],
    reversalMismatches: [],
    unbackedFindings: [],
  });
}

// ---------------------------------------------------------------- the scenarios (kobo)

const refund = (amountKobo?: bigint): ReversalEvent => ({ event: 'refund', amountKobo });
const dispute = (amountKobo?: bigint): ReversalEvent => ({ event: 'dispute', amountKobo });
const won: ReversalEvent = { event: 'resolve', outcome: 'won' };
const lost = (acceptedKobo?: bigint): ReversalEvent => ({ event: 'resolve', outcome: 'lost', acceptedKobo });

export const SCENARIOS = {
  fullRefund: {
    name: 'a full refund after the commission: the payer gives up all of it; the referrer, who spent the commission, owes all of it',
    events: [refund()],
    reversals: [{ kind: 'refund', status: 'taken', amountKobo: PAYMENT_KOBO }],
    spentKobo: { referrer: COMMISSION_KOBO },
  },
  partialRefund: {
    name: 'a refund of ₦2,000 after the commission: ₦2,000 and two fifths of the commission go back',
    events: [refund(200_000n)],
    reversals: [{ kind: 'refund', status: 'taken', amountKobo: 200_000n }],
  },
  chargeback: {
    name: 'a dispute lost (chargeback) after the commission: the whole deposit and commission go back, whichever event comes first',
    events: [dispute(), lost()],
    reversals: [{ kind: 'dispute', status: 'dispute_lost', amountKobo: PAYMENT_KOBO }],
  },
  disputeRefundWonInFull: {
    name: 'dispute, a full refund while it is open, then the merchant wins: the refund stays taken, nothing is given back',
    events: [dispute(), refund(PAYMENT_KOBO), won],
    reversals: [
      { kind: 'dispute', status: 'dispute_won', amountKobo: PAYMENT_KOBO },
      { kind: 'refund', status: 'taken', amountKobo: PAYMENT_KOBO },
    ],
  },
  disputeRefundWonSpent: {
    name: 'dispute, a ₦2,000 refund while it is open, then the merchant wins, with ₦4,000 and the commission spent: only what the refund does not need comes back, to the debts first',
    events: [dispute(), refund(200_000n), won],
    reversals: [
      { kind: 'dispute', status: 'dispute_won', amountKobo: PAYMENT_KOBO },
      { kind: 'refund', status: 'taken', amountKobo: 200_000n },
    ],
    spentKobo: { payer: 400_000n, referrer: COMMISSION_KOBO },
  },
  refundDisputeWon: {
    name: 'a ₦2,000 refund, then a dispute of the rest that the merchant wins: the refund alone stays taken',
    events: [refund(200_000n), dispute(), won],
    reversals: [
      { kind: 'refund', status: 'taken', amountKobo: 200_000n },
      { kind: 'dispute', status: 'dispute_won', amountKobo: 300_000n },
    ],
  },
  refundDisputeLost: {
    name: 'a ₦2,000 refund, then a dispute of the rest that the merchant loses: the whole deposit and commission go back',
    events: [refund(200_000n), dispute(), lost()],
    reversals: [
      { kind: 'refund', status: 'taken', amountKobo: 200_000n },
      { kind: 'dispute', status: 'dispute_lost', amountKobo: 300_000n },
    ],
  },
  partialAcceptance: {
    name: 'a ₦3,000 dispute accepted for ₦1,234.56: the accepted amount stays taken and the rest comes back',
    events: [dispute(300_000n), lost(123_456n)],
    reversals: [{ kind: 'dispute', status: 'dispute_lost', amountKobo: 123_456n }],
  },
} satisfies Record<string, Scenario>;
