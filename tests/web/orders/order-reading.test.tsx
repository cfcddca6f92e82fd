// The customer's orders read as what they cost, in the table (desktop) and on the card (phone) alike: a drip-feed's
// total beside its per-run figure, what was delivered, why a refund is that amount, the reason an order stopped, and an
// order whose submission is being confirmed, with the time to expect an answer and a one-tap ticket about it.

import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '@/api/orders';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';
import { customerOrder } from './order-fixture';

const base = customerOrder({
  serviceName: 'Instagram Likes',
  link: 'https://instagram.com/p/ada',
  quantity: 100,
  runs: 5,
  interval: 30,
  total: 500,
  delivered: null,
  charge: '558.10',
  startCount: null,
  remains: null,
  status: 'Pending',
  created_at: '2026-11-05T10:00:00Z',
  updated_at: '2026-11-05T10:00:00Z',
});
const DRIP_FEED: Order = { ...base, id: 51 };
const PARTLY_CANCELED: Order = {
  ...base,
  id: 52,
  status: 'Canceled',
  statusReason: 'Cancel requested by an administrator: The account is private',
  delivered: 400,
  remains: 100,
  startCount: 20,
  refunded: '111.62',
};
const EXPECTED_BY = '2026-11-06T10:00:00.000Z';
const BEING_CONFIRMED: Order = {
  ...base,
  id: 53,
  runs: null,
  interval: null,
  quantity: 1000,
  total: 1000,
  status: 'Pending Submission',
  confirmationExpectedBy: EXPECTED_BY,
};

function server() {
  const tickets: unknown[] = [];
  mockFetch((url, init) => {
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('user/tickets') && init.method === 'POST') {
      tickets.push(JSON.parse(String(init.body)));
      return jsonResponse(201, { message: 'Ticket opened. We will answer here as soon as we can.', data: { id: 77 } });
    }
    if (url.includes('user/tickets')) return jsonResponse(404, { message: 'Not found' });
    if (url.includes('user/orders')) return jsonResponse(200, { data: [DRIP_FEED, PARTLY_CANCELED, BEING_CONFIRMED], page: 1, limit: 20, total: 3 });
    return jsonResponse(404, {});
  });
  return tickets;
}

/** Order #id's table row (desktop) and phone card. */
const placesOf = (id: number) => {
  const row = within(screen.getByRole('table')).getByText(`#${id}`).closest('tr')!;
  const card = within(screen.getByRole('list', { name: 'Orders' }))
    .getByText(new RegExp(`^#${id} ·`))
    .closest('li')!;
  return { row, card };
};

afterEach(cleanup);

describe('an order read as what it costs', () => {
  it('shows 500 for a drip-feed of 5 runs × 100, beside the per-run figure, at desktop and phone', async () => {
    server();
    renderApp('/user/orders');
    await screen.findByRole('table');
    const { row, card } = placesOf(51);
    expect(within(row).getByText('500')).toBeTruthy();
    expect(within(row).getByText('5 runs × 100')).toBeTruthy();
    expect(within(row).getByText(/558\.10/)).toBeTruthy();
    expect(card.textContent).toContain('#51 · 500 (5 runs × 100)');
    expect(card.textContent).toMatch(/558\.10/);
    expect(card.textContent).toContain('Delivered —');
  });

  it('says what was delivered, why the refund is that amount, and why the order stopped', async () => {
    server();
    renderApp('/user/orders');
    await screen.findByRole('table');
    for (const place of Object.values(placesOf(52))) {
      expect(place.textContent).toContain('400 of 500');
      expect(place.textContent).toMatch(/Refunded (NGN\s|₦)111\.62 for the 100 of 500 not delivered/);
      expect(within(place).getByText('Cancel requested by an administrator: The account is private')).toBeTruthy();
      expect(place.textContent).not.toMatch(/Remains/);
    }
  });

  it('reads "Being confirmed with the provider" with the time to expect an answer, and opens a ticket about the order in one tap', async () => {
    const user = userEvent.setup();
    const tickets = server();
    const router = renderApp('/user/orders');
    await screen.findByRole('table');
    const { row, card } = placesOf(53);
    for (const place of [row, card]) {
      expect(within(place).getByText('Pending Submission')).toBeTruthy();
      expect(within(place).getByText('Being confirmed with the provider')).toBeTruthy();
      expect(within(place).getByText((_, element) => element?.getAttribute('dateTime') === EXPECTED_BY)).toBeTruthy();
      expect(within(place).getByRole('button', { name: 'Ask support about this order' })).toBeTruthy();
    }
    expect(within(placesOf(51).row).queryByText('Being confirmed with the provider')).toBeNull();

    await user.click(within(card).getByRole('button', { name: 'Ask support about this order' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/tickets/77'));
    expect(tickets).toEqual([expect.objectContaining({ kind: 'order', orderId: 53, subject: 'Order #53: being confirmed with the provider' })]);
  });
});
