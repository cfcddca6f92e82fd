import { useId } from 'react';
import { cx } from '@/lib/hooks';
import { Icon } from './Icon';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  /** For the box's place in a filter bar's grid. */
  className?: string;
}

/** A search box with its icon; the label is for screen readers (the placeholder says the same). */
export function SearchInput({ label, value, onChange, placeholder, className }: Props) {
  const id = useId();
  return (
    <div className={cx('relative', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Icon name="search" className="pointer-events-none absolute top-1/2 left-3.5 h-5 w-5 -translate-y-1/2 text-slate-400" />
      <input id={id} type="search" className="input pl-11" placeholder={placeholder ?? label} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
