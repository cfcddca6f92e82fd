import { Skeleton } from '@/components/Skeleton';

/** A services list's placeholder rows while its first page loads, announced as loading; both catalogues show one. */
export function ServicesLoading({ rows, className, rowClassName }: { rows: number; className: string; rowClassName: string }) {
  return (
    <div className={className} role="status" aria-label="Loading services">
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows, never reordered: the position is all that tells them apart
        <Skeleton key={i} className={rowClassName} />
      ))}
    </div>
  );
}
