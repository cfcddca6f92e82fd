// The bell in the user shell's top bar: the number of unread notifications, and a panel with the
// latest ones; opening the panel shows them, "Mark all as read" clears the count.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import { TimeAgo } from '@/components/TimeAgo';
import { UnreadCountPill, unreadCountText } from '@/components/UnreadCountPill';
import { handleApiError } from '@/lib/api';
import { FIRST_TAP_ATTRIBUTE, useFirstTap } from '@/lib/firstTap';
import { cx, useEscapeKey, useOutsideClick } from '@/lib/hooks';
import { useBell } from './api/get-notifications';
import { notificationKeys } from './api/keys';
import { markAllRead } from './api/mark-all-read';

export function NotificationBell() {
  const queryClient = useQueryClient();
  const bell = useBell();
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const refs = useRef([wrap]).current;
  const button = useRef<HTMLButtonElement>(null);
  useOutsideClick(refs, () => setOpen(false), open);
  useEscapeKey(() => {
    setOpen(false);
    button.current?.focus();
  }, open);
  useFirstTap('notifications', button, () => setOpen(true));
  const readAll = useMutation({
    mutationFn: markAllRead,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.bell }),
    onError: (error) => handleApiError(error, { toast: true }),
  });
  const unread = bell.data?.unread ?? 0;
  const items = bell.data?.items ?? [];

  return (
    <div ref={wrap} className="relative">
      <button
        ref={button}
        type="button"
        aria-label={unread > 0 ? `Notifications, ${unreadCountText(unread)} unread` : 'Notifications'}
        aria-expanded={open}
        aria-controls="notification-panel"
        title="Notifications"
        {...{ [FIRST_TAP_ATTRIBUTE]: 'notifications' }}
        onClick={() => setOpen((v) => !v)}
        className="relative flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-slate-600 transition hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
      >
        <Icon name="bell" className="h-5 w-5" />
        {unread > 0 ? <UnreadCountPill count={unread} className="absolute top-0.5 right-0.5" /> : null}
      </button>
      {open ? (
        <section
          id="notification-panel"
          aria-label="Notifications"
          className="fixed inset-x-2 top-16 z-40 max-h-[70vh] overflow-y-auto rounded-2xl border border-slate-200 bg-white shadow-xl sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96"
        >
          <header className="flex items-center justify-between gap-2 border-b border-slate-100 px-4 py-3">
            <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
            <button type="button" className="btn-sm btn-ghost" disabled={unread === 0 || readAll.isPending} onClick={() => readAll.mutate()}>
              Mark all as read
            </button>
          </header>
          {items.length === 0 ? (
            <p className="px-4 py-6 text-center text-sm text-slate-500">Nothing yet. Deposits, finished orders and answers from support show here.</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {items.map((n) => (
                <li key={n.id} className={cx('px-4 py-3 text-sm', !n.read && 'bg-brand-50/60')}>
                  <Link to={n.link ?? '/user'} className="block" onClick={() => setOpen(false)}>
                    <p className="font-semibold text-slate-900">
                      {!n.read ? <span className="sr-only">Unread: </span> : null}
                      {n.title}
                    </p>
                    <p className="text-slate-600">{n.body}</p>
                    <p className="mt-0.5 text-xs text-slate-500">
                      <TimeAgo at={n.createdAt} />
                    </p>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <footer className="border-t border-slate-100 px-4 py-2 text-right">
            <Link to="/user/settings" className="text-sm font-medium text-brand-700 hover:underline" onClick={() => setOpen(false)}>
              Email settings
            </Link>
          </footer>
        </section>
      ) : null}
    </div>
  );
}
