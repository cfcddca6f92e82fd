// Imports services from a provider: pick the provider, search its live catalogue (thousands of
// rows, virtualised), tick the services to sell, optionally give them a markup, import.

import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import { ErrorState } from '@/components/EmptyState';
import { SelectField, TextField, useTextFieldState } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Modal } from '@/components/Modal';
import { SearchInput } from '@/components/SearchInput';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { formatAmount } from '@/lib/format';
import { useDebouncedValue } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { useProviderCatalogue } from './api/get-provider-catalogue';
import { useProviders } from './api/get-providers';
import { importFromProvider } from './api/import-from-provider';
import { markupProblem } from './pricing';

export function ProviderImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  return (
    <Modal
      open={open}
      onClose={onClose}
      busy={busy}
      size="lg"
      title="Import from a provider"
      description="Pick the provider's services to sell. Ones already imported keep their settings."
    >
      <ImportForm onClose={onClose} busy={busy} setBusy={setBusy} />
    </Modal>
  );
}

function ImportForm({ onClose, busy, setBusy }: { onClose: () => void; busy: boolean; setBusy: (busy: boolean) => void }) {
  const currency = useCurrency();
  const refresh = useRefreshAdmin();
  const providers = useProviders();
  const [providerId, setProviderId] = useState<number | null>(null);
  const chosen = providerId ?? providers.data?.[0]?.id ?? null;
  const catalogue = useProviderCatalogue(chosen);
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const markup = useTextFieldState();
  const term = useDebouncedValue(search.trim().toLowerCase(), 200);

  const rows = useMemo(
    () =>
      (catalogue.data?.data ?? []).filter((s) => !term || s.name.toLowerCase().includes(term) || s.category.toLowerCase().includes(term) || s.service === term),
    [catalogue.data, term],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => 60, overscan: 10 });

  const toggle = (id: string) =>
    setPicked((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allShownPicked = rows.length > 0 && rows.every((r) => picked.has(r.service));
  const toggleShown = () =>
    setPicked((current) => {
      const next = new Set(current);
      for (const r of rows) {
        if (allShownPicked) next.delete(r.service);
        else next.add(r.service);
      }
      return next;
    });

  const submit = async () => {
    const problem = markupProblem(markup.value, { allowBlank: true });
    if (problem) {
      markup.setError(problem);
      return;
    }
    if (chosen === null || picked.size === 0) return;
    setBusy(true);
    try {
      const res = await importFromProvider(chosen, { serviceIds: [...picked], markupPercent: markup.value.trim() || undefined });
      const failed = res.results.filter((r) => !r.ok).length;
      toast.success(`${res.created} new, ${res.results.length - res.created - failed} updated${failed ? `, ${failed} not found` : ''}`);
      void refresh();
      onClose();
    } catch (error) {
      handleApiError(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <SelectField
          label="Provider"
          value={chosen ?? ''}
          onChange={(e) => {
            setProviderId(Number(e.target.value));
            setPicked(new Set());
          }}
        >
          {(providers.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </SelectField>
        <TextField label="Markup (%) for these services" inputMode="decimal" placeholder="The category's or global markup" {...markup.props} />
      </div>
      <SearchInput label="Search the provider's services" placeholder="Name, category or service id" value={search} onChange={setSearch} />
      {providers.data?.length === 0 ? (
        <p className="py-6 text-center text-sm text-slate-500">Add a provider first (Providers tab).</p>
      ) : catalogue.isError ? (
        <ErrorState message={getErrorMessage(catalogue.error)} onRetry={() => void catalogue.refetch()} />
      ) : catalogue.isPending ? (
        <SkeletonRows rows={5} className="h-12" />
      ) : (
        <>
          <div className="flex items-center justify-between gap-3 text-sm">
            <label className="flex items-center gap-2">
              <input type="checkbox" className="h-4 w-4 rounded border-slate-300" checked={allShownPicked} onChange={toggleShown} />
              Select all {rows.length} shown
            </label>
            <span className="text-slate-600">{picked.size} picked</span>
          </div>
          <fieldset className="min-w-0">
            <legend className="sr-only">Provider services</legend>
            <div ref={scrollRef} className="h-80 overflow-y-auto rounded-xl border border-slate-200">
              <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
                {virtualizer.getVirtualItems().map((item) => {
                  const s = rows[item.index];
                  return (
                    <label
                      key={s.service}
                      className="absolute inset-x-0 flex cursor-pointer items-center gap-3 border-b border-slate-100 px-3 hover:bg-slate-50"
                      style={{ top: item.start, height: item.size }}
                    >
                      <input
                        type="checkbox"
                        className="h-4 w-4 shrink-0 rounded border-slate-300"
                        checked={picked.has(s.service)}
                        onChange={() => toggle(s.service)}
                        aria-label={`${s.service} ${s.name}`}
                      />
                      <span className="min-w-0 flex-1">
                        <span className="block truncate text-sm font-medium text-slate-900">
                          <span className="text-slate-500">{s.service}</span> {s.name}
                        </span>
                        <span className="block truncate text-xs text-slate-500">
                          {s.category} · {s.type} · {s.min}–{s.max}
                        </span>
                      </span>
                      <span className="shrink-0 text-right text-xs">
                        <span className="block font-medium text-slate-900 tabular-nums">{formatAmount(s.cost, currency)}</span>
                        {s.importedServiceId ? <Badge tone="violet">Imported</Badge> : null}
                      </span>
                    </label>
                  );
                })}
              </div>
            </div>
          </fieldset>
          {catalogue.data.unreadable ? (
            <p className="text-xs text-amber-700">{catalogue.data.unreadable} of the provider&apos;s services could not be read and are not listed.</p>
          ) : null}
        </>
      )}
      <FormActions
        onCancel={onClose}
        onConfirm={() => void submit()}
        busy={busy}
        disabled={picked.size === 0}
        label={`Import ${picked.size || ''} service${picked.size === 1 ? '' : 's'}`}
        busyLabel="Importing..."
      />
    </div>
  );
}
