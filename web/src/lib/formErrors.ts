import type { FieldErrors, FieldValues } from 'react-hook-form';
import { toast } from './toast';

/** The first validation message, in the order the form checks its fields. */
export function firstError<T extends FieldValues>(errors: FieldErrors<T>, order: ReadonlyArray<keyof T & string>): string | null {
  for (const name of order) {
    const message = errors[name]?.message;
    if (typeof message === 'string' && message) return message;
  }
  const root = errors.root?.message;
  return typeof root === 'string' && root ? root : null;
}

/** Validation errors show under the field and as a toast: the toast names the first one. */
export function toastFirstError<T extends FieldValues>(errors: FieldErrors<T>, order: ReadonlyArray<keyof T & string>): void {
  const message = firstError(errors, order);
  if (message) toast.error(message);
}
