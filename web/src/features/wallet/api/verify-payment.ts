// POST user/verify-payment: the stored payment, or the reference the provider put in the return address.
import type { z } from 'zod';
import type { verifyPaymentSchema } from '@schemas/wallet';
import { client, read } from '@/lib/api';

export const verifyPayment = (input: z.input<typeof verifyPaymentSchema>) => read(client.user['verify-payment'].$post({ json: input }));
