// POST user/admin-credit-user-wallet {amount (number), reference, userId} (spec section 7).
import { client, read } from '@/lib/api';

export const creditUserWallet = (body: { amount: number; reference: string; userId: string | number }) =>
  read(client.user['admin-credit-user-wallet'].$post({ json: body }));
