// The books, checked: the ledger against itself (reconciliation-ledger.ts) and against the outside world
// (reconciliation-backing.ts), reported in kobo by user and cause. The hourly run checks what was written since
// the last clean run began, and everything once a week or when no run was clean; an administrator can ask
// for either at any time. Hourly rather than daily: a problem is seen within the hour, and each run reads the hour's
// writes and the margin's (at a busy shop's volume a day's 21,000 wallets took 0.9 s, two hours' 0.33 s: bench:scale).
import { inArray, sql } from 'drizzle-orm';
import { users } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { formatNaira, koboToNaira, nairaToKobo } from '../../lib/decimal';
import { log } from '../../lib/log';
import { recordWarningOnce } from '../oversight';
import {
  askProvidersAgain,
  findUnbacked,
  type PaymentRow,
  perPaymentQuery,
  providerFindings,
  type ReconciliationScope,
  type UnbackedCause,
} from './reconciliation-backing';
import { checkLedger } from './reconciliation-ledger';

export type { ReconciliationScope, UnbackedCause };

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
  /** 'recent': only what was written since `since` (the start of the last clean run, less a margin) was read. */
  scope: ReconciliationScope['kind'];
  since: string | null;
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

/**
 * Checks every kobo over `scope` (see the top of this file). With `env`, the newest credited payments are also asked
 * about again at their provider; without it (the tests' books checks) only the recorded events are used. The scope
 * may still be on its way (being read from the last run): the providers, which need none of it, are asked meanwhile.
 */
export async function reconcile(
  db: DbOrTx,
  env?: Env,
  scopeToCome: ReconciliationScope | Promise<ReconciliationScope> = { kind: 'full' },
): Promise<ReconciliationReport> {
  const checkedAt = new Date().toISOString();
  const asking = env ? askProvidersAgain(db, env) : null;
  // Handled where it is awaited below; this keeps a scope that fails to be read from leaving a rejection unheard.
  asking?.catch(() => undefined);
  const scope = await scopeToCome;
  const [ledger, perPaymentRows, asked] = await Promise.all([checkLedger(db, scope), db.execute<PaymentRow>(perPaymentQuery(scope)), asking]);
  const rows = perPaymentRows.rows;
  const outside = asked ? providerFindings(asked, rows) : null;
  const unbackedRows = [...findUnbacked(rows), ...(outside?.findings ?? [])];
  const emails = await emailsOf(db, [...new Set(unbackedRows.map((finding) => finding.userId))]);
  const findings = unbackedRows.map(({ amountKobo, ...finding }) => ({
    ...finding,
    amount: koboToNaira(amountKobo),
    email: emails.get(finding.userId) ?? null,
  }));
  // A reversal_state finding says by how much two records disagree, not what a wallet holds: it is not added in.
  const total = unbackedRows.filter((finding) => finding.cause !== 'reversal_state').reduce((sum, finding) => sum + finding.amountKobo, 0n);
  const { balances, running, payments, debts, moves, commissions } = ledger;
  const report = {
    checkedAt,
    scope: scope.kind,
    since: scope.kind === 'recent' ? scope.since.toISOString() : null,
    walletsChecked: ledger.walletsChecked,
    balanceMismatches: balances.map((r) => ({ userId: r.user_id, balance: koboToNaira(BigInt(r.balance)), ledger: koboToNaira(BigInt(r.ledger)) })),
    brokenRunningBalances: running.map((r) => ({ userId: r.user_id, transactionId: Number(r.id) })),
    paymentMismatches: payments.map((r) => ({ reference: r.reference, status: r.status, credits: Number(r.credits) })),
    debtMismatches: debts.map((r) => ({ userId: r.user_id, debt: koboToNaira(BigInt(r.debt)), expected: koboToNaira(BigInt(r.expected)) })),
    reversalMismatches: moves.map((r) => ({
      reversalId: Number(r.reversal_id),
      party: r.party,
      step: r.step,
      recorded: koboToNaira(BigInt(r.recorded)),
      ledger: koboToNaira(BigInt(r.ledger)),
    })),
    commissionMismatches: commissions.map((r) => ({
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
/** How far before the last clean run's start a recent run reads: a transaction open then wrote rows dated before it. */
const RECENT_MARGIN_MS = 60 * 60_000;
/** However clean the hours were, the hourly run reads everything this often. */
const FULL_EVERY_MS = 7 * 24 * 60 * 60_000;

/** What settings 'reconciliation' keeps between runs: the last verdict, and when the last clean and full runs began. */
interface LastRun {
  startedAt?: string;
  checkedAt?: string;
  cleanSince?: string;
  lastFullAt?: string;
}

/** Recent since the last clean run began (less the margin); full when none was clean, or `fullEveryMs` after the last full run. */
function scopeAfter(last: LastRun | undefined, fullEveryMs: number | null): ReconciliationScope {
  if (!last?.cleanSince) return { kind: 'full' };
  if (fullEveryMs !== null && (!last.lastFullAt || Date.parse(last.lastFullAt) < Date.now() - fullEveryMs)) return { kind: 'full' };
  return { kind: 'recent', since: new Date(Date.parse(last.cleanSince) - RECENT_MARGIN_MS) };
}

/**
 * An administrator's run: everything, or (the default once an hourly run came out clean) what was written since the
 * last clean hourly run began. Read-only: the hourly run alone moves what the next runs read from.
 */
export async function reconcileOnDemand(db: DbOrTx, env: Env, asked: 'recent' | 'full' | undefined): Promise<ReconciliationReport> {
  if (asked === 'full') return reconcile(db, env);
  const scope = db
    .execute<{ value: LastRun }>(sql`select value from settings where key = ${LAST_RUN_KEY}`)
    .then(({ rows }) => scopeAfter(rows[0]?.value, null));
  return reconcile(db, env, scope);
}

/**
 * Cron, hourly: the reconciliation, provider re-verification included, over what was written since the last clean run
 * began (everything weekly). Books that are not clean are a warning on the administrators' dashboard (one until it is
 * read, however many runs find them) and an error in the log. The run is claimed first (one statement that moves the
 * last run's time only when an hour has passed, keeping what the last runs recorded), so however often the cron fires
 * it runs once an hour; a run that fails before its verdict gives the claim back.
 */
export async function hourlyReconciliation(db: Db, env: Env): Promise<{ ran: boolean; ok?: boolean; findings?: number; scope?: ReconciliationScope['kind'] }> {
  const startedAt = new Date().toISOString();
  const { rows: claimed } = await db.execute<{ value: LastRun }>(sql`
    insert into settings (key, value) values (${LAST_RUN_KEY}, ${JSON.stringify({ startedAt })}::jsonb)
    on conflict (key) do update set value = settings.value || excluded.value, updated_at = now()
    where settings.updated_at < now() - interval '1 hour'
    returning value`);
  if (claimed.length === 0) return { ran: false };
  const last = claimed[0].value;
  const scope = scopeAfter(last, FULL_EVERY_MS);
  let report: ReconciliationReport;
  try {
    report = await reconcile(db, env, scope);
  } catch (error) {
    // A run that could not read the books gives its hour back: the next cron tries again rather than an hour later.
    // The run's own error is the one told, even when the database is gone and the claim stays.
    await db
      .execute(sql`
        update settings set updated_at = now() - interval '1 hour'
        where key = ${LAST_RUN_KEY} and value->>'startedAt' = ${startedAt}`)
      .catch((releaseError) => log.warn('reconciliation claim not given back', { error: String(releaseError) }));
    throw error;
  }
  const findings =
    report.unbacked.findings.length +
    report.balanceMismatches.length +
    report.brokenRunningBalances.length +
    report.paymentMismatches.length +
    report.debtMismatches.length +
    report.reversalMismatches.length +
    report.commissionMismatches.length;
  const recorded: LastRun & Record<string, unknown> = {
    startedAt,
    checkedAt: report.checkedAt,
    ok: report.ok,
    findings,
    unbacked: report.unbacked.total,
    scope: scope.kind,
    cleanSince: report.ok ? startedAt : last.cleanSince,
    lastFullAt: scope.kind === 'full' ? startedAt : last.lastFullAt,
  };
  await db.execute(sql`update settings set value = ${JSON.stringify(recorded)}::jsonb where key = ${LAST_RUN_KEY}`);
  if (!report.ok) {
    log.error('reconciliation found problems', { findings, unbacked: report.unbacked.total });
    await recordWarningOnce(db, {
      kind: 'reconciliation',
      message: `The reconciliation found ${findings} problem${findings === 1 ? '' : 's'}; ${formatNaira(nairaToKobo(report.unbacked.total))} of credit has nothing behind it. Open Reconciliation for the list.`,
      details: { findings, unbacked: report.unbacked.total, checkedAt: report.checkedAt },
    });
  }
  return { ran: true, ok: report.ok, findings, scope: scope.kind };
}
