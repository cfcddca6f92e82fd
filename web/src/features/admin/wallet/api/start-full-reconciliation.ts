// POST admin/reconciliation/full: starts the full check on the server's queue (or answers with the one under way); the
// answer is the run, put where the screen reads it so the poll starts from there.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { client, handleApiError, read } from '@/lib/api';
import { fullReconciliationQueryOptions } from './get-full-reconciliation';

export const startFullReconciliation = async () => (await read(client.admin.reconciliation.full.$post())).data;

export function useStartFullReconciliation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startFullReconciliation,
    onSuccess: (run) => queryClient.setQueryData(fullReconciliationQueryOptions().queryKey, run),
    onError: (error) => handleApiError(error, { toast: true }),
  });
}
