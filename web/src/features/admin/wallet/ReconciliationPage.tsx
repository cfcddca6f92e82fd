// /admin/reconciliation: the books checked on demand (when the screen opens and on "Run again"): a
// verdict, when it ran and over what, the providers asked again about recent payments, the credit with
// nothing behind it (by user, cause and payment), and the ledger's own checks, each summarised when it
// found something. It opens on what was written since the last clean hourly run (seconds at any size);
// "Check everything" reads every row.
import { useState } from 'react';

import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { CellText, type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Skeleton } from '@/components/Skeleton';
import { StatCard } from '@/components/StatCard';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { ManageUserLink } from '@/features/admin/users/ManageUserLink';
import { getErrorMessage } from '@/lib/api';
import { formatAmount, formatDateTime } from '@/lib/format';
import { cx } from '@/lib/hooks';
import { type ReconciliationReport, type ReconciliationScope, type UnbackedFinding, useReconciliation } from './api/get-reconciliation';
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

export default function ReconciliationPage() {
  const [scope, setScope] = useState<ReconciliationScope>('recent');
  const run = useReconciliation(scope);
  const report = run.data;
  const running = run.isFetching;
  return (
    <div className="space-y-5">
      <PageHeader
        title="Reconciliation"
        description="Checks wallets against their ledger, and payments and referral commissions against what the payment providers say the shop kept. Opens on what changed since the last clean hourly check; checking everything takes longer on a large shop."
        actions={
          <>
            {report?.scope === 'recent' ? (
              <button type="button" className="btn btn-secondary" onClick={() => setScope('full')} disabled={running}>
                <Icon name="shieldCheck" className="h-4 w-4" /> Check everything
              </button>
            ) : null}
            <button type="button" className="btn btn-secondary" onClick={() => void run.refetch()} disabled={running}>
              <Icon name="refresh" className={cx('h-4 w-4', running && 'animate-spin')} /> {running ? 'Checking…' : 'Run again'}
            </button>
          </>
        }
      />
      {run.isError && !running ? (
        <ErrorState message={getErrorMessage(run.error)} onRetry={() => void run.refetch()} />
      ) : !report ? (
        <div role="status" aria-label="Checking the books" className="space-y-3">
          <Skeleton className="h-20 w-full" />
          <div className="grid gap-3 sm:grid-cols-2">
            <Skeleton className="h-20 w-full" />
            <Skeleton className="h-20 w-full" />
          </div>
        </div>
      ) : (
        <div className={cx('space-y-5 transition-opacity', running && 'opacity-60')} aria-busy={running}>
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
