// The order form asks for what the service takes: a username or profile link for services sold
// by username (followers, members), a link for the others, and no quantity for packages (an
// order is one package). The server's refusal of a link shows under the link field.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, userAreaAnswer } from '../app';
import { describedText, jsonResponse, mockFetch, retype } from '../helpers';

const base = {
  platform: 'Instagram',
  categoryId: 1,
  rate: '12.50',
  rateKobo: '1250',
  refill: true,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: null,
  refillDays: 30,
};
const SERVICES = [
  { ...base, id: 101, name: 'Instagram Followers HQ', category: 'Instagram Followers', type: 'Default', min: 100, max: 10000, linkKind: 'username' },
  { ...base, id: 102, name: 'Instagram Likes', category: 'Instagram Likes', type: 'Default', min: 100, max: 10000, linkKind: 'url' },
  { ...base, id: 103, name: 'Instagram Reach Package', category: 'Instagram Packages', type: 'Package', min: 1, max: 1, linkKind: 'url' },
];

function server(refuse?: { status: number; message: string }) {
  const orders: unknown[] = [];
  const fetch = mockFetch((url, init) => {
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('/services')) return jsonResponse(200, { data: SERVICES, page: 1, limit: 100, total: SERVICES.length });
    if (url.includes('user/orders') && init.method === 'POST') {
      orders.push(JSON.parse(String(init.body)));
      if (refuse) return jsonResponse(refuse.status, { message: refuse.message, error: 'Bad Request' });
      return jsonResponse(201, { message: 'Order placed successfully', data: { id: 9, charge: '1.25' } });
    }
    return jsonResponse(404, {});
  });
  return { fetch, orders };
}

async function formFor(serviceId: number) {
  renderApp(`/user/create-order?service=${serviceId}`);
  const name = SERVICES.find((service) => service.id === serviceId)!.name;
  return (await screen.findByText(name, { selector: 'p' })).closest('form')!;
}

describe('the order form link field', () => {
  it('asks for a username or profile link for a service sold by username, and sends what was typed', async () => {
    const user = userEvent.setup();
    const { orders } = server();
    const form = await formFor(101);
    const link = within(form).getByLabelText('Username or profile link');
    expect(link.getAttribute('placeholder')).toBe('@username or profile link');
    expect(link.getAttribute('type')).toBe('text');
    expect(describedText(link)).toBe("The account's username, with or without @, or a link to its profile.");
    expect(within(form).queryByLabelText('Link')).toBeNull();

    await user.type(link, '@ada_lovelace');
    await user.type(within(form).getByLabelText('Quantity'), '100');
    await user.click(within(form).getByRole('button', { name: /Place order/ }));
    await waitFor(() => expect(orders).toEqual([{ serviceId: 101, link: '@ada_lovelace', quantity: 100, expectedCharge: '1.25' }]));
  });

  it('asks for a link for a service on a post', async () => {
    server();
    const form = await formFor(102);
    const link = within(form).getByLabelText('Link');
    expect(link.getAttribute('type')).toBe('url');
    expect(within(form).queryByLabelText('Username or profile link')).toBeNull();
  });

  it('asks no quantity for a package: each order is one', async () => {
    const user = userEvent.setup();
    const { orders } = server();
    const form = await formFor(103);
    expect(within(form).queryByLabelText('Quantity')).toBeNull();
    expect(within(form).queryByLabelText('Packages')).toBeNull();
    expect(within(form).getByText(/^Each order is one package, for /)).toBeTruthy();
    await user.type(within(form).getByLabelText('Link'), 'https://instagram.com/p/abc');
    await user.click(within(form).getByRole('button', { name: /Place order/ }));
    await waitFor(() => expect(orders).toEqual([{ serviceId: 103, link: 'https://instagram.com/p/abc', quantity: 1, expectedCharge: '12.50' }]));
  });

  it("shows the server's refusal of the link under the link field, and clears it once the link is edited", async () => {
    const user = userEvent.setup();
    const message = 'This service needs an Instagram username or profile link';
    const { orders } = server({ status: 400, message });
    const form = await formFor(101);
    const link = within(form).getByLabelText('Username or profile link');
    await user.type(link, 'https://tiktok.com/@ada');
    await user.type(within(form).getByLabelText('Quantity'), '100');
    await user.click(within(form).getByRole('button', { name: /Place order/ }));
    await waitFor(() => expect(describedText(link)).toBe(message));
    expect(link.getAttribute('aria-invalid')).toBe('true');
    expect(orders).toHaveLength(1);

    await retype(user, link, '@ada');
    await waitFor(() => expect(describedText(link)).toBe("The account's username, with or without @, or a link to its profile."));
  });

  it('keeps a refusal that is not about the link off the link field', async () => {
    const user = userEvent.setup();
    server({ status: 400, message: 'Insufficient wallet balance' });
    const toastError = vi.spyOn(toast, 'error');
    const form = await formFor(102);
    const link = within(form).getByLabelText('Link');
    await user.type(link, 'https://instagram.com/p/abc');
    await user.type(within(form).getByLabelText('Quantity'), '100');
    await user.click(within(form).getByRole('button', { name: /Place order/ }));
    await waitFor(() => expect(toastError).toHaveBeenCalledWith('Insufficient wallet balance'));
    expect(link.getAttribute('aria-invalid')).toBeNull();
    expect(describedText(link)).toBeNull();
  });
});
