import type { ReactNode } from 'react';
import { cx } from '@/lib/hooks';
import { Icon } from './Icon';

const TONES = {
  rose: 'bg-rose-50 text-rose-900 ring-rose-200',
  amber: 'bg-amber-50 text-amber-900 ring-amber-200',
  violet: 'bg-violet-50 text-violet-900 ring-violet-200',
} as const;

/** A boxed message with the alert icon, coloured by its urgency: what someone must know before going on (money owed, test mode, a refused key). */
export function Notice({
  tone,
  role = 'alert',
  label,
  details,
  children,
}: {
  tone: keyof typeof TONES;
  role?: 'alert' | 'note';
  /** The notice's name for screen readers (and tests), when its first words do not name it. */
  label?: string;
  /** What follows the message, under it (a list of the cases it is about). */
  details?: ReactNode;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is 'alert' or 'note', and both take a name; Biome checks the element's own role, not one given as a value
    <div role={role} aria-label={label} className={cx('rounded-xl px-4 py-3 text-sm ring-1 ring-inset', TONES[tone])}>
      <p className="flex items-start gap-2">
        <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
        <span>{children}</span>
      </p>
      {details}
    </div>
  );
}
