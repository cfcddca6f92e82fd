import type { ReactNode } from 'react';
import { Icon, type IconName } from './Icon';

export function EmptyState({ icon = 'layers', title, children, action }: { icon?: IconName; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <span className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-600">
        <Icon name={icon} className="h-6 w-6" />
      </span>
      <p className="font-semibold text-slate-900">{title}</p>
      {children ? <div className="max-w-sm text-sm text-slate-600">{children}</div> : null}
      {action}
    </div>
  );
}

/** Inline failure with a retry button. */
export function ErrorState({ message, onRetry }: { message: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-rose-200 bg-rose-50 px-6 py-8 text-center text-rose-800">
      <Icon name="alert" className="h-6 w-6" />
      <p className="text-sm font-medium">{message}</p>
      {onRetry ? (
        <button type="button" className="btn-sm btn-secondary" onClick={onRetry}>
          <Icon name="refresh" className="h-4 w-4" /> Try again
        </button>
      ) : null}
    </div>
  );
}
