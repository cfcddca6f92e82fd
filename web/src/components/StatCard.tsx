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

/**
 * The widest a character of the figure runs, in em (bold digits and capitals of the widest fallback font): the
 * figure's type is sized so that its length in these fits the room it has.
 */
const WIDEST_CHARACTER_EM = 0.66;

/**
 * Type for the figure that fits it on one line, up to text-xl, so "NGN 2,352,178.90" never breaks its currency code
 * off. `--figure-room` is the width the figure has, from the card's `cqi` (hundredths of its width: the card is a size
 * container). A browser without container units keeps text-xl and wraps the figure after its currency code instead.
 */
const fittedFontSize = (value: string) => `min(var(--text-xl), calc(var(--figure-room) / ${(value.length * WIDEST_CHARACTER_EM).toFixed(2)}))`;

/**
 * A figure with its label and icon; `hint` is a line under the value (a link, a comparison). The figure is never cut.
 * A card narrower than 18rem (four in a laptop's row, two on a phone) puts a smaller icon beside the label and gives
 * the figure the card's whole width.
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
  const narrow = '@max-[18rem]:col-span-2';
  return (
    <div className="card @container p-4">
      <div className="grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-4 [--figure-room:calc(100cqi-3.75rem)] @max-[18rem]:gap-x-2.5 @max-[18rem]:[--figure-room:100cqi]">
        <span
          className={cx(
            'row-span-3 flex h-11 w-11 items-center justify-center rounded-xl @max-[18rem]:row-span-1 @max-[18rem]:h-8 @max-[18rem]:w-8',
            TONES[tone],
          )}
        >
          <Icon name={icon} className="h-5 w-5 @max-[18rem]:h-4 @max-[18rem]:w-4" />
        </span>
        <p className="self-end text-sm text-slate-600 @max-[18rem]:self-center">{label}</p>
        {loading ? (
          <Skeleton className={cx('mt-1 h-6 w-24 self-start', narrow)} />
        ) : (
          <p
            className={cx(
              'self-start text-xl font-bold [overflow-wrap:anywhere] text-slate-900 tabular-nums supports-[font-size:1cqi]:whitespace-nowrap',
              narrow,
            )}
            style={{ fontSize: fittedFontSize(value) }}
          >
            {/* Amounts carry a no-break space after the currency code: breakable here for the wrapping fallback. */}
            {value.replace(/\u00a0/g, ' ')}
          </p>
        )}
        {hint && !loading ? <div className={cx('mt-0.5 self-start text-xs text-slate-500', narrow)}>{hint}</div> : null}
      </div>
    </div>
  );
}
