// POST admin/transactions/exports: asks the server's queue for the file of the ledger rows these filters pick; the
// answer is the export, put where the screen reads it so the poll starts from there.
import type { AdminTransactionExportInput } from '@schemas/wallet';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { transactionsExportQueryOptions } from './get-transactions-export';

export const startTransactionsExport = async (filters: AdminTransactionExportInput) =>
  (await read(client.admin.transactions.exports.$post({ json: filters }))).data;

export function useStartTransactionsExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startTransactionsExport,
    onSuccess: (created) => queryClient.setQueryData(transactionsExportQueryOptions(created.id).queryKey, created),
  });
}
