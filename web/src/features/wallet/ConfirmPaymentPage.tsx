// /user/confirm-payment (spec sections 2, 4, 7): verify the stored payment, show the result,
// remove the stored payload, then leave after 2 s.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { api } from '@/lib/api';
import { readPaymentPayload, removePaymentPayload } from '@/lib/session';
import { walletKeys } from './walletApi';

export const PAYMENT_REDIRECT_DELAY_MS = 2000;
/** data.orderStatus equal to 2 means the payment succeeded. */
export const PAYMENT_SUCCESS_STATUS = 2;

type Status = 'pending' | 'success' | 'failed';

export default function ConfirmPaymentPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status>('pending');
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return; // once, even under StrictMode's double effects
    started.current = true;
    const payload = readPaymentPayload();
    void (async () => {
      let ok = false;
      try {
        if (payload) {
          const res = await api.post<{ data?: { orderStatus?: number | string } }>('user/verify-payment', {
            checkoutUrl: payload.checkoutUrl,
            signature: payload.signature,
            amount: payload.amount,
          });
          ok = Number(res?.data?.orderStatus) === PAYMENT_SUCCESS_STATUS;
        }
      } catch (error) {
        console.error('Payment verification failed', error);
      }
      removePaymentPayload();
      if (ok) void queryClient.invalidateQueries({ queryKey: walletKeys.all });
      setStatus(ok ? 'success' : 'failed');
    })();
  }, [queryClient]);

  useEffect(() => {
    if (status === 'pending') return undefined;
    const to = status === 'success' ? '/user/transactions' : '/user';
    const timer = window.setTimeout(() => navigate(to, { replace: true }), PAYMENT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [status, navigate]);

  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <section className="card w-full max-w-md p-8 text-center" aria-live="polite" aria-busy={status === 'pending'}>
        {status === 'pending' ? (
          <>
            <div className="flex justify-center text-brand-600">
              <Spinner className="h-12 w-12" label="" />
            </div>
            <h1 className="mt-5 text-xl font-bold text-slate-900">Your payment is being processed...</h1>
            <p className="mt-2 text-sm text-slate-600">Please wait while your payment is being processed... please do not close this page.</p>
          </>
        ) : status === 'success' ? (
          <>
            <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
              <Icon name="checkCircle" className="h-9 w-9" />
            </span>
            <h1 className="mt-5 text-xl font-bold text-slate-900">Wallet Credited Successfully!</h1>
            <p className="mt-2 text-sm text-slate-600">Your deposit has been processed and added to your wallet balance.</p>
          </>
        ) : (
          <>
            <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-rose-50 text-rose-600">
              <Icon name="xCircle" className="h-9 w-9" />
            </span>
            <h1 className="mt-5 text-xl font-bold text-slate-900">Payment Failed!</h1>
            <p className="mt-2 text-sm text-slate-600">Your payment has failed.</p>
          </>
        )}
      </section>
    </div>
  );
}
