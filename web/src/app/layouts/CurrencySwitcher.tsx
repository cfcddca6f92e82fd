// The display-currency switcher of the public header and the user shell's top bar: a native
// <select> (keyboard, screen readers and phones' pickers for free), NGN by default, offering only
// the currencies the rates answer contains; disabled with just NGN until the rates load.
import { useId } from 'react';
import { ShellIcon } from '@/components/ShellIcon';
import { isDisplayCurrency } from '@/lib/currency';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { cx } from '@/lib/shellHooks';

const NAMES: Record<string, string> = {
  NGN: 'Nigerian naira',
  USD: 'US dollar',
  EUR: 'Euro',
  GBP: 'British pound',
  GHS: 'Ghanaian cedi',
  KES: 'Kenyan shilling',
  ZAR: 'South African rand',
};

/** `compact`: narrower on a phone, where the user shell's top bar holds the balance and four buttons beside it. */
export function CurrencySwitcher({ className, compact = false }: { className?: string; compact?: boolean }) {
  const id = useId();
  const { currency, options, setCurrency } = useDisplayCurrency();
  return (
    <span className={cx('relative inline-flex items-center', className)}>
      <label htmlFor={id} className="sr-only">
        Display currency
      </label>
      <select
        id={id}
        value={currency}
        disabled={options.length < 2}
        onChange={(e) => {
          if (isDisplayCurrency(e.target.value)) setCurrency(e.target.value);
        }}
        title={`Prices shown in ${NAMES[currency] ?? currency}`}
        // 44 px tall as every other header control: a phone's finger needs it, and the 64 px header has the room.
        className={cx(
          'h-11 cursor-pointer appearance-none rounded-lg border border-slate-200 bg-white py-0 pr-6 pl-2 text-xs font-semibold text-slate-700 transition hover:border-slate-300 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-brand-600 disabled:cursor-default disabled:opacity-70 sm:text-sm',
          compact && 'max-sm:pr-4 max-sm:pl-1.5',
        )}
      >
        {options.map((c) => (
          <option key={c} value={c} aria-label={`${c} – ${NAMES[c] ?? c}`}>
            {c}
          </option>
        ))}
      </select>
      <ShellIcon name="chevronDown" className={cx('pointer-events-none absolute right-1.5 h-3.5 w-3.5 text-slate-500', compact && 'max-sm:right-0.5')} />
    </span>
  );
}
