// The user shell's way to support: an icon in the top bar with the number of tickets whose answer
// is unread, polled while the page is visible.
import { Link } from 'react-router-dom';
import { useTicketUnread } from '@/api/tickets';
import { Icon } from '@/components/Icon';
import { UnreadCountPill } from '@/components/UnreadCountPill';

export function SupportLink() {
  const unread = useTicketUnread().data ?? 0;
  return (
    <Link
      to="/user/tickets"
      aria-label={unread > 0 ? `Support tickets, ${unread} unread` : 'Support tickets'}
      title="Support tickets"
      className="relative flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <Icon name="mail" className="h-5 w-5" />
      {unread > 0 ? <UnreadCountPill count={unread} className="absolute top-0.5 right-0.5" /> : null}
    </Link>
  );
}
