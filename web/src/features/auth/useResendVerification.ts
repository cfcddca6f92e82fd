import { useMutation } from '@tanstack/react-query';
import { getErrorMessage, isApiError } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { toast } from '@/lib/toast';
import { resendVerification } from './api/resend-verification';

/**
 * "Send a new link": the server's answer stays on screen where it was asked for (a toast is gone too
 * soon to read "try again in 4 minutes"). An address confirmed meanwhile (409, another device, another
 * tab) reads the profile again, so whatever asks for confirmation goes away.
 */
export function useResendVerification() {
  const { reloadProfile } = useAuth();
  const resend = useMutation({
    mutationFn: resendVerification,
    onError: (error) => {
      if (isApiError(error) && error.status === 409) {
        toast.success(getErrorMessage(error));
        void reloadProfile();
      }
    },
  });
  const answer = resend.isSuccess ? { ok: true, text: resend.data.message } : resend.isError ? { ok: false, text: getErrorMessage(resend.error) } : null;
  return { send: () => resend.mutate(), sending: resend.isPending, answer };
}
