import type { ReactNode } from 'react';
import { cx } from '@/lib/hooks';
import { Icon, type IconName } from './Icon';
import { Skeleton } from './Skeleton';

export type StatTone = 'brand' | 'emerald' | 'rose' | 'amber' | 'sky' | 'slate';

const TONES: Record<StatTone, string> = {
  brand: 'bg-brand-50 text-brand-700',
  emerald: 'bg-emerald-50 text-emerald-700',
  rose: 'bg-rose-50 text-rose-700',
  amber: 'bg-amber-50 text-amber-700',
  sky: 'bg-sky-50 text-sky-700',
  slate: 'bg-slate-100 text-slate-700',
};

/** Values longer than this get a smaller type so that four cards in a row still show them whole. */
const LONG_VALUE = 13;

/**
 * A figure with its label and icon; `hint` is a line under the value (a link, a comparison).
 * The figure is never cut: a long amount takes a smaller type and may wrap after its currency code
 * (amounts are formatted with a no-break space there, made breakable here), then anywhere.
 */
export function StatCard({
  icon,
  label,
  value,
  tone = 'brand',
  loading = false,
  hint,
}: {
  icon: IconName;
  label: string;
  value: string;
  tone?: StatTone;
  loading?: boolean;
  hint?: ReactNode;
}) {
  return (
    <div className="card flex items-center gap-4 p-4">
      <span className={cx('flex h-11 w-11 shrink-0 items-center justify-center rounded-xl', TONES[tone])}>
        <Icon name={icon} />
      </span>
      <div className="min-w-0">
        <p className="text-sm text-slate-600">{label}</p>
        {loading ? (
          <Skeleton className="mt-1 h-6 w-24" />
        ) : (
          <p className={cx('font-bold [overflow-wrap:anywhere] text-slate-900 tabular-nums', value.length > LONG_VALUE ? 'text-lg' : 'text-xl')}>
            {value.replace(/\u00a0/g, ' ')}
          </p>
        )}
        {hint && !loading ? <div className="mt-0.5 text-xs text-slate-500">{hint}</div> : null}
      </div>
    </div>
  );
}
