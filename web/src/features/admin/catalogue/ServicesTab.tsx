// The services for sale: filters, on/off per service, selection with bulk actions (switch on,
// switch off, markup), editing, and the two imports (from a provider, from a CSV file).

import { useMutation } from '@tanstack/react-query';
import type { DisabledReason } from '@vocabulary';
import { useState } from 'react';
import { FilterBar } from '@/components/FilterBar';
import { FilterSelect } from '@/components/FilterSelect';
import { Icon } from '@/components/Icon';
import { type EmptyListWords, ListEmptyState } from '@/components/ListEmptyState';
import { PagedTable } from '@/components/PagedTable';
import { CellText, type Column } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { Badge } from '@/components/StatusBadge';
import { Switch } from '@/components/Switch';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { handleApiError } from '@/lib/api';
import { confirmAction } from '@/lib/confirm';
import { formatAmount, formatCount } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { type BulkServiceChange, bulkUpdateServices } from './api/bulk-update-services';
import { useAdminCategories } from './api/get-categories';
import { useProviders } from './api/get-providers';
import { type AdminService, useAdminServices } from './api/get-services';
import { updateService } from './api/update-service';
import { CsvImportDialog } from './CsvImportDialog';
import { MarkupDialog } from './MarkupDialog';
import { ProviderImportDialog } from './ProviderImportDialog';
import { ServiceEditDialog } from './ServiceEditDialog';

const LIMIT = 50;

const OFF_REASONS: Record<DisabledReason, string> = {
  admin: 'Switched off',
  margin: 'Off: price under the margin floor',
  provider_missing: 'Off: gone from the provider',
  provider_price: 'Off: provider price held for review',
  held_below_cost: 'Off: under cost at a rate held for review',
};
const SALE_CHOICES = [
  { value: 'true', label: 'On sale' },
  { value: 'false', label: 'Switched off' },
];
const EMPTY_WORDS: EmptyListWords = {
  none: { title: 'No services yet', text: 'Import services from a provider to start selling.' },
  noMatch: { title: 'No services match', text: 'Try another search or filter.' },
};

export function ServicesTab() {
  const currency = useCurrency();
  const refresh = useRefreshAdmin();
  const filters = useUrlFilters(['tab']);
  const [search, setSearch] = useUrlSearch(filters);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [editing, setEditing] = useState<AdminService | null>(null);
  const [dialog, setDialog] = useState<'markup' | 'provider-import' | 'csv-import' | null>(null);
  const providerChoices = (useProviders().data ?? []).map((p) => ({ value: p.id, label: p.name }));
  const categoryChoices = (useAdminCategories().data ?? []).map((c) => ({ value: c.id, label: c.name }));
  const enabledText = filters.get('enabled');
  const q = useAdminServices({
    page: String(filters.page),
    limit: String(LIMIT),
    search: filters.get('search') || undefined,
    category: filters.get('category') || undefined,
    providerId: /^\d+$/.test(filters.get('providerId')) ? filters.get('providerId') : undefined,
    enabled: enabledText === 'true' ? true : enabledText === 'false' ? false : undefined,
  });
  const rows = q.data?.data ?? [];
  const empty = (
    <ListEmptyState icon="grid" filtered={filters.active} {...EMPTY_WORDS}>
      <button type="button" className="btn btn-primary" onClick={() => setDialog('provider-import')}>
        Import from a provider
      </button>
    </ListEmptyState>
  );

  const toggleOne = useMutation({
    mutationFn: ({ service, enabled }: { service: AdminService; enabled: boolean }) => updateService(service.id, { enabled }),
    onSuccess: (_res, { service, enabled }) => {
      toast.success(`${service.name} is ${enabled ? 'on sale' : 'switched off'}`);
      refresh();
    },
    onError: (error) => handleApiError(error),
  });

  const bulk = useMutation({
    mutationFn: (change: Omit<BulkServiceChange, 'ids'>) => bulkUpdateServices({ ids: [...selected], ...change }),
    onSuccess: (res) => {
      toast.success(res.message || `${res.updated} services updated`);
      if (res.skipped.length) toast.warning(`${res.skipped.length} stayed off: their fixed price is under the margin floor. Raise it first.`);
      setSelected(new Set());
      setDialog(null);
      refresh();
    },
    onError: (error) => handleApiError(error),
  });

  const onBulkDisable = async () => {
    if (
      await confirmAction({
        title: `Switch off ${selected.size} services?`,
        text: 'Users can no longer order them. Open orders are not affected.',
        confirmText: 'Yes, switch off',
        cancelText: 'No',
        danger: true,
      })
    ) {
      bulk.mutate({ action: 'disable' });
    }
  };

  const pageIds = rows.map((s) => s.id);
  const allPicked = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const flip = (ids: number[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  const columns: Column<AdminService>[] = [
    {
      key: 'pick',
      header: 'Select',
      headerHidden: true,
      cell: (s) => (
        <input
          type="checkbox"
          className="h-4 w-4 rounded border-slate-300"
          checked={selected.has(s.id)}
          onChange={(e) => flip([s.id], e.target.checked)}
          aria-label={`Select ${s.name}`}
        />
      ),
    },
    {
      key: 'service',
      header: 'Service',
      mobile: 'title',
      cell: (s) => (
        <div className="max-w-[18rem] min-w-0">
          <p className="line-clamp-2 font-medium break-words text-slate-900" title={s.name}>
            <span className="text-slate-500">#{s.id}</span> {s.name}
          </p>
          <CellText text={`${s.category} · ${s.type}`} className="max-w-full text-xs text-slate-500" />
        </div>
      ),
    },
    {
      key: 'provider',
      header: 'Provider',
      hideBelow: '6xl',
      cell: (s) => (
        <CellText text={`${s.providerName} #${s.providerServiceId}`} className="max-w-[10rem]">
          {s.providerName} <span className="text-slate-500">#{s.providerServiceId}</span>
        </CellText>
      ),
    },
    {
      key: 'cost',
      header: 'Cost',
      className: 'md:text-right',
      cell: (s) => <span className="whitespace-nowrap tabular-nums">{formatAmount(s.cost, currency)}</span>,
    },
    {
      key: 'price',
      header: 'Price',
      className: 'md:text-right',
      cell: (s) => (
        <span className="tabular-nums">
          <span className="font-semibold whitespace-nowrap text-slate-900">{formatAmount(s.rate, currency)}</span>
          <span className="block text-xs text-slate-500">
            {s.priceMode === 'fixed' ? 'Fixed' : `${s.effectiveMarkupPercent}% markup${s.markupPercent === null ? ' (inherited)' : ''}`}
          </span>
        </span>
      ),
    },
    {
      key: 'margin',
      header: 'Margin',
      className: 'md:text-right',
      cell: (s) => <span className="tabular-nums">{s.marginPercent === null ? '—' : `${s.marginPercent}%`}</span>,
    },
    {
      key: 'range',
      header: 'Min – Max',
      hideBelow: '6xl',
      cell: (s) => (
        <span className="whitespace-nowrap tabular-nums">
          {formatCount(s.min)} – {formatCount(s.max)}
        </span>
      ),
    },
    {
      key: 'status',
      header: 'On sale',
      cell: (s) => (
        <span className="inline-flex items-center gap-2">
          <Switch
            checked={s.enabled}
            label={`${s.name} on sale`}
            disabled={toggleOne.isPending && toggleOne.variables?.service.id === s.id}
            onChange={(enabled) => toggleOne.mutate({ service: s, enabled })}
          />
          {!s.enabled && s.disabledReason ? (
            <Badge tone={s.disabledReason === 'admin' ? 'slate' : 'red'} className="max-w-[9rem] whitespace-normal!">
              {OFF_REASONS[s.disabledReason]}
            </Badge>
          ) : null}
        </span>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'md:text-right',
      cell: (s) => (
        <button type="button" className="btn-sm btn-secondary" onClick={() => setEditing(s)} aria-label={`Edit ${s.name}`}>
          <Icon name="pencil" className="h-3.5 w-3.5" /> Edit
        </button>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className="btn btn-secondary" onClick={() => setDialog('csv-import')}>
          <Icon name="upload" className="h-4 w-4" /> Import CSV
        </button>
        <button type="button" className="btn btn-primary" onClick={() => setDialog('provider-import')}>
          <Icon name="plus" className="h-4 w-4" /> Import from provider
        </button>
      </div>
      <FilterBar filters={filters} className="grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto]">
        <SearchInput className="col-span-2 lg:col-span-1" label="Search services" placeholder="Name or service ID" value={search} onChange={setSearch} />
        <FilterSelect filters={filters} name="category" label="Category" allLabel="All categories" choices={categoryChoices} />
        <FilterSelect filters={filters} name="providerId" label="Provider" allLabel="All providers" choices={providerChoices} />
        <FilterSelect filters={filters} name="enabled" label="On sale" allLabel="On sale or off" choices={SALE_CHOICES} />
      </FilterBar>

      <div className="flex flex-wrap items-center gap-2 rounded-xl bg-slate-100 px-3 py-2 text-sm" aria-live="polite">
        <label className="mr-auto flex items-center gap-2">
          <input
            type="checkbox"
            className="h-4 w-4 rounded border-slate-300"
            checked={allPicked}
            onChange={(e) => flip(pageIds, e.target.checked)}
            disabled={pageIds.length === 0}
          />
          {selected.size ? `${selected.size} selected` : 'Select this page'}
        </label>
        <button type="button" className="btn-sm btn-secondary" disabled={!selected.size || bulk.isPending} onClick={() => bulk.mutate({ action: 'enable' })}>
          Switch on
        </button>
        <button type="button" className="btn-sm btn-secondary" disabled={!selected.size || bulk.isPending} onClick={() => void onBulkDisable()}>
          Switch off
        </button>
        <button type="button" className="btn-sm btn-secondary" disabled={!selected.size || bulk.isPending} onClick={() => setDialog('markup')}>
          Set markup
        </button>
      </div>

      <PagedTable query={q} caption="Services" columns={columns} paging={filters} empty={empty} />

      <ServiceEditDialog service={editing} onClose={() => setEditing(null)} />
      <MarkupDialog
        open={dialog === 'markup'}
        title={`Markup for ${selected.size} services`}
        description="Their prices follow the provider's cost with this markup."
        inheritLabel="the category's or the global markup"
        busy={bulk.isPending}
        onClose={() => setDialog(null)}
        onSubmit={(markupPercent) => bulk.mutate({ action: 'markup', markupPercent })}
      />
      <ProviderImportDialog open={dialog === 'provider-import'} onClose={() => setDialog(null)} />
      <CsvImportDialog open={dialog === 'csv-import'} onClose={() => setDialog(null)} />
    </div>
  );
}
