// /user/confirm-payment (spec sections 2, 4, 7): verify the stored payment, show the result, remove the
// stored payload, and after a credit leave for Transactions after 2 s.
// "Payment Failed!" is shown only when the provider says the payment was declined: a customer whose card
// was charged must never read it and pay again. A check that did not get through (a phone's network
// dropping on the way back, a busy server) or a payment the provider has not settled yet says so, keeps
// the stored payment, and asks again by itself for a while, so the page turns into the success screen
// when the provider's webhook credits the wallet. A declined payment stays on screen, with the
// provider's reason and a way to try again, instead of leaving for a page that does not say why.
// Once the payload is gone (a reload, Back, the provider's return opened in another tab) the page
// verifies the reference the provider put in the return address (Paystack ?reference=, Flutterwave
// ?tx_ref=&transaction_id=), and with nothing to verify says just that.
// Nothing is verified before the session check has finished, and a call refused because the session
// ended keeps the stored payment: the access guard sends the person to sign in and back here.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ORDER_STATUS } from '@vocabulary';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { walletKeys } from '@/api/wallet';
import { endsSession, getErrorMessage } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { readPaymentPayload, removePaymentPayload } from '@/lib/session';
import { couldGetThrough, PAYMENT_RECHECK_WINDOW_MS, type PaymentToVerify, type PaymentVerdict, paymentVerdictQuery } from './api/verify-payment';
import { PaymentOutcomeCard, type ShownOutcome } from './PaymentOutcomeCard';

export const PAYMENT_REDIRECT_DELAY_MS = 2000;

/** The provider's reference in the return address, with Flutterwave's transaction id when it gives one. */
function returnedReference(params: URLSearchParams): PaymentToVerify | null {
  const reference = params.get('reference') ?? params.get('trxref') ?? params.get('tx_ref');
  if (!reference) return null;
  const transactionId = params.get('transaction_id') ?? '';
  return /^[1-9]\d{0,18}$/.test(transactionId) ? { reference, transactionId } : { reference };
}

/** The stored payment while there is one (the spec's flow), else the one the return address names. */
function paymentToVerify(params: URLSearchParams): PaymentToVerify | null {
  const payload = readPaymentPayload();
  if (payload) return { checkoutUrl: payload.checkoutUrl, signature: payload.signature, amount: payload.amount };
  return returnedReference(params);
}

/** What the last check says, as the customer should read it. */
function outcomeOf(query: { status: 'pending' | 'error' | 'success'; data?: PaymentVerdict; error: unknown }): ShownOutcome {
  if (query.status === 'pending') return { status: 'checking' };
  if (query.status === 'error') {
    // Not the payment's outcome: the session is gone, and the guard is on its way to sign-in.
    if (endsSession(query.error)) return { status: 'checking' };
    return couldGetThrough(query.error) ? { status: 'unreachable' } : { status: 'unchecked', message: getErrorMessage(query.error) };
  }
  if (query.data?.orderStatus === ORDER_STATUS.success) return { status: 'success' };
  if (query.data?.orderStatus === ORDER_STATUS.failed) return { status: 'failed', reason: query.data.declineReason };
  return { status: 'unsettled' };
}

export default function ConfirmPaymentPage() {
  const [params] = useSearchParams();
  // Decided once: the stored payload goes after a final answer, and every later check must ask about the same payment.
  const [toVerify] = useState(() => paymentToVerify(params));
  return toVerify ? <PaymentCheck toVerify={toVerify} /> : <PaymentOutcomeCard outcome={{ status: 'nothing' }} />;
}

function PaymentCheck({ toVerify }: { toVerify: PaymentToVerify }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The guard shows this page while the session check runs: a session that turns out to have ended must find the payment still stored.
  const { loading } = useAuth();
  const [recheckUntil, setRecheckUntil] = useState(() => Date.now() + PAYMENT_RECHECK_WINDOW_MS);
  const verdict = useQuery({ ...paymentVerdictQuery(toVerify, recheckUntil), enabled: !loading });
  const outcome = outcomeOf(verdict);

  useEffect(() => {
    // A decline is final, and so is a refusal (a garbled or foreign payload), after which a reload checks the return address instead.
    if (outcome.status === 'failed' || outcome.status === 'unchecked') removePaymentPayload();
    if (outcome.status !== 'success') return undefined;
    removePaymentPayload();
    void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    const timer = window.setTimeout(() => navigate('/user/transactions', { replace: true }), PAYMENT_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [outcome.status, navigate, queryClient]);

  const checkAgain = () => {
    // A customer who asks again gets another stretch of automatic checks too.
    setRecheckUntil(Date.now() + PAYMENT_RECHECK_WINDOW_MS);
    void verdict.refetch();
  };

  return <PaymentOutcomeCard outcome={outcome} checking={verdict.isFetching} onCheckAgain={checkAgain} />;
}
