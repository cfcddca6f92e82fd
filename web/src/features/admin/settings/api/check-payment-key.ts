// POST admin/settings/payment/check: asks the provider about its secret key in effect again; a
// refusal is counted and its message thrown.
import type { PaymentKeyCheckInput } from '@schemas/settings';
import { client, read } from '@/lib/api';

export const checkPaymentKey = (provider: PaymentKeyCheckInput['provider']) => read(client.admin.settings.payment.check.$post({ json: { provider } }));
