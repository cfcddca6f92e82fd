// The audit log: who changed money, roles, orders, prices or settings, and when. The dashboard
// shows the latest entries; the full log opens in a dialog with filters and pages.
import { useState } from 'react';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { SelectField, TextField } from '@/components/Field';
import { ChoiceOptions } from '@/components/FilterSelect';
import { Modal } from '@/components/Modal';
import { Pagination } from '@/components/Pagination';
import { SkeletonRows } from '@/components/Skeleton';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { useCurrency } from '@/lib/settings';
import { type AuditEntry, useAuditLog } from './api/get-audit-log';
import { AUDIT_AREAS, describeAuditEntry } from './auditText';
import { PriceChanges, priceChangesOf } from './PriceChanges';

export function AuditEntryList({ entries }: { entries: ReadonlyArray<AuditEntry> }) {
  const currency = useCurrency();
  return (
    <ol className="divide-y divide-slate-100">
      {entries.map((entry) => {
        const changes = priceChangesOf(entry);
        return (
          <li key={entry.id} className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:items-baseline sm:gap-3">
            <div className="min-w-0 flex-1">
              <p className="text-sm break-words text-slate-800">{describeAuditEntry(entry, currency)}</p>
              {changes ? <PriceChanges entry={entry} changes={changes} /> : null}
            </div>
            <p className="truncate text-xs text-slate-500 sm:max-w-[45%] sm:shrink-0" title={entry.actor?.fullName ?? undefined}>
              {entry.actor ? (entry.actor.fullName ?? `Administrator #${entry.actor.id}`) : 'System'} ·{' '}
              <time dateTime={entry.created_at} title={formatDateTime(entry.created_at)}>
                <TimeAgo at={entry.created_at} />
              </time>
            </p>
          </li>
        );
      })}
    </ol>
  );
}

const LIMIT = 20;

export function AuditLogModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      onClose={onClose}
      size="lg"
      title="Audit log"
      description="Every change an administrator made to money, roles, orders, prices and settings."
    >
      {/* Mounted only while open: the log is read when someone asks for it. */}
      <FullAuditLog />
    </Modal>
  );
}

function FullAuditLog() {
  const [{ area, actorId }, setFilters] = useState({ area: '', actorId: '' });
  const [page, setPage] = useState(1);
  // Another filter means another list: it starts at its first page.
  const filter = (change: { area: string } | { actorId: string }) => {
    setFilters((current) => ({ ...current, ...change }));
    setPage(1);
  };
  const actor = /^\d+$/.test(actorId.trim()) ? Number(actorId.trim()) : undefined;
  const log = useAuditLog({ page, limit: LIMIT, action: area || undefined, actorId: actor });
  return (
    <>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <SelectField label="Area" value={area} onChange={(e) => filter({ area: e.target.value })}>
          <option value="">Everything</option>
          <ChoiceOptions choices={AUDIT_AREAS} />
        </SelectField>
        <TextField label="Administrator ID" inputMode="numeric" placeholder="Any" value={actorId} onChange={(e) => filter({ actorId: e.target.value })} />
      </div>
      <div className="mt-4">
        {log.isError && !log.data ? (
          <ErrorState message={getErrorMessage(log.error)} onRetry={() => void log.refetch()} />
        ) : log.isPending ? (
          <SkeletonRows rows={6} className="h-10" />
        ) : log.data.data.length === 0 ? (
          <EmptyState icon="shield" title="Nothing recorded" />
        ) : (
          <AuditEntryList entries={log.data.data} />
        )}
        <Pagination page={page} limit={LIMIT} total={log.data?.total ?? 0} onPage={setPage} disabled={log.isFetching} />
      </div>
    </>
  );
}
