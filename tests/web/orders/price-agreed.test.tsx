// The price agreed on the order screen: the order form sends the charge it shows and, when the
// server answers that the price moved, shows the new one and places nothing until the customer
// confirms it; the mass order shows the total of its lines before charging, confirms a changed
// total the same way, and after placing keeps the lines not placed in the box with their reasons.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch, retype } from '../helpers';
import { ORDER_SERVICES, RICH_ADA } from './order-catalogue';

const SERVICES = ORDER_SERVICES;

type Answer = { status: number; body: unknown };

/** Each POST's Idempotency-Key, in order. */
let keysSent: Array<string | null> = [];

/** The API, answering POSTs to `path` in turn with `answers`; every body sent is kept. */
function server(path: 'user/orders' | 'user/mass-order', answers: Answer[]) {
  const sent: Array<Record<string, unknown>> = [];
  keysSent = [];
  mockFetch((url, init) => {
    const userArea = userAreaAnswer(url, RICH_ADA);
    if (userArea) return userArea;
    if (url.includes('/services')) {
      const search = new URL(url, 'http://shop.test').searchParams.get('search');
      const found = SERVICES.filter((service) => !search || String(service.id) === search);
      return jsonResponse(200, { data: found, page: 1, limit: 50, total: found.length });
    }
    if (url.includes(path) && init.method === 'POST') {
      sent.push(JSON.parse(String(init.body)));
      keysSent.push(new Headers(init.headers).get('Idempotency-Key'));
      const answer = answers[Math.min(sent.length, answers.length) - 1];
      return jsonResponse(answer.status, answer.body);
    }
    return jsonResponse(404, {});
  });
  return sent;
}

const open = (path: string) => renderApp(path, RICH_ADA);

/** Naira as the screen writes it (Intl puts a no-break space after the code); text queries read it as a space. */
const ngn = (amount: string) => `NGN\u00a0${amount}`;

describe('the order form at the price agreed', () => {
  it('shows the new price when the server says it changed, places nothing until confirmed, then sends the new charge', async () => {
    const user = userEvent.setup();
    const changed = 'The price changed from NGN 3,596.60 to NGN 4,046.17. Check the new price and confirm to place the order.';
    const sent = server('user/orders', [
      { status: 409, body: { message: changed, error: 'Conflict', data: { charge: '4046.17' } } },
      { status: 201, body: { message: 'Order placed successfully', data: { id: 9, charge: '4046.17' } } },
    ]);
    open('/user/create-order?service=102');
    const form = (await screen.findByText('Instagram Likes', { selector: 'p' })).closest('form')!;
    await user.type(within(form).getByLabelText('Link'), 'https://instagram.com/p/abc');
    await user.type(within(form).getByLabelText('Quantity'), '1000');
    expect(within(form).getByText('NGN 3,596.60', { selector: 'output' })).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: /Place order/ }));

    const notice = await within(form).findByText(/The price changed from/);
    expect(notice.textContent).toBe(
      `The price changed from ${ngn('3,596.60')} to ${ngn('4,046.17')}. Nothing was charged. Check the new price and confirm to place the order.`,
    );
    // The charge shows the new price, the old one struck through.
    expect(form.querySelector('output s')?.textContent).toBe(ngn('3,596.60'));
    expect(form.querySelector('output')?.textContent).toBe(`${ngn('3,596.60')}${ngn('4,046.17')}`);
    expect(within(form).queryByText(/placed for/)).toBeNull();
    expect(within(form).queryByRole('button', { name: /Place order/ })).toBeNull();
    expect(sent).toEqual([{ serviceId: 102, link: 'https://instagram.com/p/abc', quantity: 1000, expectedCharge: '3596.60' }]);

    await user.click(within(form).getByRole('button', { name: `Confirm and pay ${ngn('4,046.17')}` }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ serviceId: 102, link: 'https://instagram.com/p/abc', quantity: 1000, expectedCharge: '4046.17' });
    // The refusal wrote nothing, so the confirmation is the same submission: a retry of it can never be a second order.
    expect(keysSent[1]).toBeTruthy();
    expect(keysSent[1]).toBe(keysSent[0]);
    expect(await within(form).findByText(/placed for NGN 4,046\.17/)).toBeTruthy();
  });

  it('asks again at the price shown once the form changes after a refused price', async () => {
    const user = userEvent.setup();
    const sent = server('user/orders', [{ status: 409, body: { message: 'The price changed', error: 'Conflict', data: { charge: '4046.17' } } }]);
    open('/user/create-order?service=102');
    const form = (await screen.findByText('Instagram Likes', { selector: 'p' })).closest('form')!;
    await user.type(within(form).getByLabelText('Link'), 'https://instagram.com/p/abc');
    await user.type(within(form).getByLabelText('Quantity'), '1000');
    await user.click(within(form).getByRole('button', { name: /Place order/ }));
    await within(form).findByRole('button', { name: `Confirm and pay ${ngn('4,046.17')}` });

    await retype(user, within(form).getByLabelText('Quantity'), '2000');
    expect(within(form).queryByRole('button', { name: /Confirm and pay/ })).toBeNull();
    await user.click(within(form).getByRole('button', { name: /Place order/ }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ quantity: 2000, expectedCharge: '7193.20' });
  });
});

describe('the mass order at the total agreed', () => {
  const openMass = async (user: ReturnType<typeof userEvent.setup>) => {
    open('/user/create-order');
    await user.click(await screen.findByRole('tab', { name: 'Mass order' }));
    return screen.findByRole('form', { name: 'Mass order' });
  };

  it('shows the total of the lines before charging, sends it, and keeps the lines not placed in the box with their reasons', async () => {
    const user = userEvent.setup();
    const sent = server('user/mass-order', [
      {
        status: 200,
        body: {
          message: '2 of 3 orders placed',
          results: [
            { line: 1, ok: true, orderId: 31 },
            { line: 2, ok: false, error: 'Insufficient wallet balance' },
            { line: 3, ok: true, orderId: 32 },
          ],
        },
      },
    ]);
    const form = await openMass(user);
    const box = within(form).getByLabelText('Orders');
    await user.type(
      box,
      '102|https://instagram.com/p/a|1000\n\n102|https://instagram.com/p/b|500\n103|https://instagram.com/p/c|1\n104|https://instagram.com/p/d|10',
    );
    // 3596.60 + 1798.30 + 12.50; the comments line needs the order form: it adds nothing and is not sent.
    await waitFor(() => expect(within(form).getByRole('status', { name: 'Total' }).textContent).toBe(ngn('5,407.40')), { timeout: 3000 });
    expect(within(form).getByText(/Line 5: This service needs more details than a line can give/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: `Place orders for ${ngn('5,407.40')}` }));

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      orders: '102|https://instagram.com/p/a|1000\n102|https://instagram.com/p/b|500\n103|https://instagram.com/p/c|1',
      expectedTotal: '5407.40',
    });
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe('102|https://instagram.com/p/b|500\n104|https://instagram.com/p/d|10'));
    const kept = within(form).getByRole('list', { name: 'Lines not placed' });
    expect(
      within(kept)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Line 1: Insufficient wallet balance', 'Line 2: This service needs more details than a line can give: order it on the New order tab']);
    // The line the balance did not cover may be placed once it does: it counts again; the comments line does not.
    await waitFor(() => expect(within(form).getByRole('status', { name: 'Total' }).textContent).toBe(ngn('1,798.30')));
    expect(within(form).getByText(/1 not to be placed/)).toBeTruthy();
    const results = screen.getByRole('complementary', { name: 'Results' });
    expect(within(results).getByText('Order #31 placed')).toBeTruthy();
  });

  it('shows a changed total and places the lines only once the customer confirms it', async () => {
    const user = userEvent.setup();
    const sent = server('user/mass-order', [
      { status: 409, body: { message: 'The total changed', error: 'Conflict', data: { total: '4046.17' } } },
      { status: 200, body: { message: '1 of 1 orders placed', results: [{ line: 1, ok: true, orderId: 40 }] } },
    ]);
    const form = await openMass(user);
    const box = within(form).getByLabelText('Orders');
    await user.type(box, '102|https://instagram.com/p/a|1000');
    await user.click(await within(form).findByRole('button', { name: `Place orders for ${ngn('3,596.60')}` }, { timeout: 3000 }));

    const notice = await within(form).findByText(/The total changed from/);
    expect(notice.textContent).toBe(
      `The total changed from ${ngn('3,596.60')} to ${ngn('4,046.17')}. Nothing was charged. Check the new prices and confirm to place the orders.`,
    );
    expect((box as HTMLTextAreaElement).value).toBe('102|https://instagram.com/p/a|1000');
    expect(sent).toHaveLength(1);
    await user.click(within(form).getByRole('button', { name: `Confirm and pay ${ngn('4,046.17')}` }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ orders: '102|https://instagram.com/p/a|1000', expectedTotal: '4046.17' });
    // Same key: lines a lost earlier attempt had placed come back as they are instead of being placed twice.
    expect(keysSent[1]).toBeTruthy();
    expect(keysSent[1]).toBe(keysSent[0]);
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''));
  });
});
