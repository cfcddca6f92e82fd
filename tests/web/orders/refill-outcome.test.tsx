// How an order's latest refill ended stays on the order (issue 28, "what the customer reads is true at every step"): a
// finished refill reads "Refill completed <date>", a refused one "Refill rejected: <the provider's reason>", under the
// status in the table and on the phone card alike; an order never refilled says nothing of refills.

import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '@/api/orders';
import { formatDate } from '@/lib/format';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';
import { customerOrder } from './order-fixture';

const base = customerOrder({
  delivered: 1000,
  remains: 0,
  status: 'Completed',
  canRefill: true,
  created_at: '2026-10-05T10:00:00Z',
  updated_at: '2026-11-03T12:00:00Z',
});
const REFILLED_AT = '2026-11-03T12:00:00.000Z';
const REFILLED: Order = { ...base, id: 61, refillOutcome: { status: 'Completed', reason: null, at: REFILLED_AT } };
const REFUSED: Order = {
  ...base,
  id: 62,
  refillOutcome: { status: 'Rejected', reason: 'Refill is not available for this order', at: '2026-11-04T12:00:00.000Z' },
};
const NEVER_REFILLED: Order = { ...base, id: 63 };

function server() {
  const orders = [REFILLED, REFUSED, NEVER_REFILLED];
  mockFetch((url) => {
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('user/orders')) return jsonResponse(200, { data: orders, page: 1, limit: 20, total: orders.length });
    return jsonResponse(404, {});
  });
}

/** Order #id's table row and phone card. */
const placesOf = (id: number) => {
  const row = within(screen.getByRole('table')).getByText(`#${id}`).closest('tr')!;
  const card = within(screen.getByRole('list', { name: 'Orders' }))
    .getByText(new RegExp(`^#${id} ·`))
    .closest('li')!;
  return [row, card];
};

afterEach(cleanup);

describe("an order's finished refill", () => {
  it('reads "Refill completed <date>" or "Refill rejected: <reason>" in the table and on the card; nothing for an order never refilled', async () => {
    server();
    renderApp('/user/orders');
    await screen.findByRole('table');

    expect(formatDate(REFILLED_AT)).toBe('Nov 3, 2026');
    for (const place of placesOf(61)) expect(within(place).getByText('Refill completed Nov 3, 2026')).toBeTruthy();
    for (const place of placesOf(62)) expect(within(place).getByText('Refill rejected: Refill is not available for this order')).toBeTruthy();
    for (const place of placesOf(63)) expect(within(place).queryByText(/^Refill (completed|rejected|canceled)/)).toBeNull();
  });
});
