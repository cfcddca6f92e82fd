// The platform filter shared by the services list and the order form's service picker.
import { Icon } from '@/components/Icon';
import { PlatformBadge } from '@/components/PlatformBadge';
import { cx } from '@/lib/hooks';

interface Props {
  platforms: string[];
  /** '' for every platform. */
  value: string;
  onChange: (platform: string) => void;
  allLabel: string;
}

export function PlatformChips({ platforms, value, onChange, allLabel }: Props) {
  return (
    // min-w-0: a fieldset is as wide as its content by default, which would stop the chips scrolling sideways.
    <fieldset className="min-w-0">
      <legend className="sr-only">Platform</legend>
      <div className="-mx-1 flex gap-2 overflow-x-auto px-1 pb-1">
        {['', ...platforms].map((p) => (
          <button
            key={p || 'all'}
            type="button"
            aria-pressed={value === p}
            onClick={() => onChange(p)}
            className={cx(
              'inline-flex min-h-10 shrink-0 items-center gap-2 rounded-full border px-3.5 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-brand-600',
              value === p ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-200 bg-white text-slate-700 hover:border-slate-300',
            )}
          >
            {p ? <PlatformBadge platform={p} className="h-5 w-5 rounded-md text-[9px]" /> : <Icon name="globe" className="h-4 w-4" />}
            {p || allLabel}
          </button>
        ))}
      </div>
    </fieldset>
  );
}
