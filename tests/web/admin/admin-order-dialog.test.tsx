// The admin order dialog offers the actions that match where the order is, and names the status it
// showed with each, so the Worker can refuse a change to an order that moved on meanwhile.

import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Swal from 'sweetalert2';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminOrderDialog } from '@/features/admin/orders/AdminOrderDialog';
import type { AdminOrderDetail } from '@/features/admin/orders/api/get-order';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

const ORDER: AdminOrderDetail = {
  id: 7,
  serviceId: 3,
  serviceName: 'Instagram Followers',
  link: 'https://instagram.com/brand',
  quantity: 1000,
  runs: null,
  interval: null,
  posts: null,
  total: 1000,
  delivered: 0,
  confirmationExpectedBy: null,
  extras: {},
  charge: '3596.60',
  refunded: '0.00',
  cost: '2247.87',
  rate: '3596.60',
  startCount: 120,
  remains: 1000,
  status: 'Pending',
  statusReason: null,
  canRefill: false,
  refillUntil: null,
  canCancel: true,
  userId: 2,
  userEmail: 'ada@example.com',
  userFullName: 'Ada Obi',
  providerId: 1,
  providerName: 'Panel',
  providerServiceId: '1021',
  providerOrderId: '5501',
  submission: 'accepted',
  submissionError: null,
  submitAttempts: 1,
  deliverable: 1000,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  submittedAt: '2026-11-01T00:00:01Z',
  completedAt: null,
  cancelRequestedAt: null,
  providerNote: 'provider said: "Stuck"',
  unreadableSyncs: 3,
  canceledBy: null,
  refills: [],
};

function server(order: AdminOrderDetail) {
  const sent: Array<{ url: string; body: unknown }> = [];
  mockFetch((url, init) => {
    if (init.method === 'POST') {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return jsonResponse(200, { message: 'Order canceled and refunded without the provider', data: order });
    }
    if (url.includes('admin/orders/7')) return jsonResponse(200, { data: order });
    if (url.includes('settings')) return jsonResponse(200, { data: {} });
    return jsonResponse(404, {});
  });
  return sent;
}

afterEach(() => {
  Swal.close();
  cleanup();
});

describe('AdminOrderDialog', () => {
  it('offers a cancel through the provider and a refund without it, which needs a reason and names the status shown', async () => {
    const user = userEvent.setup();
    const sent = server(ORDER);
    render(
      <WithQuery>
        <AdminOrderDialog orderId={7} onClose={() => {}} />
      </WithQuery>,
    );

    expect(await screen.findByRole('button', { name: 'Cancel at the provider' })).toBeTruthy();
    expect(screen.getByText('provider said: "Stuck" (3 reads in a row)')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Refund without the provider' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, refund' }));
    expect(await screen.findByText('Say why the order is refunded without the provider')).toBeTruthy();
    expect(sent).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: 'What you checked (kept in the audit log)' }), 'Not in the panel');
    await user.click(screen.getByRole('button', { name: 'Yes, refund' }));
    await waitFor(() =>
      expect(sent).toEqual([
        { url: expect.stringContaining('admin/orders/7/refund-without-provider'), body: { reason: 'Not in the panel', expectedStatus: 'Pending' } },
      ]),
    );
  });

  it('cancels an order still queued with us at once, and offers no refund without the provider for it', async () => {
    const user = userEvent.setup();
    const sent = server({ ...ORDER, status: 'Pending Submission', submission: 'queued', providerOrderId: null, providerNote: null, unreadableSyncs: 0 });
    render(
      <WithQuery>
        <AdminOrderDialog orderId={7} onClose={() => {}} />
      </WithQuery>,
    );

    await user.click(await screen.findByRole('button', { name: 'Cancel and refund' }));
    expect(screen.queryByRole('button', { name: 'Refund without the provider' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Yes, cancel and refund' }));
    await waitFor(() =>
      expect(sent).toEqual([{ url: expect.stringContaining('admin/orders/7/cancel'), body: { reason: undefined, expectedStatus: 'Pending Submission' } }]),
    );
  });

  it.each([
    [{ by: 'customer' }, 'The customer'],
    [{ by: 'administrator', name: 'Bola Admin' }, 'An administrator: Bola Admin'],
    [{ by: 'provider' }, 'The provider'],
  ] as const)('says who canceled a canceled order: %j', async (canceledBy, text) => {
    server({ ...ORDER, status: 'Canceled', statusReason: 'Canceled on request before it reached the provider', submission: 'withdrawn', canceledBy });
    render(
      <WithQuery>
        <AdminOrderDialog orderId={7} onClose={() => {}} />
      </WithQuery>,
    );
    const label = await screen.findByText('Canceled by');
    expect(label.nextElementSibling?.textContent).toBe(text);
  });

  it('reads the order again after "The order changed meanwhile", so its buttons follow the order as it is now', async () => {
    const user = userEvent.setup();
    let current: AdminOrderDetail = ORDER;
    mockFetch((url, init) => {
      if (init.method === 'POST') {
        // Someone else canceled it while this dialog was open.
        current = { ...ORDER, status: 'Canceled', canCancel: false, submission: 'accepted', cancelRequestedAt: null, canceledBy: { by: 'provider' } };
        return jsonResponse(409, { message: 'The order changed meanwhile; reload it', error: 'Conflict' });
      }
      if (url.includes('admin/orders/7')) return jsonResponse(200, { data: current });
      return jsonResponse(200, { data: {} });
    });
    render(
      <WithQuery>
        <AdminOrderDialog orderId={7} onClose={() => {}} />
      </WithQuery>,
    );

    await user.click(await screen.findByRole('button', { name: 'Refund without the provider' }));
    await user.type(await screen.findByRole('textbox', { name: 'What you checked (kept in the audit log)' }), 'Not in the panel');
    await user.click(screen.getByRole('button', { name: 'Yes, refund' }));
    expect(await screen.findByText('The provider')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Refund without the provider' })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Cancel at the provider' })).toBeNull();
  });

  it('says nothing about canceling an order that is not canceled', async () => {
    server(ORDER);
    render(
      <WithQuery>
        <AdminOrderDialog orderId={7} onClose={() => {}} />
      </WithQuery>,
    );
    await screen.findByRole('button', { name: 'Cancel at the provider' });
    expect(screen.queryByText('Canceled by')).toBeNull();
  });
});
