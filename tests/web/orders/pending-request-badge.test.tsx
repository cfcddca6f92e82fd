// The customer's orders with a refill or cancel the provider has not answered yet: an amber note under the status, in the
// table and on the phone card alike, and no Cancel or Refill button for what is already asked.

import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Swal from 'sweetalert2';
import { afterEach, describe, expect, it } from 'vitest';
import type { Order } from '@/api/orders';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';
import { customerOrder } from './order-fixture';

const base = customerOrder();
const CANCEL_ASKED: Order = { ...base, id: 41, pendingRequest: 'Cancel requested' };
const REFILL_ASKED: Order = { ...base, id: 42, status: 'Completed', remains: 0, pendingRequest: 'Refill requested' };
const CANCELABLE: Order = { ...base, id: 43, status: 'Pending', canCancel: true };

/** The orders list as the server holds it; a cancel of #43 is forwarded to the provider and the list then says so. */
function server() {
  let orders = [CANCEL_ASKED, REFILL_ASKED, CANCELABLE];
  const canceled: string[] = [];
  mockFetch((url, init) => {
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('user/orders/43/cancel') && init.method === 'POST') {
      canceled.push(url);
      orders = orders.map((order) => (order.id === 43 ? { ...order, canCancel: false, pendingRequest: 'Cancel requested' } : order));
      return jsonResponse(200, { message: 'Cancellation requested; the refund follows when the provider confirms it', data: orders[2] });
    }
    if (url.includes('user/orders')) return jsonResponse(200, { data: orders, page: 1, limit: 20, total: orders.length });
    return jsonResponse(404, {});
  });
  return canceled;
}

/** Order #id's table row and phone card. */
const placesOf = (id: number) => {
  const row = within(screen.getByRole('table')).getByText(`#${id}`).closest('tr')!;
  const card = within(screen.getByRole('list', { name: 'Orders' }))
    .getByText(new RegExp(`^#${id} ·`))
    .closest('li')!;
  return [row, card];
};

afterEach(() => {
  Swal.close();
  cleanup();
});

describe('an order with a request the provider has not answered', () => {
  it('shows "Cancel requested" or "Refill requested" beside the status in the table and on the card, with no button for it', async () => {
    server();
    renderApp('/user/orders');
    await screen.findByRole('table');

    for (const place of placesOf(41)) {
      expect(within(place).getByText('In progress')).toBeTruthy();
      expect(within(place).getByText('Cancel requested').className).toContain('bg-amber-50');
      expect(within(place).queryByRole('button')).toBeNull();
    }
    for (const place of placesOf(42)) {
      expect(within(place).getByText('Completed')).toBeTruthy();
      expect(within(place).getByText('Refill requested')).toBeTruthy();
      expect(within(place).queryByRole('button', { name: 'Refill order 42' })).toBeNull();
    }
    for (const place of placesOf(43)) {
      expect(within(place).queryByText(/requested/)).toBeNull();
      expect(within(place).getByRole('button', { name: 'Cancel order 43' })).toBeTruthy();
    }
  });

  it('turns the Cancel button into the note once the cancel is forwarded', async () => {
    const user = userEvent.setup();
    const canceled = server();
    renderApp('/user/orders');
    await screen.findByRole('table');

    await user.click(within(placesOf(43)[0]).getByRole('button', { name: 'Cancel order 43' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, cancel it' }));
    await waitFor(() => expect(canceled).toHaveLength(1));
    await waitFor(() => {
      for (const place of placesOf(43)) {
        expect(within(place).getByText('Cancel requested')).toBeTruthy();
        expect(within(place).queryByRole('button', { name: 'Cancel order 43' })).toBeNull();
      }
    });
    expect(within(placesOf(43)[0]).getByText('Pending')).toBeTruthy();
  });
});
