import { type ReactNode, useId } from 'react';
import { cx } from '@/lib/hooks';

/** A dashboard card named by its heading (screen readers list it as a region), with an optional action beside the title, such as a "View all" link. */
export function Panel({ title, action, className, children }: { title: ReactNode; action?: ReactNode; className?: string; children: ReactNode }) {
  const id = useId();
  const heading = (
    <h2 id={id} className="font-semibold text-slate-900">
      {title}
    </h2>
  );
  return (
    <section className={cx('card p-4 sm:p-5', className)} aria-labelledby={id}>
      {action ? (
        <div className="flex items-center justify-between gap-3">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
