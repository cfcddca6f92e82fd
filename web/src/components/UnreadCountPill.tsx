import { cx } from '@/lib/hooks';

/** An unread count as the pill and its labels say it: past 99 the shop stops counting, so "99+". */
export const unreadCountText = (count: number) => (count > 99 ? '99+' : String(count));

/** How many unread things (tickets, notifications), as a small red pill (its number is for the eye; links say it in words). */
export function UnreadCountPill({ count, id, className }: { count: number; id?: string; className?: string }) {
  return (
    <span
      id={id}
      className={cx(
        'inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-rose-500 px-1.5 text-[11px] leading-none font-bold text-white tabular-nums',
        className,
      )}
    >
      {unreadCountText(count)}
      <span className="sr-only"> unread</span>
    </span>
  );
}
