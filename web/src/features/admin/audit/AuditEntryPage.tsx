// /admin/audit-log/:id: one audit entry in full: who (by name), when, what, the record it acted on
// with a link to it, the note written with it, and the before and after of every edit that records them
// (a service's price and cost, the fields of a settings save, each service a repricing moved).
import { Link, useLocation, useParams } from 'react-router-dom';
import { ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import NotFound from '@/components/NotFound';
import { PageHeader } from '@/components/PageHeader';
import { SkeletonRows } from '@/components/Skeleton';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage, isApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { AUDIT_LOG_PATH } from './AuditLog';
import { useAuditEntry } from './api/get-audit-entry';
import type { AuditEntry } from './api/get-audit-log';
import { actorName, changedFields, describeAuditEntry, detailsOf, entryNote, targetLink, targetName } from './auditText';
import { PriceChanges, priceChangesOf } from './PriceChanges';

export default function AuditEntryPage() {
  const id = Number(useParams().id);
  return Number.isSafeInteger(id) && id > 0 ? <AuditEntryScreen id={id} /> : <NotFound />;
}

function AuditEntryScreen({ id }: { id: number }) {
  const q = useAuditEntry(id);
  // Back to the list as it was filtered, when the entry was opened from it.
  const from = (useLocation().state as { from?: string } | null)?.from;
  const back = from?.startsWith(AUDIT_LOG_PATH) ? from : AUDIT_LOG_PATH;
  if (q.isError && isApiError(q.error) && q.error.status === 404) return <NotFound />;
  return (
    <div className="space-y-5">
      <Link to={back} className="link inline-flex items-center gap-1 text-sm">
        <Icon name="arrowLeft" className="h-4 w-4" /> Audit log
      </Link>
      <PageHeader title={`Audit entry #${id}`} />
      {q.isError && !q.data ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : q.isPending ? (
        <SkeletonRows rows={5} className="h-10" />
      ) : (
        <EntryDetails entry={q.data} />
      )}
    </div>
  );
}

function EntryDetails({ entry }: { entry: AuditEntry }) {
  const link = targetLink(entry);
  const note = entryNote(entry);
  const fields = changedFields(entry);
  const priceChanges = priceChangesOf(entry);
  return (
    <>
      <section aria-label="Entry" className="card p-4 sm:p-6">
        <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
          <dt className="font-medium text-slate-500">What</dt>
          <dd className="text-slate-900">
            {describeAuditEntry(entry)} <code className="ml-1 text-xs text-slate-500">{entry.action}</code>
          </dd>
          <dt className="font-medium text-slate-500">Who</dt>
          <dd className="text-slate-900">
            {entry.actor ? (
              <Link to="/admin/manage-user" state={{ userId: entry.actor.id }} className="link">
                {actorName(entry)}
              </Link>
            ) : (
              'System (the shop’s own work)'
            )}
          </dd>
          <dt className="font-medium text-slate-500">When</dt>
          <dd className="text-slate-900">
            <time dateTime={entry.created_at}>{formatDateTime(entry.created_at)}</time> (<TimeAgo at={entry.created_at} />)
          </dd>
          <dt className="font-medium text-slate-500">Target</dt>
          <dd className="text-slate-900">
            {link ? (
              <Link to={link.to} state={link.state} className="link">
                {targetName(entry)}
              </Link>
            ) : (
              targetName(entry)
            )}
          </dd>
          {note ? (
            <>
              <dt className="font-medium text-slate-500">Note</dt>
              <dd className="break-words whitespace-pre-wrap text-slate-900">{note}</dd>
            </>
          ) : null}
        </dl>
      </section>

      {fields.length ? (
        <section aria-labelledby="audit-before-after" className="card p-4 sm:p-6">
          <h2 id="audit-before-after" className="text-base font-semibold text-slate-900">
            Before and after
          </h2>
          <div className="mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-slate-500">
                <tr>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Field
                  </th>
                  <th scope="col" className="py-2 pr-4 font-medium">
                    Before
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    After
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {fields.map((field) => (
                  <tr key={field.field}>
                    <th scope="row" className="py-2 pr-4 font-medium text-slate-700">
                      {field.label}
                    </th>
                    <td className="max-w-xs py-2 pr-4 break-words text-slate-600">{field.before}</td>
                    <td className="max-w-xs py-2 break-words text-slate-900">{field.after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ) : null}

      {priceChanges ? (
        <section aria-label="Prices moved" className="card p-4 sm:p-6">
          <PriceChanges entry={entry} changes={priceChanges} open />
        </section>
      ) : null}

      <details className="card p-4 text-sm sm:p-6">
        <summary className="cursor-pointer font-medium text-slate-700 select-none">Everything recorded</summary>
        <pre className="mt-3 max-h-96 overflow-auto text-xs whitespace-pre-wrap text-slate-600">{JSON.stringify(detailsOf(entry), null, 2)}</pre>
      </details>
    </>
  );
}
