import { cx } from '@/lib/shellHooks';

/** A spinning ring. Announced as "Loading" unless `label` is '' (decorative, e.g. inside a button). */
export function Spinner({ className = 'h-5 w-5', label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role={label ? 'status' : undefined} className="inline-flex items-center">
      <svg className={cx('animate-spin', className)} viewBox="0 0 24 24" fill="none" aria-hidden="true">
        <circle cx="12" cy="12" r="9.5" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
        <path d="M21.5 12A9.5 9.5 0 0 0 12 2.5" stroke="currentColor" strokeWidth="3" strokeLinecap="round" />
      </svg>
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}

/** Full-area spinner: lazy screens and the access guard while the session check runs. */
export function PageSpinner({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className={cx('flex w-full items-center justify-center text-brand-600', fullScreen ? 'min-h-dvh' : 'min-h-[50vh]')}>
      <Spinner className="h-10 w-10" />
    </div>
  );
}
