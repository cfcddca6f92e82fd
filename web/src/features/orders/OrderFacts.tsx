// What an order on /user/orders says besides its status: what the charge paid for (a drip-feed's runs × quantity, a
// subscription's posts × quantity), what was delivered of it, why a refund is the amount it is, why the order stopped, and,
// while the provider's answer to it is unknown, that we are confirming it, by when, and a one-tap ticket about it; and how
// its latest refill ended, once the provider has answered it.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { Order } from '@/api/orders';
import { openTicket, ticketKeys } from '@/api/tickets';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { handleApiError } from '@/lib/api';
import { formatCount, formatDate, formatDateTime } from '@/lib/format';
import { cx } from '@/lib/hooks';
import { toast } from '@/lib/toast';

type Format = (amount: string) => string;

/** "5 runs × 100" or "10 posts × 200": how the total is made, for the orders whose quantity is per run or per post. */
export function perRunText(order: Pick<Order, 'runs' | 'posts' | 'quantity'>): string | null {
  if (order.runs !== null) return `${formatCount(order.runs)} ${order.runs === 1 ? 'run' : 'runs'} × ${formatCount(order.quantity)}`;
  if (order.posts !== null) return `${formatCount(order.posts)} ${order.posts === 1 ? 'post' : 'posts'} × ${formatCount(order.quantity)}`;
  return null;
}

/** The quantity the charge pays for, with the per-run (per-post) figure under it where there is one. */
export function OrderQuantity({ order, className }: { order: Order; className?: string }) {
  const perRun = perRunText(order);
  return (
    <span className={cx('tabular-nums', className)}>
      <span className="font-medium text-slate-900">{formatCount(order.total)}</span>
      {perRun ? <span className="block text-xs text-slate-500">{perRun}</span> : null}
    </span>
  );
}

/** "400 of 500", or a dash until the provider says. */
export const deliveredText = (order: Pick<Order, 'delivered' | 'total'>) =>
  order.delivered === null ? '—' : `${formatCount(order.delivered)} of ${formatCount(order.total)}`;

/**
 * Why the refund is that amount: the charge is for `total`, and what was not delivered of it is paid back (the server's
 * floor(charge × undelivered / total)), so the note names the part it pays for.
 */
export function refundText(order: Pick<Order, 'charge' | 'refunded' | 'delivered' | 'total'>, format: Format): string | null {
  if (!(Number(order.refunded) > 0)) return null;
  if (order.refunded === order.charge) return order.delivered === 0 ? 'Refunded in full: nothing was delivered' : 'Refunded in full';
  if (order.delivered === null) return `Refunded ${format(order.refunded)}`;
  const undelivered = order.total - order.delivered;
  return `Refunded ${format(order.refunded)} for the ${formatCount(undelivered)} of ${formatCount(order.total)} not delivered`;
}

/** The charge, for the total, with the refund and its reason under it. */
export function OrderCharge({ order, format, className }: { order: Order; format: Format; className?: string }) {
  const refund = refundText(order, format);
  return (
    <span className={cx('tabular-nums', className)}>
      <span className="font-semibold text-slate-900">{format(order.charge)}</span>
      {refund ? <span className="block text-xs text-emerald-700">{refund}</span> : null}
    </span>
  );
}

/** "Refill completed Nov 3, 2026", "Refill rejected: <the provider's reason>": how the order's latest refill ended, if one has. */
export function refillOutcomeText(order: Pick<Order, 'refillOutcome'>): string | null {
  const outcome = order.refillOutcome;
  if (!outcome) return null;
  if (outcome.status === 'Completed') return `Refill completed ${formatDate(outcome.at)}`;
  return `Refill ${outcome.status.toLowerCase()}${outcome.reason ? `: ${outcome.reason}` : ''}`;
}

/**
 * Why the order stopped or waits (the shop's, the provider's or an administrator's words to the customer), a submission
 * being confirmed, and how its latest refill ended.
 */
export function OrderNotes({ order }: { order: Order }) {
  if (order.confirmationExpectedBy !== null) return <BeingConfirmed order={order} expectedBy={order.confirmationExpectedBy} />;
  const refill = refillOutcomeText(order);
  if (!order.statusReason && !refill) return null;
  return (
    <>
      {order.statusReason ? <p className="text-xs text-slate-600">{order.statusReason}</p> : null}
      {refill ? <p className="text-xs text-slate-600">{refill}</p> : null}
    </>
  );
}

export const BEING_CONFIRMED = 'Being confirmed with the provider';

/** The provider's answer to the order was lost: the money is taken and nobody knows yet whether the provider has it. */
function BeingConfirmed({ order, expectedBy }: { order: Order; expectedBy: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const ask = useMutation({
    mutationFn: () =>
      openTicket({
        subject: `Order #${order.id}: ${BEING_CONFIRMED.toLowerCase()}`,
        kind: 'order',
        orderId: order.id,
        message: `Please check order #${order.id} (${order.serviceName}, ${order.link}). It says "${BEING_CONFIRMED}", answer expected by ${formatDateTime(expectedBy)}.`,
      }),
    onSuccess: (res) => {
      toast.success(res.message || 'Ticket opened');
      void queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      navigate(`/user/tickets/${res.data.id}`);
    },
    onError: (error) => handleApiError(error),
  });
  return (
    <div className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-left text-xs text-amber-900">
      <p className="font-semibold">{BEING_CONFIRMED}</p>
      <p>
        Its answer did not reach us, so we are checking that it has this order. Expect an answer by{' '}
        <time dateTime={expectedBy}>{formatDateTime(expectedBy)}</time>: the order goes ahead, or your money comes back.
      </p>
      <button type="button" className="btn btn-secondary w-full sm:w-auto" disabled={ask.isPending} onClick={() => ask.mutate()}>
        {ask.isPending ? <Spinner className="h-3.5 w-3.5" label="" /> : <Icon name="mail" className="h-3.5 w-3.5" />}
        Ask support about this order
      </button>
    </div>
  );
}
