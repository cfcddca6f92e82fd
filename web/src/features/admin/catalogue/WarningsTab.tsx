// What the catalogue sync and the margin guard want an administrator to know: prices raised or
// services switched off to keep the margin, services gone from a provider, low provider
// balances, exchange rates and provider prices held for review, orders whose submission is
// unknown, providers whose answers cannot be read, orders the provider answered something unclear
// about, card payments refunded or charged back. Reading one marks it as read.

import { useMutation } from '@tanstack/react-query';
import type { WarningKind } from '@vocabulary';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Pagination } from '@/components/Pagination';
import { SegmentedControl } from '@/components/SegmentedControl';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { formatDateTime, timeAgo } from '@/lib/format';
import { acknowledgeWarning } from './api/acknowledge-warning';
import { useCatalogueWarnings } from './api/get-warnings';

const LIMIT = 20;
const KINDS: Record<WarningKind, { label: string; tone: 'amber' | 'red' | 'slate' }> = {
  margin_repriced: { label: 'Price raised', tone: 'amber' },
  margin_disabled: { label: 'Switched off (margin)', tone: 'red' },
  service_missing: { label: 'Gone from provider', tone: 'red' },
  provider_low_balance: { label: 'Low provider balance', tone: 'red' },
  submission_unknown: { label: 'Order needs checking', tone: 'red' },
  provider_unhealthy: { label: 'Provider not answering', tone: 'red' },
  order_unclear_answer: { label: 'Unclear provider answer', tone: 'amber' },
  order_needs_attention: { label: 'Order needs attention', tone: 'red' },
  rate_proposed: { label: 'Exchange rate held', tone: 'amber' },
  provider_price_suspect: { label: 'Provider price held', tone: 'red' },
  payment_reversed: { label: 'Card payment reversed', tone: 'red' },
  referral_blocked: { label: 'Referral commission refused', tone: 'amber' },
  reconciliation: { label: 'Books not clean', tone: 'red' },
  transfer_unclaimed: { label: 'Bank transfer not credited', tone: 'red' },
};
/** Warnings about a price held back are answered on the Pricing tab. */
const REVIEWED_ON_PRICING: ReadonlyArray<WarningKind> = ['rate_proposed', 'provider_price_suspect'];

export function WarningsTab() {
  const refresh = useRefreshAdmin();
  const [show, setShow] = useState<'unread' | 'read'>('unread');
  const [page, setPage] = useState(1);
  const warnings = useCatalogueWarnings({ page: String(page), limit: String(LIMIT), acknowledged: show === 'read' });
  const read = useMutation({
    mutationFn: acknowledgeWarning,
    onSuccess: () => {
      void refresh();
    },
    onError: (error) => handleApiError(error),
  });

  return (
    <div className="space-y-4">
      <SegmentedControl
        label="Show"
        hideLabel
        options={[
          { value: 'unread', label: 'Unread' },
          { value: 'read', label: 'Read' },
        ]}
        value={show}
        onChange={(v) => {
          setShow(v);
          setPage(1);
        }}
      />
      {warnings.isError && !warnings.data ? (
        <ErrorState message={getErrorMessage(warnings.error)} onRetry={() => void warnings.refetch()} />
      ) : warnings.isPending ? (
        <SkeletonRows rows={4} className="h-16" />
      ) : warnings.data.data.length === 0 ? (
        <EmptyState icon="checkCircle" title={show === 'unread' ? 'Nothing needs your attention' : 'No read warnings'} />
      ) : (
        <ul className="space-y-2">
          {warnings.data.data.map((w) => (
            <li key={w.id} className="card flex flex-col gap-2 p-4 sm:flex-row sm:items-center">
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                  <Badge tone={KINDS[w.kind].tone}>{KINDS[w.kind].label}</Badge>
                  <time dateTime={w.created_at} title={formatDateTime(w.created_at)}>
                    {timeAgo(w.created_at)}
                  </time>
                </p>
                <p className="mt-1 text-sm text-slate-800">{w.message}</p>
                {REVIEWED_ON_PRICING.includes(w.kind) ? (
                  <Link to="/admin/services?tab=pricing" className="link mr-3 text-sm">
                    Review on the Pricing tab
                  </Link>
                ) : null}
                {w.orderId ? (
                  <Link to={`/admin/orders?search=${w.orderId}`} className="link text-sm">
                    Open order #{w.orderId}
                  </Link>
                ) : w.serviceId ? (
                  <Link to={`/admin/services?tab=services&search=${w.serviceId}`} className="link text-sm">
                    Open service #{w.serviceId}
                  </Link>
                ) : null}
              </div>
              {w.acknowledged_at ? null : (
                <button
                  type="button"
                  className="btn-sm btn-secondary shrink-0"
                  disabled={read.isPending && read.variables === w.id}
                  onClick={() => read.mutate(w.id)}
                >
                  Mark as read
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} limit={LIMIT} total={warnings.data?.total ?? 0} onPage={setPage} disabled={warnings.isFetching} />
    </div>
  );
}
