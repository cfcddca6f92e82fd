// The cells both order tables show, the user's and the administrator's.
import type { PendingRequest } from '@vocabulary';
import { cx } from '@/lib/hooks';
import { Badge, StatusBadge } from './StatusBadge';

/** An order's service with the link it was for under it, cut to the column's `className` width (whole on hover); the link opens in a new tab. */
export function OrderServiceCell({ name, link, className }: { name: string; link: string; className: string }) {
  return (
    <div className={cx('min-w-0', className)}>
      <p className="line-clamp-2 font-medium break-words text-slate-900" title={name}>
        {name}
      </p>
      <a href={link} target="_blank" rel="noreferrer noopener" title={link} className="block truncate text-xs text-brand-700 hover:underline">
        {link}
      </a>
    </div>
  );
}

/**
 * An order's charge with what was refunded of it under it; `format` writes an amount (the shop's currency, or the visitor's).
 * The amounts never break; the refund's label may go on a line of its own, so the column is as wide as an amount, not a sentence.
 */
export function OrderChargeCell({ order: { charge, refunded }, format }: { order: { charge: string; refunded: string }; format: (amount: string) => string }) {
  return (
    <span className="whitespace-nowrap tabular-nums">
      {format(charge)}
      {Number(refunded) > 0 ? (
        <span className="block whitespace-normal text-xs text-emerald-700">
          Refunded <span className="whitespace-nowrap">{format(refunded)}</span>
        </span>
      ) : null}
    </span>
  );
}

/**
 * An order's status with, under it, a refill or cancel the provider has not answered yet: a note beside the status rather
 * than in its place, since the order goes on (Pending, In progress, Completed) until the provider says otherwise.
 */
export function OrderStatusCell({
  order: { status, pendingRequest },
  className,
}: {
  order: { status: string; pendingRequest?: PendingRequest };
  className?: string;
}) {
  return (
    <div className={cx('flex flex-col gap-1', className)}>
      <StatusBadge status={status} />
      {pendingRequest ? (
        <span title="Asked of the provider; waiting for its answer">
          <Badge tone="amber">{pendingRequest}</Badge>
        </span>
      ) : null}
    </div>
  );
}
