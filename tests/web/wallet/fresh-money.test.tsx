// Money on screen follows the server without a reload: after any successful change, when an orders
// list shows an order refunded, when the tab regains focus; and relative times keep up with the clock.

import { focusManager, useMutation } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useOrders } from '@/api/orders';
import { useWalletBalance } from '@/api/wallet';
import { TimeAgo } from '@/components/TimeAgo';
import { useBell } from '@/features/notifications/api/get-notifications';
import { createQueryClient } from '@/lib/queryClient';
import { TOKEN_KEY } from '@/lib/session';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

/** A fake server: the balance it reports and the status of order 7 can be changed between calls. */
function server() {
  const state = {
    balance: 1000,
    status: 'In progress',
    refunded: '0.00',
    // The bell's latest notifications, newest first.
    notices: [{ id: 1, kind: 'deposit_credited' }] as Array<{ id: number; kind: string }>,
  };
  const fetch = mockFetch((url) => {
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: state.balance, walletDebt: 0 });
    if (url.includes('user/notifications')) {
      const items = state.notices.map((n) => ({ ...n, title: n.kind, body: n.kind, link: '/user', createdAt: '2024-03-05T10:00:00Z', read: false }));
      return jsonResponse(200, { message: 'ok', data: { unread: items.length, items } });
    }
    if (url.includes('user/orders/7/cancel')) return jsonResponse(200, { message: 'Order canceled' });
    if (url.includes('user/orders')) {
      return jsonResponse(200, {
        data: [
          {
            id: 7,
            serviceId: 1,
            serviceName: 'Likes',
            link: 'https://x.com/a',
            quantity: 100,
            charge: '400.00',
            status: state.status,
            refunded: state.refunded,
            created_at: '2024-03-05T10:00:00Z',
          },
        ],
        page: 1,
        limit: 20,
        total: 1,
      });
    }
    return jsonResponse(404, { message: 'Not found' });
  });
  const balanceReads = () => fetch.mock.calls.filter(([url]) => String(url).includes('getWalletBalance')).length;
  return { state, balanceReads };
}

function Balance() {
  const balance = useWalletBalance();
  return <p>Balance {balance.data ?? '…'}</p>;
}

function CancelButton() {
  const cancel = useMutation({ mutationFn: async () => (await fetch('/api/v1/user/orders/7/cancel', { method: 'POST' })).text() });
  return (
    <button type="button" onClick={() => cancel.mutate()}>
      Cancel order
    </button>
  );
}

function Orders() {
  const orders = useOrders({ page: 1, limit: 20 }, { poll: false });
  return <p>Order status {orders.data?.data[0]?.status ?? '…'}</p>;
}

function Bell() {
  const bell = useBell();
  return <p>Bell {bell.data?.items[0]?.id ?? '…'}</p>;
}

/** The balance on screen beside what changes it, on the app's own query client (returned, to refetch with). */
function renderBalanceWith(other?: ReactNode) {
  window.localStorage.setItem(TOKEN_KEY, 'user-token');
  const client = createQueryClient();
  render(
    <WithQuery client={client}>
      <Balance />
      {other}
    </WithQuery>,
  );
  return client;
}

afterEach(() => focusManager.setFocused(undefined));

describe('balances stay fresh', () => {
  it('re-reads the balance after any successful change', async () => {
    const { state, balanceReads } = server();
    renderBalanceWith(<CancelButton />);
    expect(await screen.findByText('Balance 1000')).toBeTruthy();
    state.balance = 1400;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cancel order' }));
    expect(await screen.findByText('Balance 1400')).toBeTruthy();
    expect(balanceReads()).toBe(2);
  });

  it('re-reads the balance when a re-read orders list shows an order whose status or refund changed', async () => {
    const { state, balanceReads } = server();
    const client = renderBalanceWith(<Orders />);
    expect(await screen.findByText('Order status In progress')).toBeTruthy();
    expect(await screen.findByText('Balance 1000')).toBeTruthy();

    // The same answer again: nothing moved, the balance is not asked for.
    await act(() => client.refetchQueries({ queryKey: ['orders'] }));
    expect(balanceReads()).toBe(1);

    // The sync job refunded the order while the list was on screen.
    state.status = 'Canceled';
    state.refunded = '400.00';
    state.balance = 1400;
    await act(() => client.refetchQueries({ queryKey: ['orders'] }));
    expect(await screen.findByText('Order status Canceled')).toBeTruthy();
    expect(await screen.findByText('Balance 1400')).toBeTruthy();
    expect(balanceReads()).toBe(2);
  });

  it("re-reads the balance when the bell's poll brings a new notification of money moving, and only then", async () => {
    const { state, balanceReads } = server();
    const client = renderBalanceWith(<Bell />);
    // The first load asks once: the deposit already in the bell is what the balance read with it shows.
    expect(await screen.findByText('Bell 1')).toBeTruthy();
    expect(await screen.findByText('Balance 1000')).toBeTruthy();
    expect(balanceReads()).toBe(1);
    const poll = () => act(() => client.refetchQueries({ queryKey: ['notifications', 'bell'] }));

    // News that moves no money: the balance is not asked for.
    state.notices = [{ id: 2, kind: 'order_completed' }, ...state.notices];
    await poll();
    expect(await screen.findByText('Bell 2')).toBeTruthy();
    expect(balanceReads()).toBe(1);

    // An administrator credited the wallet while the customer stayed on the page.
    state.balance = 2500;
    state.notices = [{ id: 3, kind: 'wallet_adjusted' }, ...state.notices];
    await poll();
    expect(await screen.findByText('Balance 2500')).toBeTruthy();
    expect(balanceReads()).toBe(2);

    // The same notifications again: nothing new, nothing asked.
    await poll();
    expect(balanceReads()).toBe(2);
  });

  it('re-reads the balance when the tab regains focus, however recently it was read', async () => {
    const { state, balanceReads } = server();
    renderBalanceWith();
    expect(await screen.findByText('Balance 1000')).toBeTruthy();
    // An administrator credited the wallet while the customer was in another tab.
    state.balance = 6000;
    act(() => focusManager.setFocused(false));
    act(() => focusManager.setFocused(true));
    expect(await screen.findByText('Balance 6000')).toBeTruthy();
    expect(balanceReads()).toBe(2);
  });

  it('re-reads balances on a timer while the page is visible', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { state } = server();
    renderBalanceWith();
    expect(await screen.findByText('Balance 1000')).toBeTruthy();
    state.balance = 2500;
    await act(() => vi.advanceTimersByTimeAsync(61_000));
    await waitFor(() => expect(screen.getByText('Balance 2500')).toBeTruthy());
  });
});

function Ago({ at }: { at: number }) {
  return (
    <p>
      Placed <TimeAgo at={at} />
    </p>
  );
}

describe('relative times', () => {
  it('tick with the clock instead of freezing at the first render', async () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2024-03-05T10:00:00Z'));
    render(<Ago at={Date.now()} />);
    expect(screen.getByText('Placed just now')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(90_000));
    expect(screen.getByText('Placed 1 min ago')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(screen.getByText('Placed 3 mins ago')).toBeTruthy();
  });
});
