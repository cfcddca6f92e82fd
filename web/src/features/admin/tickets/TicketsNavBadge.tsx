// The admin sidebar's count of tickets with a user's message no administrator has read. It sits
// beside the 'Tickets' link (which names it through aria-describedby), so the link's text stays 'Tickets'.
import { UnreadCountPill } from '@/components/UnreadCountPill';
import { useAdminTicketUnread } from './api/get-admin-ticket-unread';

export const TICKETS_BADGE_ID = 'admin-tickets-unread';

export function TicketsNavBadge() {
  const unread = useAdminTicketUnread().data ?? 0;
  if (unread === 0) return null;
  return <UnreadCountPill id={TICKETS_BADGE_ID} count={unread} className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2" />;
}
