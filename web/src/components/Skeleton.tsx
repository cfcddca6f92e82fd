import { cx } from '@/lib/hooks';

/** Grey placeholder with the size of the content to come (no layout shift). */
export function Skeleton({ className = 'h-4 w-full' }: { className?: string }) {
  return <span aria-hidden="true" className={cx('block animate-pulse rounded-md bg-slate-200', className)} />;
}

/** A list of skeleton rows, announced once as loading. */
export function SkeletonRows({ rows = 5, className = 'h-14' }: { rows?: number; className?: string }) {
  return (
    <div role="status" aria-label="Loading" className="space-y-2">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className={cx('w-full rounded-xl', className)} />
      ))}
    </div>
  );
}
