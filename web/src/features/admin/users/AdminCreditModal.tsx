// Admin "Add fund" modal (spec sections 2, 5, 8): Amount + Reference, confirmation dialog
// before sending, 'Loading...' while sending, 'Added successfully!' after, then close and reset.

import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { TextField } from '@/components/Field';
import { Modal } from '@/components/Modal';
import { handleApiError } from '@/lib/api';
import { confirmAction, showSuccess } from '@/lib/confirm';
import { type AdminCreditFormOutput, type AdminCreditFormValues, adminCreditFormSchema } from '@/lib/walletForms';
import { creditUserWallet } from './api/credit-user-wallet';

const EMPTY: AdminCreditFormValues = { amount: '', reference: '' };

interface Props {
  open: boolean;
  onClose: () => void;
  userId: string | number;
  userName?: string;
  /** Refreshes the user's details after a credit. */
  onCredited: () => void;
}

export function AdminCreditModal({ open, onClose, userId, userName, onCredited }: Props) {
  const [sending, setSending] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<AdminCreditFormValues, unknown, AdminCreditFormOutput>({ resolver: zodResolver(adminCreditFormSchema), defaultValues: EMPTY });

  const close = () => {
    if (sending) return;
    reset(EMPTY);
    onClose();
  };

  const onValid = async (values: AdminCreditFormOutput) => {
    if (!(await confirmAction({ title: 'Are you sure?', text: 'You want to proceed with this action?' }))) return;
    setSending(true);
    try {
      await creditUserWallet({ amount: Number(values.amount), reference: values.reference, userId });
      showSuccess('Added successfully!');
      onCredited();
      reset(EMPTY);
      onClose();
    } catch (error) {
      handleApiError(error);
    } finally {
      setSending(false);
    }
  };

  return (
    <Modal open={open} onClose={close} busy={sending} title="Add Funds" description={userName ? `Credit ${userName}'s wallet by hand.` : undefined}>
      <form noValidate onSubmit={handleSubmit(onValid)} className="space-y-4">
        <TextField label="Amount" inputMode="decimal" autoComplete="off" prefix="₦" placeholder="0.00" error={errors.amount?.message} {...register('amount')} />
        <TextField
          label="Reference"
          autoComplete="off"
          placeholder="e.g. Bank transfer 12 March"
          error={errors.reference?.message}
          {...register('reference')}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" className="btn btn-secondary" onClick={close} disabled={sending}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? 'Loading...' : 'Submit'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
