// POST user/add-fund {amount}: the payment provider's checkout and what confirming the payment needs.
import { client, read } from '@/lib/api';

export const startDeposit = (amount: number) => read(client.user['add-fund'].$post({ json: { amount } }));
