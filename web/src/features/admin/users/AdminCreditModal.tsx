// Admin "Add fund" modal (spec sections 2, 5, 8): Amount + Reference, confirmation dialog
// before sending, 'Loading...' while sending, 'Added successfully!' after, then close and reset.
// The user is told of the credit (bell and email) with its amount and reference, so the hint says the reference is theirs to read.

import { useMutation } from '@tanstack/react-query';
import { TextField } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Modal } from '@/components/Modal';
import { handleApiError } from '@/lib/api';
import { confirmAction, showSuccess } from '@/lib/confirm';
import { type AdminCreditFormOutput, type AdminCreditFormValues, adminCreditFormSchema } from '@/lib/walletForms';
import { useZodForm } from '@/lib/zodForm';
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
  const { field, handleSubmit, reset } = useZodForm(adminCreditFormSchema, EMPTY);
  const credit = useMutation({
    mutationFn: (values: AdminCreditFormOutput) => creditUserWallet({ amount: Number(values.amount), reference: values.reference, userId }),
    onSuccess: () => {
      showSuccess('Added successfully!');
      onCredited();
      reset(EMPTY);
      onClose();
    },
    onError: (error) => handleApiError(error),
  });
  // Busy once confirmed, not while the confirmation is open.
  const sending = credit.isPending;

  const close = () => {
    if (sending) return;
    reset(EMPTY);
    onClose();
  };

  const onValid = async (values: AdminCreditFormOutput) => {
    if (await confirmAction({ title: 'Are you sure?', text: 'You want to proceed with this action?' })) credit.mutate(values);
  };

  return (
    <Modal open={open} onClose={close} busy={sending} title="Add Funds" description={userName ? `Credit ${userName}'s wallet by hand.` : undefined}>
      <form noValidate onSubmit={handleSubmit(onValid)} className="space-y-4">
        <TextField label="Amount" inputMode="decimal" autoComplete="off" prefix="NGN" placeholder="0.00" {...field('amount')} />
        <TextField
          label="Reference"
          autoComplete="off"
          placeholder="e.g. Bank transfer 12 March"
          hint="The user sees it: in their notification of the credit and in their transaction history."
          {...field('reference')}
        />
        <FormActions onCancel={close} busy={sending} label="Submit" busyLabel="Loading..." />
      </form>
    </Modal>
  );
}
