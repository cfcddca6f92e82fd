// The audit log: who changed money, roles, orders, prices or settings, and when. The dashboard
// shows the latest entries and opens the log in a dialog; the log's own page is /admin/audit-log
// (AuditLogPage), with its filters in the URL. Every entry opens at /admin/audit-log/:id.
import { useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { DateFilter } from '@/components/DateFilter';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { FilterBar, IdFilter } from '@/components/FilterBar';
import { FilterSelect } from '@/components/FilterSelect';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { Pagination } from '@/components/Pagination';
import { SkeletonRows } from '@/components/Skeleton';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import type { UrlFilters } from '@/lib/hooks';
import { useAuditActors } from './api/get-audit-actors';
import { type AuditEntry, useAuditLog } from './api/get-audit-log';
import { AUDIT_AREAS, AUDIT_TARGET_TYPES, actorName, describeAuditEntry, personName } from './auditText';
import { PriceChanges, priceChangesOf } from './PriceChanges';

export const AUDIT_LOG_PATH = '/admin/audit-log';
export const auditEntryPath = (id: number) => `${AUDIT_LOG_PATH}/${id}`;

/** Entries newest first, each opening its own page; `from` is the list's address, which the entry's page goes back to. */
export function AuditEntryList({ entries, from }: { entries: ReadonlyArray<AuditEntry>; from?: string }) {
  return (
    <ol className="divide-y divide-slate-100">
      {entries.map((entry) => {
        const changes = priceChangesOf(entry);
        return (
          <li key={entry.id} className="flex flex-col gap-0.5 py-2.5 sm:flex-row sm:items-baseline sm:gap-3">
            <div className="min-w-0 flex-1">
              <Link
                to={auditEntryPath(entry.id)}
                state={from ? { from } : undefined}
                className="text-sm break-words text-slate-800 hover:text-brand-700 hover:underline"
              >
                {describeAuditEntry(entry)}
              </Link>
              {changes ? <PriceChanges entry={entry} changes={changes} /> : null}
            </div>
            {/* Beside the description from sm, the actor (wrapping, never cut) over the time, which is never split. */}
            <p className="text-xs break-words text-slate-500 sm:max-w-[45%] sm:shrink-0 sm:text-right">
              {actorName(entry)}
              <span className="sm:hidden"> · </span>
              <time className="whitespace-nowrap sm:block" dateTime={entry.created_at} title={formatDateTime(entry.created_at)}>
                <TimeAgo at={entry.created_at} />
              </time>
            </p>
          </li>
        );
      })}
    </ol>
  );
}

export const AUDIT_LIMIT = 20;
const numeric = (text: string) => (/^\d+$/.test(text) ? Number(text) : undefined);
const isDate = (text: string) => (/^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined);
const TARGET_TYPES: ReadonlyArray<string> = AUDIT_TARGET_TYPES.map((type) => type.value);
const AREAS: ReadonlyArray<string> = AUDIT_AREAS.map((area) => area.value);

/** The list query a set of filters asks for; a value typed into the URL by hand that the Worker would refuse is left out. */
export function auditQueryOf(filters: Pick<UrlFilters, 'get' | 'page'>) {
  const targetType = filters.get('targetType');
  const targetId = filters.get('targetId').trim();
  return {
    page: filters.page,
    limit: AUDIT_LIMIT,
    action: AREAS.includes(filters.get('action')) ? filters.get('action') : undefined,
    actorId: numeric(filters.get('actorId')),
    from: isDate(filters.get('from')),
    to: isDate(filters.get('to')),
    targetType: TARGET_TYPES.includes(targetType) ? (targetType as (typeof AUDIT_TARGET_TYPES)[number]['value']) : undefined,
    targetId: /^[A-Za-z0-9_.-]{1,60}$/.test(targetId) ? targetId : undefined,
  };
}

/** The log's filters: area, administrator by name, dates, and the record acted on. */
export function AuditFilters({ filters }: { filters: UrlFilters }) {
  const actors = useAuditActors();
  const choices = (actors.data ?? []).map((actor) => ({
    value: actor.id,
    label: actor.administrator ? personName(actor) : `${personName(actor)}, no longer an administrator`,
  }));
  // The filter chosen stays named while the list of people loads.
  const chosen = filters.get('actorId');
  if (chosen && !choices.some((choice) => String(choice.value) === chosen))
    choices.unshift({ value: Number(chosen), label: actors.isPending ? 'Loading…' : `Account #${chosen}` });
  return (
    <FilterBar filters={filters} className="sm:grid-cols-2 lg:grid-cols-3 lg:items-end">
      <FilterSelect filters={filters} name="action" label="Area" allLabel="Every area" choices={AUDIT_AREAS} />
      <FilterSelect filters={filters} name="actorId" label="Administrator" allLabel="Every administrator" choices={choices} />
      <FilterSelect filters={filters} name="targetType" label="Target" allLabel="Any kind of record" choices={AUDIT_TARGET_TYPES} />
      <TargetIdFilter filters={filters} />
      <DateFilter label="From" value={filters.get('from')} max={filters.get('to')} onChange={(from) => filters.update({ from })} />
      <DateFilter label="To" value={filters.get('to')} min={filters.get('from')} onChange={(to) => filters.update({ to })} />
    </FilterBar>
  );
}

/** The target's id: digits for users, orders, services and the like; a currency or a settings key otherwise. */
function TargetIdFilter({ filters }: { filters: UrlFilters }) {
  const type = filters.get('targetType');
  if (type === 'exchange_rate' || type === 'settings') {
    return (
      <input
        aria-label="Target ID"
        className="input"
        placeholder={type === 'settings' ? 'Settings (site, payment…)' : 'Currency (NGN…)'}
        value={filters.get('targetId')}
        onChange={(e) => filters.update({ targetId: e.target.value.replace(/[^A-Za-z0-9_.-]/g, '') })}
      />
    );
  }
  return <IdFilter filters={filters} name="targetId" label="Target ID" />;
}

/** One page of the log for the filters, with the pager. */
export function AuditResults({ filters }: { filters: UrlFilters }) {
  const log = useAuditLog(auditQueryOf(filters));
  const location = useLocation();
  return (
    <div>
      {log.isError && !log.data ? (
        <ErrorState message={getErrorMessage(log.error)} onRetry={() => void log.refetch()} />
      ) : log.isPending ? (
        <SkeletonRows rows={6} className="h-10" />
      ) : log.data.data.length === 0 ? (
        <EmptyState icon="shield" title={filters.active ? 'Nothing recorded matches these filters' : 'Nothing recorded'} />
      ) : (
        <AuditEntryList entries={log.data.data} from={`${location.pathname}${location.search}`} />
      )}
      <Pagination page={filters.page} limit={AUDIT_LIMIT} total={log.data?.total ?? 0} onPage={filters.setPage} disabled={log.isFetching} />
    </div>
  );
}

/** Filters held by a component (the dialog), with the URL filters' interface. */
function useStateFilters(): UrlFilters {
  const [values, setValues] = useState<Record<string, string>>({});
  const isFilter = (name: string) => name !== 'page';
  const update = (patch: Record<string, string | null>) =>
    setValues((current) => {
      const next = { ...current };
      for (const [name, value] of Object.entries(patch)) {
        if (value === null || value === '') delete next[name];
        else next[name] = value;
      }
      // Another filter means another list: it starts at its first page.
      if (Object.keys(patch).some(isFilter)) delete next.page;
      return next;
    });
  return {
    get: (name) => values[name] ?? '',
    page: Math.max(1, Number(values.page) || 1),
    setPage: (page) => update({ page: String(page) }),
    update,
    clear: () => setValues({}),
    active: Object.keys(values).some(isFilter),
  };
}

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
      <DialogAuditLog />
    </Modal>
  );
}

function DialogAuditLog() {
  const filters = useStateFilters();
  const search = new URLSearchParams(
    ['action', 'actorId', 'targetType', 'targetId', 'from', 'to'].flatMap((name) => (filters.get(name) ? [[name, filters.get(name)]] : [])),
  ).toString();
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link to={search ? `${AUDIT_LOG_PATH}?${search}` : AUDIT_LOG_PATH} className="link inline-flex items-center gap-1">
          <Icon name="external" className="h-3.5 w-3.5" /> Open the audit log page
        </Link>
      </p>
      <AuditFilters filters={filters} />
      <AuditResults filters={filters} />
    </div>
  );
}
