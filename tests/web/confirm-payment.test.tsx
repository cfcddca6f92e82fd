import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import ConfirmPaymentPage from '@/features/wallet/ConfirmPaymentPage';
import { PAYLOAD_KEY, readPaymentPayload, savePaymentPayload, TOKEN_KEY } from '@/lib/session';
import { jsonResponse, mockFetch, WithQuery } from './helpers';

const PAYLOAD = { checkoutUrl: 'https://checkout.example/pay/abc', signature: 'sig-123', amount: '5000.00', reference: 'ref-1' };

function renderPage() {
  render(
    <WithQuery>
      <MemoryRouter initialEntries={['/user/confirm-payment']}>
        <Routes>
          <Route path="/user/confirm-payment" element={<ConfirmPaymentPage />} />
          <Route path="/user/transactions" element={<h1>Transactions screen</h1>} />
          <Route path="/user" element={<h1>User home</h1>} />
        </Routes>
      </MemoryRouter>
    </WithQuery>,
  );
}

/** Lets the pending fetch promise chain settle without moving the clock. */
const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

describe('Payment confirmation', () => {
  it('verifies the stored payload, shows success, removes the payload and goes to /user/transactions after 2 s', async () => {
    vi.useFakeTimers();
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
    expect((init!.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(JSON.parse(String(init!.body))).toEqual({ checkoutUrl: PAYLOAD.checkoutUrl, signature: PAYLOAD.signature, amount: PAYLOAD.amount });

    answer(jsonResponse(200, { data: { orderStatus: 2 } }));
    await settle();
    expect(screen.getByText('Wallet Credited Successfully!')).toBeTruthy();
    expect(screen.getByText('Your deposit has been processed and added to your wallet balance.')).toBeTruthy();
    expect(readPaymentPayload()).toBeNull();
    expect(window.sessionStorage.getItem(PAYLOAD_KEY)).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(screen.queryByText('Transactions screen')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText('Transactions screen')).toBeTruthy();
  });

  it.each([
    ['another orderStatus', () => jsonResponse(200, { data: { orderStatus: 1 } })],
    ['an error answer', () => jsonResponse(400, { message: 'Invalid signature' })],
  ])('shows failure on %s, removes the payload and goes to /user after 2 s', async (_name, respond) => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    savePaymentPayload(PAYLOAD);
    mockFetch(respond);

    renderPage();
    await settle();
    expect(screen.getByText('Payment Failed!')).toBeTruthy();
    expect(screen.getByText('Your payment has failed.')).toBeTruthy();
    expect(screen.queryByText('Wallet Credited Successfully!')).toBeNull();
    expect(window.sessionStorage.getItem(PAYLOAD_KEY)).toBeNull();

    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(screen.queryByText('User home')).toBeNull();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByText('User home')).toBeTruthy();
  });

  it('fails when the network is down', async () => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    savePaymentPayload(PAYLOAD);
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    renderPage();
    await settle();
    expect(screen.getByText('Payment Failed!')).toBeTruthy();
    expect(window.sessionStorage.getItem(PAYLOAD_KEY)).toBeNull();
  });

  it('fails without calling the server when there is no stored payload', async () => {
    vi.useFakeTimers();
    const fetch = mockFetch(() => jsonResponse(200, { data: { orderStatus: 2 } }));
    renderPage();
    await settle();
    expect(fetch).not.toHaveBeenCalled();
    expect(screen.getByText('Payment Failed!')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.getByText('User home')).toBeTruthy();
  });
});
