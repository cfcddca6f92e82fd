// One order as administrators handle it: every detail, and the manual actions its state allows —
// resend, link to the provider's order, cancel (at once while queued with us, through the provider
// once it has the order), refund without the provider after checking by hand, set a status by
// hand (Partial and Canceled refund automatically, once), and refill.

import type { CanceledBy } from '@schemas/orders';
import { useMutation } from '@tanstack/react-query';
import { OPEN_ORDER_STATUSES, ORDER_STATUSES, type OrderStatus, type SubmissionState } from '@vocabulary';
import { type FormEvent, type ReactNode, useState } from 'react';
import { nairaToKobo } from '@/api/catalogue';
import { SelectField, TextField, useTextFieldState } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { QueryState } from '@/components/QueryState';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge, StatusBadge } from '@/components/StatusBadge';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { handleApiError, isApiError } from '@/lib/api';
import { confirmAction, promptText } from '@/lib/confirm';
import { formatAmount, formatCount, formatDateTime, formatKobo } from '@/lib/format';
import { useCurrency } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { cancelOrder } from './api/cancel-order';
import { type AdminOrderDetail, useAdminOrder } from './api/get-order';
import { linkProviderOrder } from './api/link-provider-order';
import { refillOrder } from './api/refill-order';
import { refundWithoutProvider } from './api/refund-without-provider';
import { resendOrder } from './api/resend-order';
import { type OrderStatusChange, setOrderStatus } from './api/set-order-status';

export const SUBMISSION_LABELS: Record<SubmissionState, string> = {
  queued: 'Waiting to be sent',
  sending: 'Being sent',
  unknown: 'Unknown: check the provider',
  accepted: 'At the provider',
  rejected: 'Refused by the provider',
  withdrawn: 'Never sent',
};

/** Who canceled an order, in the detail's words. */
function canceledByText(canceledBy: CanceledBy): string {
  if (canceledBy.by === 'customer') return 'The customer';
  if (canceledBy.by === 'administrator') return `An administrator: ${canceledBy.name ?? 'a deleted account'}`;
  if (canceledBy.by === 'provider') return 'The provider';
  return 'The shop, automatically: no provider took it in time';
}

const isOpen = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly string[]).includes(status);
const MANUAL_STATUSES = ORDER_STATUSES.filter((s) => s !== 'Pending Submission');

export function AdminOrderDialog({ orderId, onClose }: { orderId: number | null; onClose: () => void }) {
  const order = useAdminOrder(orderId);
  return (
    <Modal open={orderId !== null} onClose={onClose} size="lg" title={`Order #${orderId ?? ''}`}>
      <QueryState query={order} skeleton={<SkeletonRows rows={6} className="h-8" />}>
        {(detail) => <OrderDetail order={detail} />}
      </QueryState>
    </Modal>
  );
}

function OrderDetail({ order }: { order: AdminOrderDetail }) {
  const currency = useCurrency();
  const refresh = useRefreshAdmin();
  const [form, setForm] = useState<'status' | 'link' | null>(null);
  const action = useMutation({
    mutationFn: (run: () => Promise<{ message: string }>) => run(),
    onSuccess: (res) => {
      toast.success(res.message || 'Done');
      setForm(null);
      void refresh();
    },
    onError: (error) => {
      handleApiError(error);
      // The order moved on since it was read: show it as it is now, so only the actions it still allows are offered.
      if (isApiError(error) && error.status === 409) {
        setForm(null);
        void refresh();
      }
    },
  });

  const canResend = order.status === 'Pending Submission' && order.submission !== 'sending';
  const onResend = async () => {
    const unknown = order.submission === 'unknown';
    const confirmed = await confirmAction({
      title: 'Send this order to the provider again?',
      text: unknown
        ? "Its first submission was interrupted, so the provider may already have it. Resend only if you checked the provider's panel and it has no such order; otherwise link the order it has."
        : 'It is sent to the provider now.',
      confirmText: unknown ? 'It has none: resend' : 'Yes, resend',
      cancelText: 'No',
      danger: unknown,
    });
    if (confirmed) action.mutate(() => resendOrder(order.id, unknown));
  };
  const atProvider = order.submission === 'accepted';
  const canCancel = isOpen(order.status) && (order.submission === 'queued' || (atProvider && order.cancelRequestedAt === null));
  const onCancel = async () => {
    const reason = await promptText({
      title: `Cancel order #${order.id}?`,
      text: atProvider
        ? `${order.providerName} is asked to cancel it. The user is refunded for what it did not deliver when it confirms, and reads your reason on the order now and in the notice then.`
        : `It has not reached the provider: the user gets ${formatAmount(order.charge, currency)} back at once, and reads your reason on the order and in the notice.`,
      inputLabel: 'Reason (shown to the user)',
      confirmText: atProvider ? 'Yes, ask the provider' : 'Yes, cancel and refund',
      cancelText: 'No',
      danger: true,
    });
    if (reason !== null) action.mutate(() => cancelOrder(order.id, order.status, reason));
  };
  const onRefundWithoutProvider = async () => {
    const reason = await promptText({
      title: `Refund order #${order.id} without the provider?`,
      text: `The user gets ${formatAmount(order.charge, currency)} back and the order is closed as Canceled, without asking ${order.providerName}. Do this only after checking its panel: the provider has no such order, or canceled it. The user reads only that the shop canceled and refunded it.`,
      inputLabel: 'What you checked (kept in the audit log)',
      required: 'Say why the order is refunded without the provider',
      confirmText: 'Yes, refund',
      cancelText: 'No',
      danger: true,
    });
    if (reason !== null) action.mutate(() => refundWithoutProvider(order.id, order.status, reason));
  };
  const onRefill = async () => {
    if (
      await confirmAction({
        title: `Request a refill of order #${order.id}?`,
        text: 'The provider is asked to top up what dropped.',
        confirmText: 'Yes, request',
        cancelText: 'No',
      })
    ) {
      action.mutate(() => refillOrder(order.id));
    }
  };

  const rows: Array<{ label: string; value: ReactNode }> = [
    {
      label: 'User',
      value: (
        <>
          {order.userFullName}{' '}
          <span className="text-slate-500">
            ({order.userEmail}, #{order.userId})
          </span>
        </>
      ),
    },
    {
      label: 'Service',
      value: (
        <>
          {order.serviceName} <span className="text-slate-500">(#{order.serviceId})</span>
        </>
      ),
    },
    {
      label: 'Provider',
      value: (
        <>
          {order.providerName} · service {order.providerServiceId}
          {order.providerOrderId ? ` · order ${order.providerOrderId}` : ''}
        </>
      ),
    },
    {
      label: 'Link',
      value: (
        <a href={order.link} target="_blank" rel="noreferrer noopener" className="link break-all">
          {order.link}
        </a>
      ),
    },
    {
      label: 'Quantity',
      value: `${formatCount(order.quantity)}${order.deliverable !== order.quantity ? ` (${formatCount(order.deliverable)} to deliver)` : ''}`,
    },
    {
      label: 'Charge',
      value: (
        <>
          {formatAmount(order.charge, currency)}
          {Number(order.refunded) > 0 ? <span className="text-emerald-700"> · refunded {formatAmount(order.refunded, currency)}</span> : null}
        </>
      ),
    },
    { label: 'Provider cost', value: formatAmount(order.cost, currency) },
    { label: 'Start / remains', value: `${order.startCount ?? '—'} / ${order.remains ?? '—'}` },
    {
      label: 'Submission',
      value: (
        <>
          {SUBMISSION_LABELS[order.submission]}
          {order.submitAttempts > 1 ? ` · ${order.submitAttempts} attempts` : ''}
          {order.submissionError ? <span className="block text-rose-700">{order.submissionError}</span> : null}
        </>
      ),
    },
    ...(order.providerNote
      ? [
          {
            label: 'Provider said',
            value: (
              <span className="text-amber-800">
                {order.providerNote}
                {order.unreadableSyncs > 1 ? ` (${order.unreadableSyncs} reads in a row)` : ''}
              </span>
            ),
          },
        ]
      : []),
    ...(order.canceledBy ? [{ label: 'Canceled by', value: canceledByText(order.canceledBy) }] : []),
    ...(order.cancelRequestedAt ? [{ label: 'Cancel requested', value: formatDateTime(order.cancelRequestedAt) }] : []),
    { label: 'Placed', value: formatDateTime(order.created_at) },
    { label: 'Sent', value: formatDateTime(order.submittedAt) || '—' },
    { label: 'Finished', value: formatDateTime(order.completedAt) || '—' },
  ];

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center gap-2">
        <StatusBadge status={order.status} />
        {order.statusReason ? (
          <span className="text-sm text-slate-600" title="What the user reads on the order">
            {order.statusReason}
          </span>
        ) : null}
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
        {rows.map(({ label, value }) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd className="min-w-0 text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {order.refills.length ? (
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Refills</h3>
          <ul className="mt-1 space-y-1 text-sm">
            {order.refills.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center gap-2">
                <StatusBadge status={r.status} /> {formatDateTime(r.created_at)} {r.error ? <span className="text-rose-700">{r.error}</span> : null}
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-4">
        {canResend ? (
          <button type="button" className="btn-sm btn-secondary" disabled={action.isPending} onClick={() => void onResend()}>
            <Icon name="refresh" className="h-3.5 w-3.5" /> Resend
          </button>
        ) : null}
        {order.submission === 'unknown' && order.status === 'Pending Submission' ? (
          <button type="button" className="btn-sm btn-secondary" disabled={action.isPending} onClick={() => setForm('link')}>
            <Icon name="external" className="h-3.5 w-3.5" /> Link provider order
          </button>
        ) : null}
        {order.status !== 'Partial' && order.status !== 'Canceled' ? (
          <button type="button" className="btn-sm btn-secondary" disabled={action.isPending} onClick={() => setForm('status')}>
            <Icon name="pencil" className="h-3.5 w-3.5" /> Set status
          </button>
        ) : null}
        {order.canRefill ? (
          <button type="button" className="btn-sm btn-secondary" disabled={action.isPending} onClick={() => void onRefill()}>
            <Icon name="refresh" className="h-3.5 w-3.5" /> Refill
          </button>
        ) : null}
        {canCancel ? (
          <button type="button" className="btn-sm btn-danger" disabled={action.isPending} onClick={() => void onCancel()}>
            <Icon name="xCircle" className="h-3.5 w-3.5" /> {atProvider ? 'Cancel at the provider' : 'Cancel and refund'}
          </button>
        ) : null}
        {isOpen(order.status) && (atProvider || order.submission === 'unknown') ? (
          <button type="button" className="btn-sm btn-danger" disabled={action.isPending} onClick={() => void onRefundWithoutProvider()}>
            <Icon name="xCircle" className="h-3.5 w-3.5" /> Refund without the provider
          </button>
        ) : null}
        {order.status === 'Partial' || order.status === 'Canceled' ? (
          <p className="text-sm text-slate-500">This order is closed and its refund settled.</p>
        ) : null}
      </div>

      {form === 'status' ? (
        <StatusForm
          order={order}
          busy={action.isPending}
          onCancel={() => setForm(null)}
          onSubmit={(body) => action.mutate(() => setOrderStatus(order.id, order.status, body))}
        />
      ) : null}
      {form === 'link' ? (
        <LinkForm busy={action.isPending} onCancel={() => setForm(null)} onSubmit={(id) => action.mutate(() => linkProviderOrder(order.id, id))} />
      ) : null}
    </div>
  );
}

function StatusForm({
  order,
  busy,
  onCancel,
  onSubmit,
}: {
  order: AdminOrderDetail;
  busy: boolean;
  onCancel: () => void;
  onSubmit: (change: OrderStatusChange) => void;
}) {
  const currency = useCurrency();
  const [status, setStatus] = useState<OrderStatus>(order.status === 'Pending Submission' ? 'Completed' : order.status);
  const remains = useTextFieldState();
  const [reason, setReason] = useState('');
  const remainsCount = /^\d+$/.test(remains.value) ? Math.min(Number(remains.value), order.deliverable) : null;
  // As the server refunds: all of it, or floor(charge × remains / deliverable) in kobo.
  const chargeKobo = nairaToKobo(order.charge);
  const refundKobo =
    status === 'Canceled' ? chargeKobo : status === 'Partial' && remainsCount !== null ? (chargeKobo * BigInt(remainsCount)) / BigInt(order.deliverable) : 0n;
  const refund = formatKobo(refundKobo, currency);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (status === 'Partial' && remainsCount === null) {
      remains.setError('Enter how many were not delivered');
      return;
    }
    const refunds = status === 'Partial' || status === 'Canceled';
    const confirmed = await confirmAction({
      title: `Set order #${order.id} to ${status}?`,
      text: refunds ? `The user gets ${refund} back and the order closes for good.` : 'No money moves.',
      confirmText: 'Yes, set it',
      cancelText: 'No',
      danger: refunds,
    });
    if (confirmed) onSubmit({ status, remains: status === 'Partial' ? remainsCount! : undefined, reason: reason.trim() || undefined });
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-3 rounded-xl border border-slate-200 p-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <SelectField label="New status" value={status} onChange={(e) => setStatus(e.target.value as OrderStatus)}>
          {MANUAL_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </SelectField>
        {status === 'Partial' ? (
          <TextField label="Not delivered" inputMode="numeric" hint={`Of ${formatCount(order.deliverable)}; refund ${refund}`} {...remains.props} />
        ) : null}
      </div>
      <TextField label="Reason (optional, shown to the user)" maxLength={500} value={reason} onChange={(e) => setReason(e.target.value)} />
      {status === 'Canceled' || status === 'Partial' ? <Badge tone="amber">Refunds {refund} automatically</Badge> : null}
      <FormActions layout="inline" onCancel={onCancel} cancelLabel="Back" busy={busy} label="Set status" />
    </form>
  );
}

function LinkForm({ busy, onCancel, onSubmit }: { busy: boolean; onCancel: () => void; onSubmit: (providerOrderId: string) => void }) {
  const providerOrderId = useTextFieldState();
  return (
    <form
      noValidate
      className="space-y-3 rounded-xl border border-slate-200 p-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (!providerOrderId.value.trim()) providerOrderId.setError('Enter the order id the provider shows');
        else onSubmit(providerOrderId.value.trim());
      }}
    >
      <TextField
        label="Provider order id"
        hint="The order the provider's panel has for this link; the sync follows it from then on."
        {...providerOrderId.props}
      />
      <FormActions layout="inline" onCancel={onCancel} cancelLabel="Back" busy={busy} label="Link" />
    </form>
  );
}
