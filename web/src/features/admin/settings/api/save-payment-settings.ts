// PUT admin/settings/payment: a key entered is checked with its provider before it is saved.
import type { PaymentSettingsInput } from '@schemas/settings';
import { client, read } from '@/lib/api';

export const savePaymentSettings = (body: PaymentSettingsInput) => read(client.admin.settings.payment.$put({ json: body }));
