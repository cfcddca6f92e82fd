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
  /** 'email' where the box takes an address (the phone's keyboard offers the @). */
  type?: 'search' | 'email';
}

/** A search box with its icon; the label is for screen readers (the placeholder says the same). */
export function SearchInput({ label, value, onChange, placeholder, className, type = 'search' }: Props) {
  const id = useId();
  return (
    <div className={cx('relative', className)}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <Icon name="search" className="pointer-events-none absolute top-1/2 left-3.5 h-5 w-5 -translate-y-1/2 text-slate-400" />
      <input id={id} type={type} className="input pl-11" placeholder={placeholder ?? label} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}
