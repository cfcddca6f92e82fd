// POST user/verify-payment: the stored payment, or the reference the provider put in the return address.
// Asked again every few seconds while the answer can still change (not settled yet, or the check did
// not get through), so the page turns into the success screen once the provider's webhook credits the wallet.

import type { verifyPaymentSchema } from '@schemas/wallet';
import { type QueryState, queryOptions } from '@tanstack/react-query';
import { ORDER_STATUS } from '@vocabulary';
import type { z } from 'zod';
import { client, isApiError, read } from '@/lib/api';

export type PaymentToVerify = z.input<typeof verifyPaymentSchema>;

export const verifyPayment = (input: PaymentToVerify) => read(client.user['verify-payment'].$post({ json: input }));

export type PaymentVerdict = Awaited<ReturnType<typeof verifyPayment>>['data'];

/** How often an undecided payment is asked about again, and for how long after the last Check again. */
export const PAYMENT_RECHECK_MS = 3000;
export const PAYMENT_RECHECK_WINDOW_MS = 60_000;

/** A check that did not get through (no answer, the server or the provider down, too many calls): the next may. */
export const couldGetThrough = (error: unknown) =>
  isApiError(error) && (error.status === null || error.status >= 500 || error.status === 429 || error.status === 408);

/** Only "credited" and "declined" are final: anything else may still become either. */
export const isFinal = (verdict: PaymentVerdict | undefined) => verdict?.orderStatus === ORDER_STATUS.success || verdict?.orderStatus === ORDER_STATUS.failed;

/** Whether the last check leaves the payment undecided in a way that asking again can settle. */
export function worthAskingAgain({ status, data, error }: QueryState<PaymentVerdict, Error>): boolean {
  return status === 'error' ? couldGetThrough(error) : status === 'success' && !isFinal(data);
}

/**
 * Not under the wallet's keys: the balances re-read after a credit must not verify the payment again.
 * Retries are the page's own polling (a failed check is shown, not hidden behind silent retries), and
 * nothing is kept once the page is left, so coming back always asks afresh.
 */
export const paymentVerdictQuery = (input: PaymentToVerify, recheckUntil: number) =>
  queryOptions({
    queryKey: ['payment-verdict', input] as const,
    queryFn: async () => (await verifyPayment(input)).data,
    retry: false,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchIntervalInBackground: true,
    refetchInterval: (query) => (worthAskingAgain(query.state) && Date.now() < recheckUntil ? PAYMENT_RECHECK_MS : false),
  });
