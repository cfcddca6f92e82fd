// POST user/verify-payment: the stored payment, or the reference the provider put in the return address.

import type { verifyPaymentSchema } from '@schemas/wallet';
import type { z } from 'zod';
import { client, read } from '@/lib/api';

export const verifyPayment = (input: z.input<typeof verifyPaymentSchema>) => read(client.user['verify-payment'].$post({ json: input }));
