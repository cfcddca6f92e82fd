// The small marks of a ticket: its status badge, the unread dot, and the unread count pill the
// shells show. Kept apart from the thread so the shells load none of the forms.
import type { TicketStatus } from '@schemas/tickets';
import { Badge } from '@/components/StatusBadge';
import { cx } from '@/lib/hooks';

const STATUS_TONES: Record<TicketStatus, 'amber' | 'green' | 'violet' | 'slate'> = {
  Open: 'amber',
  Answered: 'green',
  'Customer reply': 'violet',
  Closed: 'slate',
};

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return <Badge tone={STATUS_TONES[status] ?? 'slate'}>{status}</Badge>;
}

/** How many tickets have an unread message, as a small red pill (its number is for the eye; links say it in words). */
export function UnreadCountPill({ count, id, className }: { count: number; id?: string; className?: string }) {
  return (
    <span id={id} className={cx('inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-rose-500 px-1.5 text-[11px] leading-none font-bold text-white tabular-nums', className)}>
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}

/** A dot beside what has a message the viewer has not read. */
export function UnreadDot() {
  return (
    <span className="inline-flex h-2.5 w-2.5 shrink-0 rounded-full bg-rose-500" title="Unread">
      <span className="sr-only">Unread</span>
    </span>
  );
}
