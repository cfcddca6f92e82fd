import { useMutation } from '@tanstack/react-query';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { handleApiError } from '@/lib/api';
import { toast } from '@/lib/toast';

/** An administrator's change: the server's message (or `done`) as a toast, every admin list read again, a refusal shown as the server worded it. */
export function useAdminChange<V = void>(change: (variables: V) => Promise<{ message?: string }>, done: string | ((variables: V) => string)) {
  const refresh = useRefreshAdmin();
  return useMutation({
    mutationFn: change,
    onSuccess: (res, variables) => {
      toast.success(res.message || (typeof done === 'string' ? done : done(variables)));
      void refresh();
    },
    onError: (error) => handleApiError(error),
  });
}
