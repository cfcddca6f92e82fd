// /user/tickets/new: a subject, what it is about (an order, a refill, a payment or anything else),
// the order or deposit chosen from the user's own, and the message. The server checks the choice
// is the user's, so the pickers only save typing.

import { type CreateTicketData, createTicketSchema, MAX_TICKET_MESSAGE, MAX_TICKET_SUBJECT } from '@schemas/tickets';
import { z } from '@schemas/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ORDER_TICKET_KINDS, TICKET_KINDS, type TicketKind, TRANSACTION_TYPE } from '@vocabulary';
import { Link, useNavigate } from 'react-router-dom';
import { useOrders } from '@/api/orders';
import { KIND_LABELS, openTicket, ticketKeys } from '@/api/tickets';
import { useTransactions } from '@/api/wallet';
import { SelectField, TextAreaField, TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { Spinner } from '@/components/Spinner';
import { handleApiError } from '@/lib/api';
import { formatAmount, formatDate, truncate } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { useCurrency } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';

/** The deposit choice that asks for a reference by hand: deposits never credited are not in the ledger's list. */
const TYPED_REFERENCE = '__typed__';
/** How many of the latest orders and deposits the pickers offer. */
const PICKER_LIMIT = 50;

interface FormValues {
  subject: string;
  kind: TicketKind;
  orderId: string;
  paymentReference: string;
  typedReference: string;
  message: string;
}

const isOrderKind = (kind: TicketKind) => (ORDER_TICKET_KINDS as readonly string[]).includes(kind);

/** The request the form stands for: only the picker that fits the kind counts. A preprocess takes `unknown`; here it is only ever given the form's values. */
const formSchema = z.preprocess((v: FormValues) => {
  const reference = v.paymentReference === TYPED_REFERENCE ? v.typedReference : v.paymentReference;
  return {
    subject: v.subject,
    kind: v.kind,
    message: v.message,
    orderId: isOrderKind(v.kind) && v.orderId ? v.orderId : undefined,
    paymentReference: v.kind === 'payment' && v.paymentReference ? reference : undefined,
  };
}, createTicketSchema) as unknown as z.ZodType<CreateTicketData, FormValues>;

export default function NewTicketPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { field, register, handleSubmit, watch, errors } = useZodForm(formSchema, {
    subject: '',
    kind: 'order',
    orderId: '',
    paymentReference: '',
    typedReference: '',
    message: '',
  });
  const kind = watch('kind');
  const typed = watch('paymentReference') === TYPED_REFERENCE;

  const send = useMutation({
    mutationFn: openTicket,
    onSuccess: (res) => {
      toast.success(res.message || 'Ticket opened');
      void queryClient.invalidateQueries({ queryKey: ticketKeys.all });
      navigate(`/user/tickets/${res.data.id}`, { replace: true });
    },
    onError: (error) => handleApiError(error),
  });

  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <Link to="/user/tickets" className="link inline-flex items-center gap-1 text-sm">
        <Icon name="arrowLeft" className="h-4 w-4" /> All tickets
      </Link>
      <PageHeader title="New ticket" description="Tell us what happened. Pick the order or deposit it is about, so we can look at it straight away." />
      <form
        noValidate
        className="card space-y-4 p-4 sm:p-6"
        onSubmit={handleSubmit(
          (values) => send.mutate(values),
          (e) => toastFirstError(e, ['subject', 'kind', 'orderId', 'paymentReference', 'typedReference', 'message']),
        )}
      >
        <TextField label="Subject" maxLength={MAX_TICKET_SUBJECT} autoComplete="off" placeholder="e.g. My order has not started" {...field('subject')} />
        <SelectField label="About" {...field('kind')}>
          {TICKET_KINDS.map((k) => (
            <option key={k} value={k}>
              {KIND_LABELS[k]}
            </option>
          ))}
        </SelectField>
        {isOrderKind(kind) ? (
          <SelectField label="Order" hint={`Your ${PICKER_LIMIT} latest orders. Not listed? Give its ID in the message.`} {...field('orderId')}>
            <OrderOptions />
          </SelectField>
        ) : null}
        {kind === 'payment' ? (
          <>
            <SelectField label="Deposit" error={typed ? undefined : errors.paymentReference?.message} {...register('paymentReference')}>
              <DepositOptions />
            </SelectField>
            {typed ? (
              <TextField
                label="Deposit reference"
                hint="From your payment receipt or email, e.g. dep-3f2a…"
                autoComplete="off"
                error={errors.paymentReference?.message}
                {...register('typedReference')}
              />
            ) : null}
          </>
        ) : null}
        <TextAreaField
          label="Message"
          mono={false}
          rows={6}
          maxLength={MAX_TICKET_MESSAGE}
          placeholder="What happened, and what would you like us to do?"
          {...field('message')}
        />
        <div className="flex justify-end">
          <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={send.isPending}>
            {send.isPending ? <Spinner label="" className="h-4 w-4" /> : <Icon name="arrowRight" className="h-4 w-4" />} Open ticket
          </button>
        </div>
      </form>
    </div>
  );
}

function OrderOptions() {
  const orders = useOrders({ page: 1, limit: PICKER_LIMIT }, { poll: false });
  return (
    <>
      <option value="">{orders.isPending ? 'Loading your orders…' : 'No particular order'}</option>
      {(orders.data?.data ?? []).map((o) => (
        <option key={o.id} value={String(o.id)}>
          #{o.id} · {truncate(o.serviceName, 36)} · {o.status}
        </option>
      ))}
    </>
  );
}

/** Card and transfer deposits credited to the wallet (the ledger's 'payment' rows carry the deposit's reference). */
function DepositOptions() {
  const currency = useCurrency();
  const deposits = useTransactions({ page: 1, limit: PICKER_LIMIT, type: TRANSACTION_TYPE.deposit });
  const rows = deposits.data?.data ?? [];
  return (
    <>
      <option value="">{deposits.isPending ? 'Loading your deposits…' : 'No particular deposit'}</option>
      {rows
        .filter((t) => t.source === 'payment' && t.reference)
        .map((t) => (
          <option key={t.id} value={t.reference}>
            {formatAmount(t.amount, currency)} · {formatDate(t.created_at)} · {t.reference}
          </option>
        ))}
      <option value={TYPED_REFERENCE}>A deposit not listed (enter its reference)</option>
    </>
  );
}
