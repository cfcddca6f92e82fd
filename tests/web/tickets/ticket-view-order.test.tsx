// "View order" on a ticket about an order opens that order: the orders page asked for "#9", which the server answers
// with order 9 alone (orderSearch), not a text search that also lists the orders whose link contains 9.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Order } from '@/api/orders';
import type { TicketDetail } from '@/api/tickets';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const ORDER: Order = {
  id: 9,
  serviceId: 101,
  serviceName: 'Instagram Followers',
  link: 'https://instagram.com/brand',
  quantity: 1000,
  runs: null,
  interval: null,
  posts: null,
  total: 1000,
  delivered: 0,
  confirmationExpectedBy: null,
  charge: '1500.00',
  startCount: null,
  remains: 1000,
  status: 'Pending',
  statusReason: null,
  refunded: '0.00',
  canRefill: false,
  refillUntil: null,
  canCancel: false,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};
/** Another order whose id and link both contain 9: a text search for "9" lists it too. */
const OTHER: Order = { ...ORDER, id: 19, link: 'https://instagram.com/brand9' };

const TICKET: TicketDetail = {
  id: 5,
  subject: 'Where is my order?',
  kind: 'order',
  status: 'Answered',
  unread: false,
  orderId: 9,
  paymentReference: null,
  lastMessageAt: '2026-11-02T10:00:00Z',
  closedAt: null,
  created_at: '2026-11-02T09:00:00Z',
  order: { id: 9, serviceName: 'Instagram Followers', status: 'Pending', link: ORDER.link, charge: '1500.00', created_at: ORDER.created_at },
  payment: null,
  messages: [{ id: 1, fromStaff: false, authorName: 'Ada Obi', body: 'Nothing yet.', created_at: '2026-11-02T09:00:00Z' }],
};

/** The server: "#9" is order 9 alone, a bare "9" also finds order 19 by its link and id. */
function server() {
  const searches: Array<string | null> = [];
  mockFetch((url) => {
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('user/tickets/unread')) return jsonResponse(200, { data: { unread: 0 } });
    if (url.includes('user/tickets/5')) return jsonResponse(200, { data: TICKET });
    if (url.includes('user/orders')) {
      const search = new URL(url, 'http://shop.test').searchParams.get('search');
      searches.push(search);
      const data = search === '#9' ? [ORDER] : search === '9' ? [OTHER, ORDER] : [OTHER, ORDER];
      return jsonResponse(200, { data, page: 1, limit: 20, total: data.length });
    }
    return jsonResponse(404, {});
  });
  return searches;
}

describe("a ticket's View order", () => {
  it('opens the orders page on that order alone', async () => {
    const searches = server();
    const router = renderApp('/user/tickets/5');
    const view = await screen.findByRole('link', { name: 'View order' });
    expect(view.getAttribute('href')).toBe('/user/orders?search=%239');

    await userEvent.setup().click(view);
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/orders'));
    expect(new URLSearchParams(router.state.location.search).get('search')).toBe('#9');
    await waitFor(() => expect(searches).toContain('#9'));
    expect(searches.every((search) => search === '#9')).toBe(true);
    const table = await screen.findByRole('table');
    await waitFor(() => expect(within(table).getByText('#9')).toBeTruthy());
    expect(within(table).queryByText('#19')).toBeNull();
  });
});
