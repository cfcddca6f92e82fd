// /user/referrals: the user's link to share, the commission it pays (the rule in words: rate, hold, cap),
// what it earned (spendable) and what is still held (pending), and who signed up through it (by display name).
import { CopyButton } from '@/components/CopyButton';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { PageHeader } from '@/components/PageHeader';
import { type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Skeleton } from '@/components/Skeleton';
import { StatCard } from '@/components/StatCard';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage } from '@/lib/api';
import { formatAmount } from '@/lib/format';
import { type ReferralSummary, useReferralSummary } from './api/get-referral-summary';

type Referred = ReferralSummary['referred'][number];

const COLUMNS: ReadonlyArray<Column<Referred>> = [
  {
    key: 'user',
    header: 'User',
    mobile: 'title',
    cell: (r) =>
      r.voided ? (
        <>
          {r.displayName} <Badge>No longer earning</Badge>
        </>
      ) : (
        r.displayName
      ),
  },
  { key: 'joined', header: 'Joined', cell: (r) => <TimeAgo at={r.joinedAt} /> },
  { key: 'deposits', header: 'Deposits credited', cell: (r) => r.deposits },
  {
    key: 'earned',
    header: 'You earned',
    className: 'text-right',
    cell: (r) => (
      <>
        {formatAmount(r.earned)}
        {Number(r.pending) ? <span className="block text-xs text-amber-700">+ {formatAmount(r.pending)} pending</span> : null}
      </>
    ),
  },
];

/** The rule in words: the rate, how long a commission is held, and the cap per friend when there is one. */
function ruleText(data: ReferralSummary): string {
  const rate = `You earn ${Number(data.ratePercent)}% of every deposit a friend makes.`;
  const hold =
    data.holdDays > 0
      ? `Each commission is held ${data.holdDays} ${data.holdDays === 1 ? 'day' : 'days'} before you can spend it; if the deposit is refunded or disputed, the commission is taken back.`
      : 'Each commission can be spent at once; if the deposit is later refunded or disputed, the commission is taken back.';
  const cap = data.capPerReferred ? ` One friend can earn you at most ${formatAmount(data.capPerReferred)} in all.` : '';
  return `${rate} ${hold}${cap}`;
}

export default function ReferralsPage() {
  const summary = useReferralSummary();
  const data = summary.data;
  return (
    <div className="space-y-5">
      <PageHeader
        title="Referrals"
        description={
          data
            ? `Invite friends with your link and earn ${Number(data.ratePercent)}% of every deposit they make, added to your wallet.`
            : 'Invite friends and earn from their deposits.'
        }
      />
      {summary.isError ? (
        <ErrorState message={getErrorMessage(summary.error)} onRetry={() => void summary.refetch()} />
      ) : (
        <>
          {data && !data.enabled ? (
            <p role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
              Referral commissions are paused for now. Sign-ups through your link are still counted.
            </p>
          ) : null}
          <section className="card space-y-3 p-4 sm:p-5" aria-label="Your referral link">
            <h2 className="font-semibold text-slate-900">Your referral link</h2>
            {data ? (
              <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                <code className="min-w-0 flex-1 rounded-lg bg-slate-50 px-3 py-2 text-sm break-all text-slate-800">{data.link}</code>
                <CopyButton text={data.link} label="Copy referral link" className="btn btn-secondary" />
              </div>
            ) : (
              <Skeleton className="h-10 w-full" />
            )}
          </section>
          <section className="card space-y-1 p-4 text-sm text-slate-700 sm:p-5" aria-label="How you earn">
            <h2 className="font-semibold text-slate-900">How you earn</h2>
            {data ? <p>{ruleText(data)}</p> : <Skeleton className="h-10 w-full" />}
          </section>
          <div className="grid gap-3 sm:grid-cols-3">
            <StatCard icon="users" label="Sign-ups" value={String(data?.signUps ?? 0)} loading={summary.isPending} />
            <StatCard icon="wallet" label="Deposits credited" value={String(data?.depositsCredited ?? 0)} loading={summary.isPending} tone="emerald" />
            <StatCard
              icon="chart"
              label="Earnings"
              value={formatAmount(data?.earnings ?? '0')}
              loading={summary.isPending}
              tone="amber"
              hint={data && Number(data.pending) ? `${formatAmount(data.pending)} pending, spendable after the hold` : undefined}
            />
          </div>
          <section aria-label="People you referred" className="space-y-3">
            <h2 className="font-semibold text-slate-900">People you referred</h2>
            <ResponsiveTable
              columns={COLUMNS}
              rows={data?.referred}
              rowKey={(r) => `${r.displayName}|${r.joinedAt}`}
              loading={summary.isPending}
              caption="People you referred"
              empty={
                <EmptyState icon="users" title="No sign-ups yet">
                  Share your link: when a friend signs up through it, they show here.
                </EmptyState>
              }
            />
          </section>
        </>
      )}
    </div>
  );
}
