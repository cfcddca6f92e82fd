// /admin/referrals: the programme's settings (ReferralSettingsCard: switch, commission, hold, cap), and every referral with what it paid;
// a referral can be voided (a second account of the same person), which stops later commissions.
// Commissions are held for the programme's hold before they can be spent: the list shows paid and held apart.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { CellText, type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { promptText } from '@/lib/confirm';
import { formatAmount } from '@/lib/format';
import { toast } from '@/lib/toast';
import { type AdminReferral, useAdminReferrals } from './api/get-referrals';
import { referralAdminKeys } from './api/keys';
import { voidReferral } from './api/void-referral';
import { ReferralSettingsCard } from './ReferralSettingsCard';

const PAGE_SIZE = 20;

export default function AdminReferralsPage() {
  return (
    <div className="space-y-5">
      <PageHeader title="Referrals" description="Users earn a share of the deposits of people who sign up through their link." />
      <ReferralSettingsCard />
      <ReferralList />
    </div>
  );
}

function ReferralList() {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const list = useAdminReferrals(page, PAGE_SIZE);
  const voiding = useMutation({
    mutationFn: ({ row, reason }: { row: AdminReferral; reason: string }) => voidReferral(row.referred.id, reason),
    onSuccess: (res) => {
      toast.success(res.message);
      void queryClient.invalidateQueries({ queryKey: referralAdminKeys.all });
    },
    onError: (e) => handleApiError(e, { toast: true }),
  });
  const onVoid = async (row: AdminReferral) => {
    const reason = await promptText({
      title: `Void the referral of ${row.referred.fullName}?`,
      text: `${row.referrer.fullName} earns nothing on their later deposits. Commissions already paid stay paid.`,
      inputLabel: 'Reason',
      required: 'Please give a reason',
      confirmText: 'Void referral',
      cancelText: 'Cancel',
      danger: true,
    });
    if (reason) voiding.mutate({ row, reason });
  };

  const columns: ReadonlyArray<Column<AdminReferral>> = [
    { key: 'referred', header: 'Signed up', mobile: 'title', cell: (r) => <CellText text={`${r.referred.fullName} (${r.referred.email})`} /> },
    { key: 'referrer', header: 'Referred by', cell: (r) => <CellText text={`${r.referrer.fullName} (${r.referrer.email})`} /> },
    { key: 'when', header: 'Joined', cell: (r) => <TimeAgo at={r.createdAt} /> },
    {
      key: 'paid',
      header: 'Commissions',
      cell: (r) =>
        Number(r.held) ? `${r.commissions} · ${formatAmount(r.paid)} paid · ${formatAmount(r.held)} held` : `${r.commissions} · ${formatAmount(r.paid)}`,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (r) =>
        r.voidedAt ? (
          <span title={r.voidReason ?? undefined}>
            <Badge tone="red">Void</Badge>
          </span>
        ) : (
          <Badge tone="green">Earning</Badge>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (r) =>
        r.voidedAt ? null : (
          <button type="button" className="btn-sm btn-secondary" onClick={() => void onVoid(r)} aria-label={`Void the referral of ${r.referred.fullName}`}>
            Void
          </button>
        ),
    },
  ];

  if (list.isError) return <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} />;
  return (
    <section aria-label="Referrals" className="space-y-3">
      <ResponsiveTable
        columns={columns}
        rows={list.data?.data}
        rowKey={(r) => r.referred.id}
        loading={list.isPending}
        caption="Referrals"
        empty={
          <EmptyState icon="users" title="No referrals yet">
            Sign-ups through users’ referral links show here.
          </EmptyState>
        }
      />
      <Pagination page={page} limit={PAGE_SIZE} total={list.data?.total ?? 0} onPage={setPage} disabled={list.isFetching} />
    </section>
  );
}
