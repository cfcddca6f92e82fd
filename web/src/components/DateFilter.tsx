import { useId } from 'react';

/** A date input for a filter bar, with a small visible label (a date input shows no placeholder). */
export function DateFilter({
  label,
  value,
  onChange,
  min,
  max,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  min?: string;
  max?: string;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-600">
        {label}
      </label>
      <input id={id} type="date" className="input" value={value} min={min || undefined} max={max || undefined} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
