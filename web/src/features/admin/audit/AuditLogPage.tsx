// /admin/audit-log: the whole audit log, a page at a time, filtered by area, administrator (by name),
// dates and the record acted on; the filters live in the URL, so a link or the back button keeps them.
// Each entry opens at /admin/audit-log/:id with its before and after.
import { PageHeader } from '@/components/PageHeader';
import { useUrlFilters } from '@/lib/hooks';
import { AuditFilters, AuditResults } from './AuditLog';

export default function AuditLogPage() {
  const filters = useUrlFilters();
  return (
    <div className="space-y-5">
      <PageHeader title="Audit log" description="Every change an administrator made to money, roles, orders, prices and settings, newest first." />
      <AuditFilters filters={filters} />
      <section aria-label="Audit entries" className="card p-4 sm:p-6">
        <AuditResults filters={filters} />
      </section>
    </div>
  );
}
