// /user/confirm-payment (spec sections 2, 4, 7): verify the stored payment, show the result,
// remove the stored payload, then leave after 2 s.
// Once the payload is gone (a reload, Back, the provider's return opened in another tab) the page
// never guesses: it verifies the reference the provider put in the return address (Paystack
// ?reference=, Flutterwave ?tx_ref=&transaction_id=) and shows that payment's true outcome, says
// so when the provider has not settled it yet, and with nothing to verify says just that. A
// customer whose card was charged must never read "Payment Failed!" and pay again.
// Nothing is verified before the session check has finished, and a call refused because the session
// ended keeps the stored payment: the access guard sends the person to sign in and back here.

import { useQueryClient } from '@tanstack/react-query';
import { ORDER_STATUS } from '@vocabulary';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { walletKeys } from '@/api/wallet';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { endsSession, getErrorMessage } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { readPaymentPayload, removePaymentPayload } from '@/lib/session';
import { verifyPayment } from './api/verify-payment';

export const PAYMENT_REDIRECT_DELAY_MS = 2000;

interface Outcome {
  /** unchecked: the reference could not be checked now (no such payment on this account, the network, the provider). */
  status: 'checking' | 'success' | 'failed' | 'unsettled' | 'nothing' | 'unchecked';
  /** Why, when unchecked. */
  message?: string;
}

/** The provider's reference in the return address, with Flutterwave's transaction id when it gives one. */
function returnedReference(params: URLSearchParams): { reference: string; transactionId?: string } | null {
  const reference = params.get('reference') ?? params.get('trxref') ?? params.get('tx_ref');
  if (!reference) return null;
  const transactionId = params.get('transaction_id') ?? '';
  return /^[1-9]\d{0,18}$/.test(transactionId) ? { reference, transactionId } : { reference };
}

export default function ConfirmPaymentPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { loading } = useAuth();
  const [params] = useSearchParams();
  const [outcome, setOutcome] = useState<Outcome>({ status: 'checking' });
  const started = useRef(false);
  const returned = returnedReference(params);
  const reference = returned?.reference;
  const transactionId = returned?.transactionId;

  const showBalance = useCallback(() => void queryClient.invalidateQueries({ queryKey: walletKeys.all }), [queryClient]);

  /** The spec's flow: the stored payload is verified, and any other answer than 2 is a failure. */
  const verifyPayload = useCallback(
    async (payload: NonNullable<ReturnType<typeof readPaymentPayload>>) => {
      let ok = false;
      try {
        const res = await verifyPayment({ checkoutUrl: payload.checkoutUrl, signature: payload.signature, amount: payload.amount });
        ok = res.data.orderStatus === ORDER_STATUS.success;
      } catch (error) {
        // Not the payment's outcome: the session is gone, and the guard is on its way to sign-in.
        if (endsSession(error)) return;
        console.error('Payment verification failed', error);
      }
      removePaymentPayload();
      if (ok) showBalance();
      setOutcome({ status: ok ? 'success' : 'failed' });
    },
    [showBalance],
  );

  /** Without the payload: the payment named in the return address, as the provider now sees it. */
  const verifyReference = useCallback(async () => {
    if (!reference) return;
    setOutcome({ status: 'checking' });
    try {
      const { orderStatus } = (await verifyPayment(transactionId ? { reference, transactionId } : { reference })).data;
      if (orderStatus === ORDER_STATUS.success) showBalance();
      setOutcome({ status: orderStatus === ORDER_STATUS.success ? 'success' : orderStatus === ORDER_STATUS.pending ? 'unsettled' : 'failed' });
    } catch (error) {
      if (!endsSession(error)) setOutcome({ status: 'unchecked', message: getErrorMessage(error) });
    }
  }, [reference, transactionId, showBalance]);

  useEffect(() => {
    // The guard shows this page while the session check runs: a session that turns out to have ended must find the payment still stored.
    if (loading || started.current) return; // once, even under StrictMode's double effects
    started.current = true;
    const payload = readPaymentPayload();
    if (payload) void verifyPayload(payload);
    else if (reference) void verifyReference();
    else setOutcome({ status: 'nothing' });
  }, [loading, reference, verifyPayload, verifyReference]);

  useEffect(() => {
    if (outcome.status !== 'success' && outcome.status !== 'failed') return undefined;
    const to = outcome.status === 'success' ? '/user/transactions' : '/user';
    const timer = window.setTimeout(() => navigate(to, { replace: true }), PAYMENT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [outcome.status, navigate]);

  return (
    <div className="flex min-h-[60vh] items-center justify-center">
      <section className="card w-full max-w-md p-8 text-center" aria-live="polite" aria-busy={outcome.status === 'checking'}>
        {outcome.status === 'checking' ? (
          <>
            <div className="flex justify-center text-brand-600">
              <Spinner className="h-12 w-12" label="" />
            </div>
            <h1 className="mt-5 text-xl font-bold text-slate-900">Your payment is being processed...</h1>
            <p className="mt-2 text-sm text-slate-600">Please wait while your payment is being processed... please do not close this page.</p>
          </>
        ) : outcome.status === 'success' ? (
          <>
            <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-emerald-50 text-emerald-600">
              <Icon name="checkCircle" className="h-9 w-9" />
            </span>
            <h1 className="mt-5 text-xl font-bold text-slate-900">Wallet Credited Successfully!</h1>
            <p className="mt-2 text-sm text-slate-600">Your deposit has been processed and added to your wallet balance.</p>
          </>
        ) : outcome.status === 'failed' ? (
          <>
            <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-rose-50 text-rose-600">
              <Icon name="xCircle" className="h-9 w-9" />
            </span>
            <h1 className="mt-5 text-xl font-bold text-slate-900">Payment Failed!</h1>
            <p className="mt-2 text-sm text-slate-600">Your payment has failed.</p>
          </>
        ) : outcome.status === 'nothing' ? (
          <Neutral
            title="Nothing to confirm here"
            text="There is no payment waiting for confirmation on this page. Your deposits and their status are in Transactions."
          />
        ) : outcome.status === 'unsettled' ? (
          <Neutral
            title="Your payment is not confirmed yet"
            text="The payment provider has not settled this payment yet. If you paid, your wallet is credited automatically as soon as it does; there is no need to pay again."
            onRetry={verifyReference}
          />
        ) : (
          <Neutral title="We could not check this payment right now" text={outcome.message ?? ''} onRetry={verifyReference} />
        )}
      </section>
    </div>
  );
}

/** An outcome that is neither success nor failure: what is known, and where to follow the deposit. */
function Neutral({ title, text, onRetry }: { title: string; text: string; onRetry?: () => void }) {
  return (
    <>
      <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-slate-100 text-slate-600">
        <Icon name="info" className="h-9 w-9" />
      </span>
      <h1 className="mt-5 text-xl font-bold text-slate-900">{title}</h1>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        {onRetry ? (
          <button type="button" className="btn btn-secondary" onClick={onRetry}>
            Check again
          </button>
        ) : null}
        <Link to="/user/transactions" className="btn btn-primary">
          Go to Transactions
        </Link>
      </div>
    </>
  );
}
