// The cells both order tables show, the user's and the administrator's.
import { cx } from '@/lib/hooks';

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

/** An order's charge with what was refunded of it under it; `format` writes an amount (the shop's currency, or the visitor's). */
export function OrderChargeCell({ order: { charge, refunded }, format }: { order: { charge: string; refunded: string }; format: (amount: string) => string }) {
  return (
    <span className="whitespace-nowrap tabular-nums">
      {format(charge)}
      {Number(refunded) > 0 ? <span className="block text-xs text-emerald-700">Refunded {format(refunded)}</span> : null}
    </span>
  );
}
