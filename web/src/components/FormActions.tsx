import type { ReactNode } from 'react';
import { cx } from '@/lib/hooks';
import { Spinner } from './Spinner';

/** A form's submit button: disabled while the form is sent, a spinner announcing what is under way. */
export function SubmitButton({
  busy,
  busyLabel,
  disabled = false,
  className,
  children,
}: {
  busy: boolean;
  busyLabel: string;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <button type="submit" className={cx('btn btn-primary', className)} disabled={busy || disabled}>
      {busy ? <Spinner label={busyLabel} /> : null}
      {children}
    </button>
  );
}

const LAYOUTS = {
  /** Stacked on phones with the confirm button on top, side by side from `sm`. */
  dialog: { row: 'flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', button: 'btn' },
  /** Side by side at the right: a settings screen's save row. */
  page: { row: 'flex justify-end gap-2', button: 'btn' },
  /** Small buttons: a form opened inside a panel or a dialog's body. */
  inline: { row: 'flex justify-end gap-2', button: 'btn-sm' },
};

interface FormActionsProps {
  /** The confirm button's words, and (`busyLabel`) what it says instead while busy, e.g. 'Saving...'. */
  label: ReactNode;
  busyLabel?: ReactNode;
  busy: boolean;
  /** Disables the confirm button beyond `busy` (nothing to send yet). */
  disabled?: boolean;
  /** A confirm that does not submit a form (the dialog has none). */
  onConfirm?: () => void;
  /** The secondary button (Cancel, Back, Discard changes); absent, the confirm button stands alone. Disabled while busy. */
  onCancel?: () => void;
  cancelLabel?: ReactNode;
  cancelDisabled?: boolean;
  layout?: keyof typeof LAYOUTS;
}

/** A form's closing row: the way out, then the confirm button, which says when it is busy. */
export function FormActions({
  label,
  busyLabel,
  busy,
  disabled = false,
  onConfirm,
  onCancel,
  cancelLabel = 'Cancel',
  cancelDisabled = false,
  layout = 'dialog',
}: FormActionsProps) {
  const { row, button } = LAYOUTS[layout];
  return (
    <div className={row}>
      {onCancel ? (
        <button type="button" className={`${button} btn-secondary`} onClick={onCancel} disabled={busy || cancelDisabled}>
          {cancelLabel}
        </button>
      ) : null}
      <button type={onConfirm ? 'button' : 'submit'} className={`${button} btn-primary`} onClick={onConfirm} disabled={busy || disabled}>
        {busy ? (busyLabel ?? label) : label}
      </button>
    </div>
  );
}

/** A settings form's save row: Discard changes (given `onDiscard`, while there are any), then the save button. */
export function SaveBar({ label, busy, dirty = false, onDiscard }: { label: string; busy: boolean; dirty?: boolean; onDiscard?: () => void }) {
  return (
    <FormActions layout="page" onCancel={onDiscard} cancelLabel="Discard changes" cancelDisabled={!dirty} busy={busy} label={label} busyLabel="Saving..." />
  );
}
