// The payment return tells the truth the first time: "Payment Failed!" only for a payment the provider
// declined (with its reason, a way to try again, and no leaving by itself); a check that did not get
// through, or a payment not settled yet, says so and asks again by itself until the credit shows.
import { act, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ConfirmPaymentPage from '@/features/wallet/ConfirmPaymentPage';
import { AuthContext } from '@/lib/authContext';
import { readPaymentPayload, savePaymentPayload } from '@/lib/session';
import { ADA } from '../app';
import { authStub, jsonResponse, renderScreen } from '../helpers';

const PAYLOAD = { checkoutUrl: 'https://checkout.example/pay/abc', signature: 'sig-123', amount: '5000.00', reference: 'ref-1' };
const NOT_CHECKED = 'We could not check your payment yet';
const NOT_CONFIRMED = 'Your payment is not confirmed yet';

function openPage(url = '/user/confirm-payment') {
  renderScreen(
    <AuthContext.Provider value={authStub({ user: ADA, userType: 2 })}>
      <Routes>
        <Route path="/user/confirm-payment" element={<ConfirmPaymentPage />} />
        <Route path="/user/transactions" element={<h1>Transactions screen</h1>} />
        <Route path="/user/add-fund" element={<h1>Add funds screen</h1>} />
        <Route path="/user" element={<h1>User home</h1>} />
      </Routes>
    </AuthContext.Provider>,
    url,
  );
  return settle();
}

/** Moves the fake clock on by `ms`, letting the screen react to what came due. */
const passes = async (ms: number) => {
  await act(() => vi.advanceTimersByTimeAsync(ms));
  // react-query hands an answer that came due to the screen on a 0 ms timer, which the fake clock runs 1 ms later.
  await act(() => vi.advanceTimersByTimeAsync(1));
};
const settle = () => passes(0);
const heading = (name: string) => screen.queryByRole('heading', { name });

type Answer = Response | Error;
/** fetch answering the verify-payment calls in turn with `answers` (an Error is a request that never got an answer), the last one from then on. */
function verifyAnswersInTurn(...answers: Answer[]) {
  let call = 0;
  const fetch = vi.fn((_url: string, _init?: RequestInit) => {
    const answer = answers[Math.min(call++, answers.length - 1)];
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}
const verdict = (orderStatus: number, declineReason?: string) => jsonResponse(200, { data: { orderStatus, ...(declineReason ? { declineReason } : {}) } });
const CREDITED = verdict(2);
const UNSETTLED = verdict(1);
const CUT_OFF = new TypeError('Failed to fetch');

// The page polls and leaves on timers: every test runs the clock itself.
beforeEach(() => vi.useFakeTimers());

describe('a payment the provider declined', () => {
  it("reads 'Payment Failed!' with the provider's reason, stays, and offers Try again back to Add funds", async () => {
    savePaymentPayload(PAYLOAD);
    const fetch = verifyAnswersInTurn(verdict(3, 'Declined'));
    await openPage();
    expect(heading('Payment Failed!')).toBeTruthy();
    expect(screen.getByText('Your payment has failed.')).toBeTruthy();
    expect(screen.getByText('Declined')).toBeTruthy();
    expect(readPaymentPayload()).toBeNull();

    // No leaving by itself, and no asking again: the provider's answer is final.
    await passes(30_000);
    expect(heading('Payment Failed!')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);

    await act(async () => screen.getByRole('link', { name: 'Try again' }).click());
    expect(heading('Add funds screen')).toBeTruthy();
  });

  it('says only what the spec says when the provider gives no reason', async () => {
    verifyAnswersInTurn(verdict(3));
    await openPage('/user/confirm-payment?reference=dep-42');
    expect(heading('Payment Failed!')).toBeTruthy();
    expect(screen.queryByText(/reason/)).toBeNull();
    expect(screen.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/user/add-fund');
  });
});

describe('a check that did not get through', () => {
  it("never reads 'Payment Failed!' when the first request is cut off, and shows the credit when the next one gets through", async () => {
    savePaymentPayload(PAYLOAD);
    const fetch = verifyAnswersInTurn(CUT_OFF, CREDITED);
    await openPage();
    expect(heading(NOT_CHECKED)).toBeTruthy();
    expect(screen.getByText(/no need to pay again/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Check again' })).toBeTruthy();
    expect(screen.queryByText('Payment Failed!')).toBeNull();
    // Kept, so a reload can still verify the payment.
    expect(readPaymentPayload()).toEqual(PAYLOAD);

    await passes(3000);
    expect(fetch).toHaveBeenCalledTimes(2);
    // The same payment asked about again.
    expect(fetch.mock.calls.map(([, init]) => init?.body)).toEqual([
      JSON.stringify({ checkoutUrl: PAYLOAD.checkoutUrl, signature: PAYLOAD.signature, amount: PAYLOAD.amount }),
      JSON.stringify({ checkoutUrl: PAYLOAD.checkoutUrl, signature: PAYLOAD.signature, amount: PAYLOAD.amount }),
    ]);
    expect(heading('Wallet Credited Successfully!')).toBeTruthy();
    expect(screen.getByText('Your deposit has been processed and added to your wallet balance.')).toBeTruthy();
    expect(readPaymentPayload()).toBeNull();
    await passes(2000);
    expect(heading('Transactions screen')).toBeTruthy();
  });

  it('treats a server error the same way, and follows the payment from not settled to credited', async () => {
    verifyAnswersInTurn(jsonResponse(503, { message: 'Service Unavailable' }), UNSETTLED, CREDITED);
    await openPage('/user/confirm-payment?reference=dep-42');
    expect(heading(NOT_CHECKED)).toBeTruthy();
    await passes(3000);
    expect(heading(NOT_CONFIRMED)).toBeTruthy();
    expect(screen.getByText(/no need to pay again/)).toBeTruthy();
    await passes(3000);
    expect(heading('Wallet Credited Successfully!')).toBeTruthy();
    expect(screen.queryByText('Payment Failed!')).toBeNull();
  });

  it('Check again asks at once, without waiting for the next automatic check', async () => {
    const fetch = verifyAnswersInTurn(CUT_OFF, CREDITED);
    await openPage('/user/confirm-payment?reference=dep-42');
    expect(heading(NOT_CHECKED)).toBeTruthy();
    await act(async () => screen.getByRole('button', { name: 'Check again' }).click());
    await settle();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(heading('Wallet Credited Successfully!')).toBeTruthy();
  });
});

describe('a check the server refused', () => {
  it("shows the server's reason, never 'Payment Failed!', and does not ask again by itself", async () => {
    savePaymentPayload(PAYLOAD);
    const fetch = verifyAnswersInTurn(jsonResponse(400, { message: 'Invalid payment payload' }));
    await openPage();
    expect(heading('We could not check this payment right now')).toBeTruthy();
    expect(screen.getByText('Invalid payment payload')).toBeTruthy();
    expect(screen.queryByText('Payment Failed!')).toBeNull();
    // Never good: a reload checks the provider's reference in the return address instead.
    expect(readPaymentPayload()).toBeNull();
    await passes(30_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('a payment the provider has not settled yet', () => {
  it('asks every 3 s for about a minute, then stops and leaves Check again, which starts asking again', async () => {
    savePaymentPayload(PAYLOAD);
    let answer: Answer = UNSETTLED;
    const fetch = vi.fn(() => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer)));
    vi.stubGlobal('fetch', fetch);
    await openPage();
    expect(heading(NOT_CONFIRMED)).toBeTruthy();
    expect(readPaymentPayload()).toEqual(PAYLOAD);

    await passes(3000);
    expect(fetch).toHaveBeenCalledTimes(2);
    await passes(70_000);
    const asked = fetch.mock.calls.length;
    expect(asked).toBeGreaterThanOrEqual(19);
    expect(asked).toBeLessThanOrEqual(23);
    await passes(60_000);
    expect(fetch).toHaveBeenCalledTimes(asked);
    expect(heading(NOT_CONFIRMED)).toBeTruthy();
    expect(screen.queryByText('Payment Failed!')).toBeNull();
    expect(heading('User home')).toBeNull();

    // The webhook credited the wallet meanwhile.
    answer = CREDITED;
    await act(async () => screen.getByRole('button', { name: 'Check again' }).click());
    await settle();
    expect(fetch).toHaveBeenCalledTimes(asked + 1);
    expect(heading('Wallet Credited Successfully!')).toBeTruthy();
    expect(readPaymentPayload()).toBeNull();
  });

  it('asks again by itself after Check again when the answer is still not settled', async () => {
    const fetch = verifyAnswersInTurn(UNSETTLED);
    await openPage('/user/confirm-payment?reference=dep-42');
    await passes(120_000);
    const asked = fetch.mock.calls.length;
    await act(async () => screen.getByRole('button', { name: 'Check again' }).click());
    await settle();
    await passes(6000);
    expect(fetch).toHaveBeenCalledTimes(asked + 3);
  });
});
