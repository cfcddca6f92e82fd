// Form schemas derived from the Worker's shared wallet schemas (worker/schemas/wallet.ts), so the
// forms and the endpoints cannot drift apart. Amount inputs are text; the schemas accept numeric text.

import { addFundSchema, adminCreditSchema } from '@schemas/wallet';
import { z } from '@schemas/zod';

/** Text typed into an amount input ("1,500.50" is accepted) to a number, NaN when unreadable. */
export const parseAmountText = (text: string | number | null | undefined): number => {
  const cleaned = String(text ?? '').replace(/[,\s₦]/g, '');
  return /^\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
};

const stripGrouping = (v: unknown) => (typeof v === 'string' ? v.replace(/[,\s₦]/g, '') : v);

/** Admin "Add fund" modal: 'Please enter a valid amount' / 'Please enter a valid reference'. */
export const adminCreditFormSchema = z.object({
  amount: z.preprocess(stripGrouping, adminCreditSchema.shape.amount),
  reference: adminCreditSchema.shape.reference,
});
export type AdminCreditFormValues = z.input<typeof adminCreditFormSchema>;
export type AdminCreditFormOutput = z.output<typeof adminCreditFormSchema>;

/** User add-fund form with the deposit limits of settings/public (either may be absent). */
export const addFundFormSchema = (limits: { minDeposit?: number | null; maxDeposit?: number | null } = {}) =>
  z.object({ amount: z.preprocess(stripGrouping, addFundSchema.shape.amount) }).superRefine(({ amount }, ctx) => {
    const n = Number(amount);
    const { minDeposit, maxDeposit } = limits;
    if (minDeposit != null && minDeposit > 0 && n < minDeposit) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `Minimum deposit is ${minDeposit.toLocaleString('en-US')}` });
    } else if (maxDeposit != null && maxDeposit > 0 && n > maxDeposit) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `Maximum deposit is ${maxDeposit.toLocaleString('en-US')}` });
    }
  });
export type AddFundFormValues = { amount: string };
