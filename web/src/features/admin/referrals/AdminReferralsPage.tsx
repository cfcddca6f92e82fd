// /admin/referrals: the programme's switch and commission, and every referral with what it paid;
// a referral can be voided (a second account of the same person), which stops later commissions.

import { referralSettingsSchema } from '@schemas/referrals';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { TextField } from '@/components/Field';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { CellText, type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';
import { Switch } from '@/components/Switch';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { promptText } from '@/lib/confirm';
import { formatAmount } from '@/lib/format';
import { toast } from '@/lib/toast';
import { useReferralSettings } from './api/get-referral-settings';
import { type AdminReferral, useAdminReferrals } from './api/get-referrals';
import { referralAdminKeys } from './api/keys';
import { saveReferralSettings } from './api/save-referral-settings';
import { voidReferral } from './api/void-referral';

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

function ReferralSettingsCard() {
  const queryClient = useQueryClient();
  const current = useReferralSettings();
  const [enabled, setEnabled] = useState(true);
  const [ratePercent, setRatePercent] = useState('');
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (!current.data) return;
    setEnabled(current.data.enabled);
    setRatePercent(current.data.ratePercent);
  }, [current.data]);

  const save = useMutation({
    mutationFn: saveReferralSettings,
    onSuccess: (res) => {
      toast.success(res.message);
      void queryClient.invalidateQueries({ queryKey: referralAdminKeys.all });
    },
    onError: (e) => handleApiError(e, { toast: true }),
  });
  const submit = () => {
    const parsed = referralSettingsSchema.safeParse({ enabled, ratePercent });
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) save.mutate(parsed.data);
  };

  return (
    <section className="card space-y-4 p-4 sm:p-5" aria-label="Referral settings">
      {current.isError ? <ErrorState message={getErrorMessage(current.error)} onRetry={() => void current.refetch()} /> : null}
      <Switch checked={enabled} onChange={setEnabled} label="Pay referral commissions" disabled={current.isPending} />
      <div className="max-w-xs">
        <TextField
          label="Commission (% of each deposit)"
          inputMode="decimal"
          value={ratePercent}
          onChange={(e) => setRatePercent(e.target.value)}
          error={error}
          disabled={current.isPending}
        />
      </div>
      <button type="button" className="btn btn-primary" onClick={submit} disabled={save.isPending || current.isPending}>
        Save referral settings
      </button>
    </section>
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
    { key: 'paid', header: 'Commissions', cell: (r) => `${r.commissions} · ${formatAmount(r.paid)}` },
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
