// The one confirmation dialog (sweetalert2) for actions that change money, roles or access.
// Titles and texts often carry what users typed (names, key names, service names), so every
// string goes in as text: `titleText` and `text` are written with innerText/textContent, and
// the options sweetalert2 writes as HTML (button captions, validation messages) are escaped.
import Swal from 'sweetalert2';

const BRAND = '#4f46e5';
const DANGER = '#e11d48';
const NEUTRAL = '#64748b';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]);

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
    titleText: title,
    text,
    icon: 'warning',
    showCancelButton: true,
    confirmButtonText: escapeHtml(confirmText),
    cancelButtonText: escapeHtml(cancelText),
    confirmButtonColor: danger ? DANGER : BRAND,
    cancelButtonColor: NEUTRAL,
    focusCancel: danger,
  });
  return answer.isConfirmed;
}

/** Asks for a line of text (e.g. a reason) before going on; null when canceled. */
export async function promptText({
  title,
  text,
  inputLabel,
  required,
  confirmText = 'Yes',
  cancelText = 'No',
  danger = false,
}: ConfirmOptions & { inputLabel: string /** The message shown while the field is empty, when an answer is required. */; required?: string }): Promise<
  string | null
> {
  const answer = await Swal.fire({
    titleText: title,
    text,
    icon: 'warning',
    input: 'text',
    inputLabel,
    inputAttributes: { maxlength: '500', 'aria-label': inputLabel },
    inputValidator: required ? (value: string) => (value.trim() ? undefined : escapeHtml(required)) : undefined,
    showCancelButton: true,
    confirmButtonText: escapeHtml(confirmText),
    cancelButtonText: escapeHtml(cancelText),
    confirmButtonColor: danger ? DANGER : BRAND,
    cancelButtonColor: NEUTRAL,
  });
  return answer.isConfirmed ? String(answer.value ?? '').trim() : null;
}

export function showSuccess(title: string): void {
  void Swal.fire({ titleText: title, icon: 'success', confirmButtonColor: BRAND });
}
