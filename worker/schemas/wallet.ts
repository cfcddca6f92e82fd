import { LEDGER_SOURCES } from '../../vocabulary';
import { dateQueryParam, EMAIL_PATTERN, paginationSchema, trimmedText } from './common';
import { z } from './zod';

/** A positive naira amount with at most two decimals, given as a number or numeric text; parsed to its exact text form. */
export const nairaAmount = (message: string) =>
  z
    .union([z.number(), z.string().trim()], { error: message })
    .transform((value) => String(value))
    .refine((value) => /^\d{1,10}(\.\d{1,2})?$/.test(value) && /[1-9]/.test(value), { error: message });

/** Admin credit (spec section 5): amount > 0 and a reference, with the spec's messages. */
export const adminCreditSchema = z.object({
  amount: nairaAmount('Please enter a valid amount'),
  reference: trimmedText({ required: 'Please enter a valid reference', max: 100, tooLong: 'Reference must be at most 100 characters' }),
  userId: z.coerce.number({ error: 'userId is required' }).int({ error: 'userId is required' }).positive({ error: 'userId is required' }),
});
export type AdminCreditInput = z.infer<typeof adminCreditSchema>;

export const adminDebitSchema = adminCreditSchema.extend({
  reason: trimmedText({ required: 'Please give a reason', min: 3, max: 200, tooLong: 'Reason must be at most 200 characters' }),
});
export type AdminDebitInput = z.infer<typeof adminDebitSchema>;

export const addFundSchema = z.object({ amount: nairaAmount('Please enter a valid amount') });
export type AddFundInput = z.infer<typeof addFundSchema>;

/**
 * What the payment confirmation screen sends: the payload it kept in session storage, or, once
 * that is gone (a reload, Back, the provider's return opened in another tab), the reference the
 * provider put in the return address (Flutterwave adds its transaction id).
 */
export const verifyPaymentSchema = z.union(
  [
    z.object({
      checkoutUrl: z.string({ error: 'checkoutUrl is required' }).min(1, { error: 'checkoutUrl is required' }).max(2000),
      signature: z.string({ error: 'signature is required' }).min(1, { error: 'signature is required' }).max(300),
      amount: nairaAmount('amount is invalid'),
    }),
    z.object({
      reference: z
        .string({ error: 'reference is required' })
        .trim()
        .regex(/^[A-Za-z0-9.=_-]{1,100}$/, { error: 'reference is invalid' }),
      transactionId: z
        .string()
        .regex(/^[1-9]\d{0,18}$/, { error: 'transactionId is invalid' })
        .optional(),
    }),
  ],
  { error: 'Send the stored payment (checkoutUrl, signature, amount) or its reference.' },
);
export type VerifyPaymentInput = z.infer<typeof verifyPaymentSchema>;

export const transactionQuerySchema = paginationSchema.extend({
  type: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2)], { error: 'type must be 1 (deposit) or 2 (withdrawal)' }))
    .optional(),
  from: dateQueryParam('from'),
  to: dateQueryParam('to'),
});
export type TransactionQuery = z.infer<typeof transactionQuerySchema>;

export const adminTransactionQuerySchema = transactionQuerySchema.extend({
  userId: z.coerce.number().int().positive({ error: 'userId must be a positive number' }).max(2_147_483_647, { error: 'userId is out of range' }).optional(),
  source: z.enum(LEDGER_SOURCES, { error: 'Unknown source' }).optional(),
  search: z.string().trim().max(100).optional(),
  /** The user by address, as administrators know them: resolved in the list's own statement, no lookup first. */
  email: z.string().trim().toLowerCase().max(254, { error: 'email is invalid' }).regex(EMAIL_PATTERN, { error: 'email is invalid' }).optional(),
});
export type AdminTransactionQuery = z.infer<typeof adminTransactionQuerySchema>;

/** POST admin/transactions/exports: the Transactions screen's filters, which pick the file's rows. */
export const adminTransactionExportSchema = adminTransactionQuerySchema.omit({ page: true, limit: true });
export type AdminTransactionExportInput = z.infer<typeof adminTransactionExportSchema>;

/** GET admin/reconciliation: 'full' reads every row; 'recent' (the default once an hourly run came out clean) what was written since. */
export const reconciliationQuerySchema = z.object({
  scope: z.enum(['recent', 'full'], { error: 'scope must be recent or full' }).optional(),
});
