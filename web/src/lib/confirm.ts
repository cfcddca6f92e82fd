// The one confirmation dialog (sweetalert2) for actions that change money, roles or access.
import Swal from 'sweetalert2';

const BRAND = '#4f46e5';
const DANGER = '#e11d48';
const NEUTRAL = '#64748b';

export interface ConfirmOptions {
  title: string;
  text: string;
  confirmText?: string;
  cancelText?: string;
  /** Red confirm button, for what takes something away (suspending, removing, canceling). */
  danger?: boolean;
}

export async function confirmAction({ title, text, confirmText = 'Yes', cancelText = 'No', danger = false }: ConfirmOptions): Promise<boolean> {
  const answer = await Swal.fire({
    title,
    text,
    icon: 'warning',
    showCancelButton: true,
    confirmButtonText: confirmText,
    cancelButtonText: cancelText,
    confirmButtonColor: danger ? DANGER : BRAND,
    cancelButtonColor: NEUTRAL,
    focusCancel: danger,
  });
  return answer.isConfirmed;
}

/** Asks for a line of text (e.g. a reason) before going on; null when canceled. */
export async function promptText({
  title, text, inputLabel, required, confirmText = 'Yes', cancelText = 'No', danger = false,
}: ConfirmOptions & { inputLabel: string; /** The message shown while the field is empty, when an answer is required. */ required?: string }): Promise<string | null> {
  const answer = await Swal.fire({
    title,
    text,
    icon: 'warning',
    input: 'text',
    inputLabel,
    inputAttributes: { maxlength: '500', 'aria-label': inputLabel },
    inputValidator: required ? (value: string) => (value.trim() ? undefined : required) : undefined,
    showCancelButton: true,
    confirmButtonText: confirmText,
    cancelButtonText: cancelText,
    confirmButtonColor: danger ? DANGER : BRAND,
    cancelButtonColor: NEUTRAL,
  });
  return answer.isConfirmed ? String(answer.value ?? '').trim() : null;
}

export function showSuccess(title: string): void {
  void Swal.fire({ title, icon: 'success', confirmButtonColor: BRAND });
}
