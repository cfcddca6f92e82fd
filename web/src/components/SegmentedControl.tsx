import { useId } from 'react';
import { cx } from '@/lib/hooks';

/** A small set of exclusive choices shown side by side (radio buttons underneath, so arrows move between them). */
export function SegmentedControl<V extends string>({
  label,
  options,
  value,
  onChange,
  hideLabel = false,
}: {
  label: string;
  options: ReadonlyArray<{ value: V; label: string }>;
  value: V;
  onChange: (value: V) => void;
  hideLabel?: boolean;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className={hideLabel ? 'sr-only' : 'label'}>{label}</legend>
      <div className="inline-flex rounded-xl bg-slate-100 p-1">
        {options.map((option) => (
          <label
            key={option.value}
            className={cx(
              'flex min-h-9 cursor-pointer items-center rounded-lg px-3.5 text-sm font-semibold whitespace-nowrap transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600',
              value === option.value ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            <input type="radio" className="sr-only" name={name} value={option.value} checked={value === option.value} onChange={() => onChange(option.value)} />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
