import { cx } from '@/lib/hooks';

/** Grey placeholder with the size of the content to come (no layout shift). */
export function Skeleton({ className = 'h-4 w-full' }: { className?: string }) {
  return <span aria-hidden="true" className={cx('block animate-pulse rounded-md bg-slate-200', className)} />;
}

/** A list of skeleton rows, announced once as loading (`label` says what loads, where a screen loads several things). */
export function SkeletonRows({ rows = 5, className = 'h-14', label = 'Loading' }: { rows?: number; className?: string; label?: string }) {
  return (
    <div role="status" aria-label={label} className="space-y-2">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows, never reordered: the position is all that tells them apart
        <Skeleton key={i} className={cx('w-full rounded-xl', className)} />
      ))}
    </div>
  );
}
