// Prices held back for an administrator: exchange rates the feed moved further than the band
// (the old rate stays until one is accepted) and provider prices the catalogue sync did not believe
// (0, unreadable, or too far from the last: the service is off with its old price). Accepting
// reprices at once; every decision sends the value shown, so one that changed meanwhile is refused.

import { useState } from 'react';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PagedTable } from '@/components/PagedTable';
import { type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';
import { useAdminChange } from '@/features/admin/useAdminChange';
import { getErrorMessage } from '@/lib/api';
import { confirmAction } from '@/lib/confirm';
import { formatDateTime, formatDecimalString, timeAgo } from '@/lib/format';
import { acceptProviderPrice } from './api/accept-provider-price';
import { decideExchangeRate } from './api/decide-exchange-rate';
import { type ExchangeRateReview, useExchangeRates } from './api/get-exchange-rates';
import { type HeldProviderPrice, useHeldProviderPrices } from './api/get-held-prices';
import { refreshExchangeRates } from './api/refresh-exchange-rates';

/** "2325.375000" -> "2325.375": rates travel with all 6 decimals. */
const short = (decimal: string) => (decimal.includes('.') ? decimal.replace(/0+$/, '').replace(/\.$/, '') : decimal);

export function ExchangeRatesReview() {
  const rates = useExchangeRates();
  const fetchNow = useAdminChange(refreshExchangeRates, 'Exchange rates refreshed');
  const decide = useAdminChange(
    ({ rate, decision }: { rate: ExchangeRateReview; decision: 'accept' | 'reject' }) => decideExchangeRate(rate.currency, decision, rate.proposedRate!),
    'Done',
  );
  const onDecide = async (rate: ExchangeRateReview, decision: 'accept' | 'reject') => {
    const move = `${rate.currency} ${short(rate.rate)} → ${short(rate.proposedRate!)} per USD (${rate.changePercent}%)`;
    const ok = await confirmAction(
      decision === 'accept'
        ? { title: `Accept the new ${rate.currency} rate?`, text: `${move}. Every service priced through it is repriced at once.`, confirmText: 'Yes, accept' }
        : {
            title: `Reject the new ${rate.currency} rate?`,
            text: `${move}. The current rate stays; the feed repeating this rate is not shown again.`,
            confirmText: 'Yes, reject',
            danger: true,
          },
    );
    if (ok) decide.mutate({ rate, decision });
  };

  const held = rates.data?.rates.filter((rate) => rate.proposedRate !== null) ?? [];
  const columns: Column<ExchangeRateReview>[] = [
    { key: 'currency', header: 'Currency', mobile: 'title', cell: (r) => <span className="font-medium text-slate-900">{r.currency}</span> },
    { key: 'rate', header: 'Per USD', cell: (r) => short(r.rate) },
    {
      key: 'proposed',
      header: 'Proposed',
      cell: (r) =>
        r.proposedRate === null ? (
          <span className="text-slate-500">—</span>
        ) : (
          <span className="flex flex-wrap items-center gap-2">
            {short(r.proposedRate)} <Badge tone="amber">{r.changePercent}%</Badge>
          </span>
        ),
    },
    {
      key: 'updated',
      header: 'Updated',
      cell: (r) => (
        <time dateTime={r.updatedAt} title={formatDateTime(r.updatedAt)}>
          {timeAgo(r.updatedAt)}
        </time>
      ),
    },
    {
      key: 'actions',
      header: 'Review',
      className: 'text-right',
      cell: (r) =>
        r.proposedRate === null ? null : (
          <span className="flex justify-end gap-2">
            <button type="button" className="btn-sm btn-primary" disabled={decide.isPending} onClick={() => void onDecide(r, 'accept')}>
              Accept
            </button>
            <button type="button" className="btn-sm btn-secondary" disabled={decide.isPending} onClick={() => void onDecide(r, 'reject')}>
              Reject
            </button>
          </span>
        ),
    },
  ];

  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="exchange-rates-title">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="exchange-rates-title" className="font-semibold text-slate-900">
            Exchange rates
          </h2>
          <p className="text-sm text-slate-600">
            Providers price in their own currency; costs in naira use these rates, refreshed automatically. A new rate more than
            {rates.data ? ` ±${rates.data.bandPercent}%` : ' the band'} away from the current one waits here for you.
          </p>
        </div>
        <button type="button" className="btn btn-secondary" onClick={() => fetchNow.mutate()} disabled={fetchNow.isPending}>
          <Icon name="refresh" className="h-4 w-4" /> Refresh now
        </button>
      </div>
      {held.length > 0 ? (
        <p role="alert" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {held.length === 1 ? '1 new rate waits' : `${held.length} new rates wait`} for review; prices use the current rates until you accept.
        </p>
      ) : null}
      {rates.isError && !rates.data ? (
        <ErrorState message={getErrorMessage(rates.error)} onRetry={() => void rates.refetch()} />
      ) : (
        <ResponsiveTable
          caption="Exchange rates"
          columns={columns}
          rows={rates.data?.rates}
          rowKey={(r) => r.currency}
          loading={rates.isPending}
          skeletonRows={2}
          empty={
            <EmptyState icon="refresh" title="No rates yet">
              Refresh to fetch them.
            </EmptyState>
          }
        />
      )}
    </section>
  );
}

const LIMIT = 20;

export function HeldProviderPrices() {
  const [page, setPage] = useState(1);
  const held = useHeldProviderPrices({ page: String(page), limit: String(LIMIT) });
  const accept = useAdminChange((entry: HeldProviderPrice) => acceptProviderPrice(entry.serviceId, entry.proposedProviderRate!), 'Provider price accepted');
  const onAccept = async (entry: HeldProviderPrice) => {
    const ok = await confirmAction({
      title: `Accept the provider's new price for ${entry.name}?`,
      text: `${short(entry.providerRate)} → ${short(entry.proposedProviderRate!)} ${entry.currency} per 1000. Cost ${formatDecimalString(entry.cost)} → ${formatDecimalString(entry.newCost ?? '0')}, price ${formatDecimalString(entry.rate)} → ${formatDecimalString(entry.newRate ?? '0')}${entry.disabledReason === 'provider_price' ? '; the service is switched back on' : ''}.`,
      confirmText: 'Yes, accept',
    });
    if (ok) accept.mutate(entry);
  };

  const columns: Column<HeldProviderPrice>[] = [
    { key: 'name', header: 'Service', mobile: 'title', cell: (e) => <span className="font-medium text-slate-900">{`#${e.serviceId} ${e.name}`}</span> },
    { key: 'provider', header: 'Provider', cell: (e) => e.providerName },
    {
      key: 'providerRate',
      header: 'Provider price / 1000',
      cell: (e) => (
        <span className="flex flex-wrap items-center gap-2">
          {short(e.providerRate)} →{' '}
          {e.proposedProviderRate === null ? (
            <Badge tone="red">no readable price</Badge>
          ) : (
            <>
              {short(e.proposedProviderRate)} {e.currency}
            </>
          )}
          {e.changePercent ? <Badge tone="amber">{e.changePercent}%</Badge> : null}
        </span>
      ),
    },
    {
      key: 'price',
      header: 'Our price',
      cell: (e) => (e.newRate === null ? formatDecimalString(e.rate) : `${formatDecimalString(e.rate)} → ${formatDecimalString(e.newRate)}`),
    },
    {
      key: 'actions',
      header: 'Review',
      className: 'text-right',
      cell: (e) =>
        e.proposedProviderRate === null ? (
          <span className="text-xs text-slate-500">Waits for the provider</span>
        ) : (
          <button type="button" className="btn-sm btn-primary" disabled={accept.isPending} onClick={() => void onAccept(e)}>
            Accept
          </button>
        ),
    },
  ];

  return (
    <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="held-prices-title">
      <div>
        <h2 id="held-prices-title" className="font-semibold text-slate-900">
          Provider prices held for review
        </h2>
        <p className="text-sm text-slate-600">
          A provider price of 0, one that cannot be read, or one far from the last switches the service off with its old price. Accept the new price to reprice
          it and switch it back on, or leave it off.
        </p>
      </div>
      <PagedTable
        query={held}
        caption="Provider prices held for review"
        columns={columns}
        rowKey={(e) => e.serviceId}
        paging={{ page, setPage }}
        skeletonRows={2}
        empty={<EmptyState icon="checkCircle" title="No provider price is held" />}
      />
    </section>
  );
}
