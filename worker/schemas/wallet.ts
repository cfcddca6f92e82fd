// Wallet request-body schemas shared by the Worker (validation) and the SPA (forms).
// Amounts are NAIRA. Messages are the spec's, to the letter. Pure zod, no other imports.
import { z } from 'zod';

export const INVALID_AMOUNT = 'Please enter a valid amount';
export const INVALID_REFERENCE = 'Please enter a valid reference';

/** A positive naira amount with at most 2 decimals (kobo precision). */
const isNairaAmount = (n: number) => Number.isFinite(n) && n > 0 && Math.abs(Math.round(n * 100) - n * 100) < 1e-6;

/** Text typed into an amount input ("1,500.50" is accepted) to a number, NaN when unreadable. */
export const parseAmountText = (text: string): number => {
  const cleaned = text.replace(/[,\s₦]/g, '');
  return /^\d+(\.\d+)?$/.test(cleaned) ? Number(cleaned) : Number.NaN;
};

/** POST user/admin-credit-user-wallet: admin credits a user's wallet by hand (spec 3, 5). */
export const adminCreditSchema = z.object({
  amount: z.number({ error: INVALID_AMOUNT }).refine(isNairaAmount, { error: INVALID_AMOUNT }),
  reference: z.string({ error: INVALID_REFERENCE }).trim().min(1, { error: INVALID_REFERENCE }).max(200, { error: INVALID_REFERENCE }),
  userId: z.union([z.number().int().positive(), z.string().trim().min(1)], { error: 'userId is required' }),
});
export type AdminCreditInput = z.infer<typeof adminCreditSchema>;

/** The admin "Add fund" modal: amount is typed text; the modal turns it into a number before sending. */
export const adminCreditFormSchema = z.object({
  amount: z.string().refine((v) => isNairaAmount(parseAmountText(v)), { error: INVALID_AMOUNT }),
  reference: z.string().trim().min(1, { error: INVALID_REFERENCE }).max(200, { error: INVALID_REFERENCE }),
});
export type AdminCreditFormInput = z.infer<typeof adminCreditFormSchema>;

/** POST user/add-fund {amount}: start a card payment. Deposit limits come from site settings. */
export const addFundSchema = z.object({
  amount: z.number({ error: INVALID_AMOUNT }).refine(isNairaAmount, { error: INVALID_AMOUNT }),
});
export type AddFundInput = z.infer<typeof addFundSchema>;

/** The add-fund form, with the deposit limits of settings/public (either may be absent). */
export const addFundFormSchema = (limits: { minDeposit?: number | null; maxDeposit?: number | null } = {}) =>
  z.object({ amount: z.string() }).superRefine(({ amount }, ctx) => {
    const n = parseAmountText(amount);
    if (!isNairaAmount(n)) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: INVALID_AMOUNT });
      return;
    }
    const { minDeposit, maxDeposit } = limits;
    if (minDeposit != null && minDeposit > 0 && n < minDeposit) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `Minimum deposit is ${minDeposit.toLocaleString('en-US')}` });
    } else if (maxDeposit != null && maxDeposit > 0 && n > maxDeposit) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `Maximum deposit is ${maxDeposit.toLocaleString('en-US')}` });
    }
  });
export type AddFundFormInput = { amount: string };

/** POST user/verify-payment: the payload stored before leaving for the payment provider. */
export const verifyPaymentSchema = z.object({
  checkoutUrl: z.string().trim().min(1).max(2048),
  signature: z.string().trim().min(1).max(1024),
  amount: z.union([z.number(), z.string().trim().min(1)]),
});
export type VerifyPaymentInput = z.infer<typeof verifyPaymentSchema>;
