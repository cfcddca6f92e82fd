import { act, screen } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ConfirmPaymentPage from '@/features/wallet/ConfirmPaymentPage';
import { REFRESH_TOKEN_ERROR } from '@/lib/api';
import { AuthContext } from '@/lib/authContext';
import { PAYLOAD_KEY, REFRESH_TOKEN_KEY, readPaymentPayload, savePaymentPayload, TOKEN_KEY } from '@/lib/session';
import { ADA } from '../app';
import { authStub, jsonResponse, mockFetch, renderScreen } from '../helpers';

const PAYLOAD = { checkoutUrl: 'https://checkout.example/pay/abc', signature: 'sig-123', amount: '5000.00', reference: 'ref-1' };

/** Ends the session check the page was opened during (renderPage's `checking`). */
let finishCheck: () => void = () => undefined;

/** Ada's session, still being checked when `checking`, as the access guard shows the page meanwhile. */
function Session({ checking, children }: { checking: boolean; children: ReactNode }) {
  const [loading, setLoading] = useState(checking);
  finishCheck = () => act(() => setLoading(false));
  return <AuthContext.Provider value={authStub({ user: ADA, userType: 2, loading })}>{children}</AuthContext.Provider>;
}

function renderPage(url = '/user/confirm-payment', { checking = false } = {}) {
  renderScreen(
    <Session checking={checking}>
      <Routes>
        <Route path="/user/confirm-payment" element={<ConfirmPaymentPage />} />
        <Route path="/user/transactions" element={<h1>Transactions screen</h1>} />
        <Route path="/user" element={<h1>User home</h1>} />
      </Routes>
    </Session>,
    url,
  );
}

/** Moves the fake clock on by `ms`, letting the screen react to what came due. */
const passes = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
/** Lets the pending fetch promise chain settle without moving the clock. */
const settle = () => passes(0);
/** Opens the page at `url` and lets the answer to its first call arrive. */
async function openPage(url?: string) {
  renderPage(url);
  await settle();
}
/** The server answers every verify-payment call with the deposit's `orderStatus` (2 credited, 3 declined). */
const verifyAnswers = (orderStatus: number) => mockFetch(() => jsonResponse(200, { data: { orderStatus } }));

// The page leaves on timers: every test runs the clock itself.
beforeEach(() => vi.useFakeTimers());

describe('Payment confirmation', () => {
  it('verifies the stored payload, shows success, removes the payload and goes to /user/transactions after 2 s', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    savePaymentPayload(PAYLOAD);
    expect(window.sessionStorage.getItem(PAYLOAD_KEY)).not.toContain('checkout.example'); // stored encoded
    let answer!: (r: Response) => void;
    const fetch = mockFetch(() => new Promise<Response>((resolve) => (answer = resolve)));

    renderPage();
    expect(screen.getByText('Your payment is being processed...')).toBeTruthy();
    expect(screen.getByText('Please wait while your payment is being processed... please do not close this page.')).toBeTruthy();

    await settle();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/v1/user/verify-payment');
    expect(init!.method).toBe('POST');
    expect(new Headers(init!.headers).get('Authorization')).toBe('Bearer tok');
    expect(JSON.parse(String(init!.body))).toEqual({ checkoutUrl: PAYLOAD.checkoutUrl, signature: PAYLOAD.signature, amount: PAYLOAD.amount });

    answer(jsonResponse(200, { data: { orderStatus: 2 } }));
    await settle();
    expect(screen.getByText('Wallet Credited Successfully!')).toBeTruthy();
    expect(screen.getByText('Your deposit has been processed and added to your wallet balance.')).toBeTruthy();
    expect(readPaymentPayload()).toBeNull();
    expect(window.sessionStorage.getItem(PAYLOAD_KEY)).toBeNull();

    await passes(1999);
    expect(screen.queryByText('Transactions screen')).toBeNull();
    await passes(1);
    expect(screen.getByText('Transactions screen')).toBeTruthy();
  });

  it('verifies the stored payload, not the return address, while the payload is there', async () => {
    savePaymentPayload(PAYLOAD);
    const fetch = verifyAnswers(2);
    await openPage('/user/confirm-payment?trxref=ref-1&reference=ref-1');
    expect(JSON.parse(String(fetch.mock.calls[0][1]!.body))).toEqual({
      checkoutUrl: PAYLOAD.checkoutUrl,
      signature: PAYLOAD.signature,
      amount: PAYLOAD.amount,
    });
    expect(screen.getByText('Wallet Credited Successfully!')).toBeTruthy();
  });
});

describe('Payment confirmation and the session check', () => {
  it('verifies the stored payment only once the session check has finished', async () => {
    savePaymentPayload(PAYLOAD);
    const fetch = verifyAnswers(2);
    renderPage('/user/confirm-payment', { checking: true });
    await settle();
    expect(fetch).not.toHaveBeenCalled();
    expect(readPaymentPayload()).toEqual(PAYLOAD);
    expect(screen.getByText('Your payment is being processed...')).toBeTruthy();

    finishCheck();
    await settle();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.getByText('Wallet Credited Successfully!')).toBeTruthy();
    expect(readPaymentPayload()).toBeNull();
  });

  it('keeps the stored payment, and says nothing of it, when the session turns out to have ended', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'expired');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'revoked');
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    savePaymentPayload(PAYLOAD);
    const fetch = mockFetch((url) =>
      url.endsWith('auth/refresh') ? jsonResponse(401, { message: REFRESH_TOKEN_ERROR, error: REFRESH_TOKEN_ERROR }) : jsonResponse(401, {}),
    );
    await openPage();
    expect(fetch.mock.calls.map(([url]) => url)).toEqual(['/api/v1/user/verify-payment', '/api/v1/auth/refresh']);
    // The access guard sends the person to sign in, and back here after: the payment waits for them.
    expect(readPaymentPayload()).toEqual(PAYLOAD);
    expect(screen.queryByText('Payment Failed!')).toBeNull();
    expect(log).not.toHaveBeenCalled();
    await passes(5000);
    expect(screen.queryByText('User home')).toBeNull();
  });
});

describe('Payment confirmation without the stored payload', () => {
  it('says there is nothing to confirm, without calling the server or leaving, when the address names no payment', async () => {
    const fetch = verifyAnswers(2);
    await openPage();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Nothing to confirm here' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to Transactions' }).getAttribute('href')).toBe('/user/transactions');
    expect(screen.queryByText('Payment Failed!')).toBeNull();
    await passes(5000);
    expect(screen.getByText('Nothing to confirm here')).toBeTruthy();
  });

  it("verifies Paystack's returned reference and shows the payment credited, then goes to /user/transactions", async () => {
    const fetch = verifyAnswers(2);
    renderPage('/user/confirm-payment?trxref=dep-42&reference=dep-42');
    expect(screen.getByText('Your payment is being processed...')).toBeTruthy();
    await settle();
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe('/api/v1/user/verify-payment');
    expect(JSON.parse(String(init!.body))).toEqual({ reference: 'dep-42' });
    expect(screen.getByText('Wallet Credited Successfully!')).toBeTruthy();
    expect(screen.getByText('Your deposit has been processed and added to your wallet balance.')).toBeTruthy();
    await passes(2000);
    expect(screen.getByText('Transactions screen')).toBeTruthy();
  });

  it("sends Flutterwave's tx_ref with its transaction id", async () => {
    const fetch = verifyAnswers(2);
    await openPage('/user/confirm-payment?status=successful&tx_ref=dep-7&transaction_id=288200001');
    expect(JSON.parse(String(fetch.mock.calls[0][1]!.body))).toEqual({ reference: 'dep-7', transactionId: '288200001' });
  });

  it("shows why a reference could not be checked, never 'Payment Failed!'", async () => {
    const fetch = mockFetch(() => jsonResponse(404, { message: 'We found no payment with this reference on your account.', error: 'Not Found' }));
    await openPage('/user/confirm-payment?reference=dep-someone-else');
    expect(screen.getByRole('heading', { name: 'We could not check this payment right now' })).toBeTruthy();
    expect(screen.getByText('We found no payment with this reference on your account.')).toBeTruthy();
    expect(screen.queryByText('Payment Failed!')).toBeNull();
    await passes(10_000);
    expect(screen.queryByText('User home')).toBeNull();
    // The server said why: asking again by itself would only get the same answer.
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
