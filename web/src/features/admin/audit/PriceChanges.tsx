// The services a repricing moved, under its audit entry: each one's price, cost and availability
// before and after. A listed entry carries the first 50; "Show all" reads the entry in full.

import type { PriceChange } from '@schemas/catalogue';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { handleApiError } from '@/lib/api';
import { getAuditEntry } from './api/get-audit-entry';
import type { AuditEntry } from './api/get-audit-log';
import { detailsOf, naira } from './auditText';

/** The entry's price changes, or null when it records none. */
export function priceChangesOf(entry: AuditEntry): PriceChange[] | null {
  const changes = detailsOf(entry).changes;
  return Array.isArray(changes) ? (changes as PriceChange[]) : null;
}

function describe(change: PriceChange): string {
  const parts = [];
  if (change.before.rate !== change.after.rate) parts.push(`price ${naira(change.before.rate)} → ${naira(change.after.rate)}`);
  if (change.before.cost !== change.after.cost) parts.push(`cost ${naira(change.before.cost)} → ${naira(change.after.cost)}`);
  if (change.before.enabled !== change.after.enabled) parts.push(change.after.enabled ? 'switched on' : 'switched off');
  if (change.note) parts.push(change.note);
  return `#${change.serviceId} ${change.name}: ${parts.join(', ')}`;
}

/** `open`: unfolded from the start (an entry's own page). */
export function PriceChanges({ entry, changes, open = false }: { entry: AuditEntry; changes: PriceChange[]; open?: boolean }) {
  const services = detailsOf(entry).services;
  const total = typeof services === 'number' ? services : changes.length;
  const [all, setAll] = useState<PriceChange[] | null>(null);
  const load = useMutation({
    mutationFn: async () => priceChangesOf(await getAuditEntry(entry.id)) ?? [],
    onSuccess: setAll,
    onError: (error) => handleApiError(error),
  });
  const shown = all ?? changes;
  return (
    <details className="mt-1 text-xs text-slate-600" open={open}>
      <summary className="cursor-pointer select-none">{total === 1 ? '1 service' : `${total} services`}: before and after</summary>
      <ul className="mt-1 max-h-64 space-y-0.5 overflow-y-auto">
        {shown.map((change) => (
          <li key={change.serviceId}>{describe(change)}</li>
        ))}
      </ul>
      {shown.length < total ? (
        <button type="button" className="btn-sm btn-secondary mt-1" disabled={load.isPending} onClick={() => load.mutate()}>
          Show all {total}
        </button>
      ) : null}
    </details>
  );
}
