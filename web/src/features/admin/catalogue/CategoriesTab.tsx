// Categories: their platform, how many services they hold, and their markup (which their
// services use unless they set their own; blank = the global markup).

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { formatCount } from '@/lib/format';
import { toast } from '@/lib/toast';
import { type AdminCategory, useAdminCategories } from './api/get-categories';
import { usePricingSettings } from './api/get-pricing-settings';
import { updateCategory } from './api/update-category';
import { MarkupDialog } from './MarkupDialog';

export function CategoriesTab() {
  const refresh = useRefreshAdmin();
  const categories = useAdminCategories();
  const pricing = usePricingSettings();
  const [editing, setEditing] = useState<AdminCategory | null>(null);
  const globalMarkup = pricing.data ? `the global markup (${pricing.data.defaultMarkupPercent}%)` : 'the global markup';

  const save = useMutation({
    mutationFn: ({ category, markupPercent }: { category: AdminCategory; markupPercent: string | null }) => updateCategory(category.id, { markupPercent }),
    onSuccess: (res) => {
      toast.success(res.message || 'Category updated');
      setEditing(null);
      void refresh();
    },
    onError: (error) => handleApiError(error),
  });

  const columns: Column<AdminCategory>[] = [
    { key: 'name', header: 'Category', mobile: 'title', cell: (c) => <span className="font-medium text-slate-900">{c.name}</span> },
    { key: 'platform', header: 'Platform', cell: (c) => c.platform },
    {
      key: 'services',
      header: 'Services',
      className: 'md:text-right',
      cell: (c) => (
        <Link to={`/admin/services?category=${c.id}`} className="link tabular-nums">
          {formatCount(c.serviceCount)}
        </Link>
      ),
    },
    {
      key: 'markup',
      header: 'Markup',
      className: 'md:text-right',
      cell: (c) =>
        c.markupPercent === null ? (
          <span className="text-slate-500">Global ({pricing.data?.defaultMarkupPercent ?? '…'}%)</span>
        ) : (
          <span className="tabular-nums">{c.markupPercent}%</span>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'md:text-right',
      cell: (c) => (
        <button type="button" className="btn-sm btn-secondary" onClick={() => setEditing(c)} aria-label={`Set the markup of ${c.name}`}>
          <Icon name="pencil" className="h-3.5 w-3.5" /> Markup
        </button>
      ),
    },
  ];

  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        A category&apos;s markup prices its services that have no markup of their own; changing it reprices them at once, within the margin guard.
      </p>
      {categories.isError ? (
        <ErrorState message={getErrorMessage(categories.error)} onRetry={() => void categories.refetch()} />
      ) : (
        <ResponsiveTable
          caption="Categories"
          columns={columns}
          rows={categories.data}
          rowKey={(c) => c.id}
          loading={categories.isPending}
          empty={
            <EmptyState icon="layers" title="No categories yet">
              They are made when services are imported.
            </EmptyState>
          }
        />
      )}
      <MarkupDialog
        open={editing !== null}
        title={`Markup of ${editing?.name ?? ''}`}
        initial={editing?.markupPercent ?? ''}
        inheritLabel={globalMarkup}
        busy={save.isPending}
        onClose={() => setEditing(null)}
        onSubmit={(markupPercent) => editing && save.mutate({ category: editing, markupPercent })}
      />
    </div>
  );
}
