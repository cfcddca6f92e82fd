// What both sides' ticket screens share: what a ticket is about, the thread and the reply box. Messages
// are people's text and only ever React text nodes, never HTML, so markup in them shows as typed.

import { zodResolver } from '@hookform/resolvers/zod';
import { MAX_TICKET_MESSAGE, type TicketMessageInput, ticketMessageSchema } from '@schemas/tickets';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { TicketDetail, TicketMessage } from '@/api/tickets';
import { TextAreaField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { Badge, StatusBadge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { formatAmount, formatCount, formatDate, formatDateTime } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { cx } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';

const DEPOSIT_STATUS: Record<NonNullable<TicketDetail['payment']>['status'], { label: string; tone: 'amber' | 'green' | 'red' }> = {
  pending: { label: 'Pending', tone: 'amber' },
  success: { label: 'Credited', tone: 'green' },
  failed: { label: 'Not credited', tone: 'red' },
};

/** The order or deposit the ticket is about, with a way to it (`action`); nothing when it is about neither. */
export function TicketAbout({ ticket, action }: { ticket: Pick<TicketDetail, 'order' | 'payment'>; action?: ReactNode }) {
  const currency = useCurrency();
  const { order, payment } = ticket;
  if (!order && !payment) return null;
  return (
    <section aria-label="About" className="flex flex-wrap items-center gap-x-3 gap-y-2 rounded-2xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm">
      {order ? (
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-slate-900">Order #{order.id}</p>
          <p className="break-words text-slate-600">{order.serviceName}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <StatusBadge status={order.status} /> {formatAmount(order.charge, currency)} · {formatDate(order.created_at)}
          </p>
        </div>
      ) : payment ? (
        <div className="min-w-0 flex-1">
          <p className="font-semibold text-slate-900">Deposit of {formatAmount(payment.amount, currency)}</p>
          <p className="break-all text-slate-600">{payment.reference}</p>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-500">
            <Badge tone={DEPOSIT_STATUS[payment.status].tone}>{DEPOSIT_STATUS[payment.status].label}</Badge> {formatDate(payment.created_at)}
          </p>
        </div>
      ) : null}
      {action}
    </section>
  );
}

/** Oldest first; the viewer's own side on the right. */
export function TicketThread({ messages, viewer }: { messages: ReadonlyArray<TicketMessage>; viewer: 'user' | 'staff' }) {
  return (
    <ol className="space-y-3" aria-label="Messages">
      {messages.map((m) => {
        const own = m.fromStaff === (viewer === 'staff');
        // A deleted account keeps its messages without a name.
        const author = m.authorName ?? (m.fromStaff ? 'Support' : 'Customer');
        return (
          <li key={m.id} className={cx('flex', own ? 'justify-end' : 'justify-start')}>
            <article
              aria-label={`${author}, ${formatDateTime(m.created_at)}`}
              className={cx(
                'max-w-[92%] min-w-0 rounded-2xl px-4 py-3 shadow-sm sm:max-w-[80%]',
                own ? 'rounded-br-md bg-brand-600 text-white' : 'rounded-bl-md border border-slate-200 bg-white text-slate-800',
              )}
            >
              <header className={cx('mb-1 flex flex-wrap items-baseline gap-x-2 text-xs', own ? 'text-brand-100' : 'text-slate-500')}>
                <span className={cx('font-semibold', own ? 'text-white' : 'text-slate-900')}>{author}</span>
                <time dateTime={m.created_at} title={formatDateTime(m.created_at)}>
                  <TimeAgo at={m.created_at} />
                </time>
              </header>
              <p className="text-sm whitespace-pre-wrap break-words">{m.body}</p>
            </article>
          </li>
        );
      })}
    </ol>
  );
}

/** The reply box: up to 5,000 characters, with the count shown as it nears the limit. */
export function TicketReplyForm({
  onSend,
  sending,
  label = 'Your reply',
}: {
  onSend: (message: string) => Promise<unknown>;
  sending: boolean;
  label?: string;
}) {
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors },
  } = useForm<TicketMessageInput>({ resolver: zodResolver(ticketMessageSchema), defaultValues: { message: '' } });
  const length = watch('message').length;
  const submit = handleSubmit(
    async ({ message }) => {
      try {
        await onSend(message);
        reset({ message: '' });
      } catch {
        // The caller has shown the failure; the text stays so it can be sent again.
      }
    },
    (e) => toastFirstError(e, ['message']),
  );
  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="space-y-3">
      <TextAreaField
        label={label}
        mono={false}
        rows={4}
        maxLength={MAX_TICKET_MESSAGE}
        placeholder="Write your message"
        error={errors.message?.message}
        hint={length > MAX_TICKET_MESSAGE * 0.8 ? `${formatCount(length)} of ${formatCount(MAX_TICKET_MESSAGE)} characters` : undefined}
        {...register('message')}
      />
      <div className="flex justify-end">
        <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={sending}>
          {sending ? <Spinner label="" className="h-4 w-4" /> : <Icon name="arrowRight" className="h-4 w-4" />} Send reply
        </button>
      </div>
    </form>
  );
}
