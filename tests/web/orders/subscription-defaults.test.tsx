// A subscription's order form starts at "No delay" and its expiry date is typed on a phone's
// number pad: the slashes come by themselves, and the order carries the date as dd/mm/yyyy.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expiryAsTyped } from '@/features/orders/orderFields';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const SUBSCRIPTION = {
  id: 201,
  name: 'Instagram Auto Likes',
  category: 'Instagram Auto Likes',
  type: 'Subscriptions',
  platform: 'Instagram',
  categoryId: 1,
  rate: '12.50',
  rateKobo: '1250',
  min: 100,
  max: 10000,
  linkKind: 'url',
  refill: false,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: null,
  refillDays: null,
};

function server() {
  const orders: Array<Record<string, unknown>> = [];
  mockFetch((url, init) => {
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('/services')) return jsonResponse(200, { data: [SUBSCRIPTION], page: 1, limit: 100, total: 1 });
    if (url.includes('user/orders') && init.method === 'POST') {
      orders.push(JSON.parse(String(init.body)));
      return jsonResponse(201, { message: 'Order placed successfully', data: { id: 9, charge: '25.00' } });
    }
    return jsonResponse(404, {});
  });
  return { orders };
}

describe('the subscription order form', () => {
  it('has "No delay" chosen and the expiry date on the number pad, and sends both', async () => {
    const user = userEvent.setup();
    const { orders } = server();
    renderApp(`/user/create-order?service=${SUBSCRIPTION.id}`);
    const form = (await screen.findByText(SUBSCRIPTION.name, { selector: 'p' })).closest('form')!;

    const delay = within(form).getByLabelText('Delay after a new post');
    expect(delay).toHaveProperty('value', '0');
    expect(within(delay).getByRole<HTMLOptionElement>('option', { name: 'No delay' }).selected).toBe(true);

    const expiry = within(form).getByLabelText<HTMLInputElement>('Expiry date (optional)');
    expect(expiry.inputMode).toBe('numeric');
    await user.type(expiry, '31122027');
    expect(expiry.value).toBe('31/12/2027');

    await user.type(within(form).getByLabelText('Username'), 'ada');
    await user.type(within(form).getByLabelText('Minimum per post'), '100');
    await user.type(within(form).getByLabelText('Maximum per post'), '200');
    await user.type(within(form).getByLabelText('Number of future posts'), '10');
    await user.click(within(form).getByRole('button', { name: /Place order/ }));

    await waitFor(() =>
      expect(orders).toEqual([expect.objectContaining({ serviceId: SUBSCRIPTION.id, delay: 0, expiry: '31/12/2027', min: 100, max: 200, posts: 10 })]),
    );
    // After an order the form starts again from "No delay".
    expect(within(form).getByLabelText('Delay after a new post')).toHaveProperty('value', '0');
  });
});

describe('the expiry date as typed', () => {
  it('puts the slashes in as the digits reach them, and keeps only a date', () => {
    expect(expiryAsTyped('3')).toBe('3');
    expect(expiryAsTyped('31')).toBe('31');
    expect(expiryAsTyped('311')).toBe('31/1');
    expect(expiryAsTyped('31/12/2027')).toBe('31/12/2027');
    expect(expiryAsTyped('31-12-20279')).toBe('31/12/2027');
    expect(expiryAsTyped('31/')).toBe('31');
    expect(expiryAsTyped('')).toBe('');
  });
});
