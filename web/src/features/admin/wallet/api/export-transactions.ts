// GET admin/transactions/export: the filtered ledger as CSV text, fetched with the administrator's
// token (a bare link would carry none).
import type { AdminTransactionQuery } from '@schemas/wallet';
import { asQuery } from '@/features/admin/adminApi';
import { client, readText } from '@/lib/api';

export const exportTransactions = (q: Omit<AdminTransactionQuery, 'page' | 'limit'>) =>
  readText(client.admin.transactions.export.$get({ query: asQuery(q) }, { headers: { Accept: 'text/csv' } }));
