// Asks for a markup percentage: bulk markup on services, or a category's markup. Blank means
// "inherit" (the category's or the global markup) where the caller allows it.
import type { FormEvent } from 'react';
import { TextField, useTextFieldState } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Modal } from '@/components/Modal';
import { markupProblem } from './pricing';

interface Props {
  open: boolean;
  title: string;
  description?: string;
  initial?: string;
  /** What a blank field falls back to; absent = a value is required. */
  inheritLabel?: string;
  busy: boolean;
  onClose: () => void;
  onSubmit: (markupPercent: string | null) => void;
}

export function MarkupDialog({ open, title, description, busy, onClose, ...form }: Props) {
  return (
    <Modal open={open} onClose={onClose} busy={busy} size="sm" title={title} description={description}>
      {/* Mounted only while open, so each opening starts from `initial`. */}
      <MarkupForm busy={busy} onClose={onClose} {...form} />
    </Modal>
  );
}

function MarkupForm({ initial = '', inheritLabel, busy, onClose, onSubmit }: Pick<Props, 'initial' | 'inheritLabel' | 'busy' | 'onClose' | 'onSubmit'>) {
  const markup = useTextFieldState(initial);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = markupProblem(markup.value, { allowBlank: inheritLabel !== undefined });
    if (problem) markup.setError(problem);
    else onSubmit(markup.value.trim() === '' ? null : markup.value.trim());
  };
  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      <TextField
        label="Markup (%)"
        inputMode="decimal"
        autoComplete="off"
        placeholder={inheritLabel ?? 'e.g. 50'}
        hint={inheritLabel ? `Leave blank to use ${inheritLabel}.` : 'Price = provider cost × (1 + markup).'}
        {...markup.props}
      />
      <FormActions onCancel={onClose} busy={busy} label="Save markup" busyLabel="Saving..." />
    </form>
  );
}
