// The small marks of a ticket: its status badge and the unread dot the lists
// show. Kept apart from the thread so the shells load none of the forms.
import type { TicketStatus } from '@vocabulary';

import { Badge } from '@/components/StatusBadge';

const STATUS_TONES: Record<TicketStatus, 'amber' | 'green' | 'violet' | 'slate'> = {
  Open: 'amber',
  Answered: 'green',
  'Customer reply': 'violet',
  Closed: 'slate',
};

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return <Badge tone={STATUS_TONES[status] ?? 'slate'}>{status}</Badge>;
}

/** A dot beside what has a message the viewer has not read. */
export function UnreadDot() {
  return (
    <span className="inline-flex h-2.5 w-2.5 shrink-0 rounded-full bg-rose-500" title="Unread">
      <span className="sr-only">Unread</span>
    </span>
  );
}
