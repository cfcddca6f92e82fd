// /admin/reconciliation: the books checked on demand (when the screen opens and on "Run again"): a
// verdict, when it ran and over what, the providers asked again about recent payments, the credit with
// nothing behind it (by user, cause and payment), and the ledger's own checks, each summarised when it
// found something. It opens on what was written since the last clean hourly run (seconds at any size);
// "Check everything" reads every row, on the server's queue: the screen shows it under way until its
// report is in.
import { useState } from 'react';

import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { CellText, type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Skeleton } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { StatCard } from '@/components/StatCard';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { ManageUserLink } from '@/features/admin/users/ManageUserLink';
import { getErrorMessage } from '@/lib/api';
import { formatAmount, formatDateTime } from '@/lib/format';
import { cx } from '@/lib/hooks';
import { type FullReconciliationRun, isUnderWay, useFullReconciliation } from './api/get-full-reconciliation';
import { type ReconciliationReport, type UnbackedFinding, useReconciliation } from './api/get-reconciliation';
import { useStartFullReconciliation } from './api/start-full-reconciliation';
import { LedgerChecks, ledgerFindingCount } from './ReconciliationChecks';

/** Each cause of credit with nothing behind it, in words. */
const CAUSES: Record<UnbackedFinding['cause'], { label: string; tone: 'red' | 'amber' }> = {
  payment_not_kept: { label: 'Credited more than the shop kept', tone: 'red' },
  commission_not_backed: { label: 'Commission without a kept deposit', tone: 'red' },
  provider_disagrees: { label: 'Provider says not paid', tone: 'red' },
  reversal_state: { label: 'Reversal records do not add up', tone: 'amber' },
};

const USER_LINK = 'font-medium text-brand-700 underline-offset-2 hover:underline';
const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const COLUMNS: ReadonlyArray<Column<UnbackedFinding>> = [
  {
    key: 'user',
    header: 'User',
    mobile: 'title',
    cell: (f) => (
      <ManageUserLink userId={f.userId} className={USER_LINK}>
        <CellText text={f.email ?? `User #${f.userId}`} />
      </ManageUserLink>
    ),
  },
  { key: 'cause', header: 'Cause', cell: (f) => <Badge tone={CAUSES[f.cause].tone}>{CAUSES[f.cause].label}</Badge> },
  { key: 'reference', header: 'Payment', cell: (f) => <span className="font-mono text-xs break-all">{f.reference}</span> },
  {
    key: 'amount',
    header: 'Amount',
    className: 'md:text-right',
    cell: (f) => <span className="tabular-nums whitespace-nowrap">{formatAmount(f.amount)}</span>,
  },
  { key: 'detail', header: 'Detail', cell: (f) => <span className="block text-xs text-slate-600 md:min-w-[16rem]">{sentence(f.detail)}.</span> },
];

/** Every finding of a run: the unbacked credits and each of the ledger's checks. */
const findingCount = (report: ReconciliationReport) => report.unbacked.findings.length + ledgerFindingCount(report);

type View = 'recent' | 'full';

export default function ReconciliationPage() {
  const [view, setView] = useState<View>('recent');
  const recent = useReconciliation();
  const fullRun = useFullReconciliation();
  const start = useStartFullReconciliation();
  const run = fullRun.data;
  const fullUnderWay = start.isPending || isUnderWay(run);
  const checkEverything = () => start.mutate(undefined, { onSuccess: () => setView('full') });
  const checking = recent.isFetching;
  return (
    <div className="space-y-5">
      <PageHeader
        title="Reconciliation"
        description="Checks wallets against their ledger, and payments and referral commissions against what the payment providers say the shop kept. Opens on what changed since the last clean hourly check; checking everything runs in the background and takes longer on a large shop."
        actions={
          view === 'recent' ? (
            <>
              {recent.data?.scope === 'recent' ? (
                <button type="button" className="btn btn-secondary" onClick={checkEverything} disabled={checking || start.isPending}>
                  <Icon name="shieldCheck" className="h-4 w-4" /> Check everything
                </button>
              ) : null}
              <button type="button" className="btn btn-secondary" onClick={() => void recent.refetch()} disabled={checking}>
                <Icon name="refresh" className={cx('h-4 w-4', checking && 'animate-spin')} /> {checking ? 'Checking…' : 'Run again'}
              </button>
            </>
          ) : (
            <>
              <button type="button" className="btn btn-secondary" onClick={() => setView('recent')}>
                Recent changes
              </button>
              <button type="button" className="btn btn-secondary" onClick={checkEverything} disabled={fullUnderWay}>
                <Icon name="refresh" className={cx('h-4 w-4', fullUnderWay && 'animate-spin')} />{' '}
                {fullUnderWay ? 'Checking everything…' : 'Check everything again'}
              </button>
            </>
          )
        }
      />
      {view === 'recent' && run ? <LastFullCheck run={run} onView={() => setView('full')} /> : null}
      {view === 'full' ? (
        <FullCheck run={run} error={fullRun.isError ? fullRun.error : null} onRetry={checkEverything} />
      ) : recent.isError && !checking ? (
        <ErrorState message={getErrorMessage(recent.error)} onRetry={() => void recent.refetch()} />
      ) : !recent.data ? (
        <ReportSkeleton />
      ) : (
        <Report report={recent.data} busy={checking} />
      )}
    </div>
  );
}

function ReportSkeleton() {
  return (
    <div role="status" aria-label="Checking the books" className="space-y-3">
      <Skeleton className="h-20 w-full" />
      <div className="grid gap-3 sm:grid-cols-2">
        <Skeleton className="h-20 w-full" />
        <Skeleton className="h-20 w-full" />
      </div>
    </div>
  );
}

/** What a report found, in a few words. */
function verdictInWords(report: ReconciliationReport): string {
  const count = findingCount(report);
  if (count === 0 && report.ok) return 'books clean';
  return `${count} ${count === 1 ? 'finding' : 'findings'}`;
}

/** The last full check in a sentence. */
function lastFullCheckInWords(run: FullReconciliationRun): string {
  if (isUnderWay(run)) return 'A full check is under way.';
  if (run.state === 'failed' || !run.report) return `The last full check, asked for ${formatDateTime(run.requestedAt)}, stopped before it was done.`;
  return `Last full check ${formatDateTime(run.finishedAt ?? run.requestedAt)}: ${verdictInWords(run.report)}.`;
}

/** On the recent view: the last full check (under way, done or failed), one tap from its report. */
function LastFullCheck({ run, onView }: { run: FullReconciliationRun; onView: () => void }) {
  return (
    <p className="flex flex-wrap items-center gap-x-2 text-sm text-slate-600">
      {lastFullCheckInWords(run)}
      <button type="button" className="inline-flex min-h-11 items-center font-medium text-brand-700 underline-offset-2 hover:underline" onClick={onView}>
        {isUnderWay(run) ? 'Follow it' : 'View it'}
      </button>
    </p>
  );
}

/** The full check on the server's queue: under way (with when it started), failed (why, and start it again), or its report. */
function FullCheck({ run, error, onRetry }: { run: FullReconciliationRun | null | undefined; error: unknown; onRetry: () => void }) {
  if (error && !run) return <ErrorState message={getErrorMessage(error)} onRetry={onRetry} />;
  if (run?.state === 'failed') return <ErrorState message={run.error ?? 'The check stopped before it was done; start it again.'} onRetry={onRetry} />;
  if (run?.state === 'done' && run.report) return <Report report={run.report} busy={false} />;
  const since = run?.startedAt ?? run?.requestedAt;
  return (
    <section role="status" aria-label="Checking everything" className="card flex items-start gap-3 p-4 sm:p-5">
      <Spinner className="mt-0.5 h-6 w-6 shrink-0 text-brand-600" />
      <div className="min-w-0 space-y-1">
        <h2 className="text-lg font-semibold text-slate-900">Checking everything…</h2>
        <p className="text-sm text-slate-600">
          {run?.state === 'running' && since ? <>Started {formatDateTime(since)}. </> : 'Waiting to start. '}
          Every wallet, ledger row, payment, commission and reversal is read; on a large shop that takes a while. You can leave this page: the result waits
          here.
        </p>
      </div>
    </section>
  );
}

function Report({ report, busy }: { report: ReconciliationReport; busy: boolean }) {
  return (
    <div className={cx('space-y-5 transition-opacity', busy && 'opacity-60')} aria-busy={busy}>
      <Verdict report={report} />
      <div className="grid gap-3 sm:grid-cols-2">
        <StatCard
          icon="wallet"
          label="Credit with nothing behind it"
          value={formatAmount(report.unbacked.total)}
          tone={Number(report.unbacked.total) ? 'rose' : 'emerald'}
          hint={`${report.walletsChecked} ${report.walletsChecked === 1 ? 'wallet' : 'wallets'} checked`}
        />
        <ProviderChecks checks={report.providerChecks} />
      </div>
      {findingCount(report) === 0 ? (
        <EmptyState icon="checkCircle" title="Nothing to look into">
          Every wallet matches its ledger, every payment and commission was credited once, and nothing is credited beyond what the providers left the shop.
        </EmptyState>
      ) : (
        <>
          <UnbackedFindings report={report} />
          <LedgerChecks report={report} />
        </>
      )}
    </div>
  );
}

function Verdict({ report }: { report: ReconciliationReport }) {
  const count = findingCount(report);
  const clean = report.ok && count === 0;
  return (
    <section
      aria-label="Verdict"
      className={cx(
        'flex items-start gap-3 rounded-2xl p-4 ring-1 ring-inset sm:p-5',
        clean ? 'bg-emerald-50 text-emerald-900 ring-emerald-200' : 'bg-rose-50 text-rose-900 ring-rose-200',
      )}
    >
      <Icon name={clean ? 'checkCircle' : 'alert'} className="mt-0.5 h-6 w-6 shrink-0" />
      <div className="min-w-0">
        <h2 className="text-lg font-semibold">{clean ? 'Books are clean' : `${count} ${count === 1 ? 'finding' : 'findings'}`}</h2>
        <p className="text-sm">
          Checked {formatDateTime(report.checkedAt)} (<TimeAgo at={report.checkedAt} />)
        </p>
        <p className="text-sm">
          {report.since
            ? `Wallets, ledger rows and payments written since ${formatDateTime(report.since)}; commissions and reversals all.`
            : 'Every wallet, ledger row, payment, commission and reversal.'}
        </p>
      </div>
    </section>
  );
}

function ProviderChecks({ checks }: { checks: ReconciliationReport['providerChecks'] }) {
  const { checked, disagreements, errors } = checks;
  const hint = (
    <>
      {disagreements} {disagreements === 1 ? 'disagreement' : 'disagreements'} · {errors} {errors === 1 ? 'error' : 'errors'}
      {errors > 0 ? <span className="block">A provider that did not answer is asked again on the next run.</span> : null}
    </>
  );
  return (
    <StatCard
      icon="shieldCheck"
      label="Recent payments re-verified with their provider"
      value={String(checked)}
      tone={disagreements ? 'rose' : errors ? 'amber' : 'emerald'}
      hint={hint}
    />
  );
}

function UnbackedFindings({ report }: { report: ReconciliationReport }) {
  const { findings } = report.unbacked;
  if (findings.length === 0) return null;
  const disagreeing = findings.some((f) => f.cause === 'reversal_state');
  return (
    <section aria-label="Credit with nothing behind it" className="space-y-3">
      <h2 className="font-semibold text-slate-900">Credit with nothing behind it</h2>
      <ResponsiveTable columns={COLUMNS} rows={findings} rowKey={(f) => `${f.cause}|${f.userId}|${f.reference}`} caption="Credit with nothing behind it" />
      {disagreeing ? (
        <p className="text-xs text-slate-500">
          For “{CAUSES.reversal_state.label}” the amount is how far the records disagree; it is not part of the total above.
        </p>
      ) : null}
    </section>
  );
}
