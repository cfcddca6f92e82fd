// What the mass order offers is what it would place: each line is checked before the total (its
// format, a service on sale that a line can order, the link, the quantity within the service's
// range); a line the page can already reject is marked with its reason, neither counted nor sent,
// and when no line is left the page offers to place nothing. While the wallet owes a debt the
// Worker places no order at all, and the page says so instead of offering one.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';
import { ORDER_SERVICES, RICH_ADA, SERVICE_BASE } from './order-catalogue';

const SERVICES = [
  ...ORDER_SERVICES,
  {
    ...SERVICE_BASE,
    id: 105,
    name: 'Instagram Followers',
    category: 'Instagram Followers',
    type: 'Default',
    linkKind: 'username',
    min: 50,
    max: 5000,
    rate: '1000.00',
    rateKobo: '100000',
  },
];

/** The API with the catalogue above (id 999 is not on sale: the search finds nothing) and POST user/mass-order answering `answer`. */
function server(answer: unknown, wallet: { walletBalance: number; walletDebt?: number } = { walletBalance: 50000 }) {
  const sent: Array<Record<string, unknown>> = [];
  mockFetch((url, init) => {
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletDebt: 0, ...wallet });
    const userArea = userAreaAnswer(url, RICH_ADA);
    if (userArea) return userArea;
    if (url.includes('/services')) {
      const search = new URL(url, 'http://shop.test').searchParams.get('search');
      const found = SERVICES.filter((service) => !search || String(service.id) === search);
      return jsonResponse(200, { data: found, page: 1, limit: 50, total: found.length });
    }
    if (url.includes('user/mass-order') && init.method === 'POST') {
      sent.push(JSON.parse(String(init.body)));
      return jsonResponse(200, answer);
    }
    return jsonResponse(404, {});
  });
  return sent;
}

const ngn = (amount: string) => `NGN\u00a0${amount}`;

async function openMass(user: ReturnType<typeof userEvent.setup>) {
  renderApp('/user/create-order', RICH_ADA);
  await user.click(await screen.findByRole('tab', { name: 'Mass order' }));
  return screen.findByRole('form', { name: 'Mass order' });
}

/** Pastes `text` into the box at once (typing a hundred characters a line is slow and changes nothing here). */
async function paste(user: ReturnType<typeof userEvent.setup>, form: HTMLElement, text: string) {
  const box = within(form).getByLabelText('Orders');
  await user.click(box);
  await user.paste(text);
  return box as HTMLTextAreaElement;
}

const reasons = (form: HTMLElement) =>
  within(within(form).getByRole('list', { name: 'Lines not placed' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('the mass order counts only the lines it would place', () => {
  it('marks each line it can reject with its reason, totals and sends only the others, and keeps the rejected ones in the box', async () => {
    const user = userEvent.setup();
    const sent = server({
      message: '2 of 2 orders placed',
      results: [
        { line: 1, ok: true, orderId: 51 },
        { line: 2, ok: true, orderId: 52 },
      ],
    });
    const form = await openMass(user);
    const lines = [
      '102|https://instagram.com/p/a|1000', // 1: placed, NGN 3,596.60
      '999|https://instagram.com/p/b|1000', // 2: no such service on sale
      '102|https://instagram.com/p/c|50', // 3: under the minimum
      '102|https://instagram.com/p/d|20000', // 4: over the maximum
      '102|not a link|1000', // 5: no web address
      '102|https://instagram.com/p/e', // 6: malformed
      '104|https://instagram.com/p/f|10', // 7: needs the New order form
      '103|https://instagram.com/p/g|2', // 8: a package is one
      '105|@ada lovelace|100', // 9: no username
      'abc|https://instagram.com/p/h|100', // 10: no service id
      '105|@ada_l|100', // 11: placed, NGN 100.00
    ];
    const box = await paste(user, form, lines.join('\n'));

    await waitFor(() => expect(within(form).getByRole('status', { name: 'Total' }).textContent).toBe(ngn('3,696.60')), { timeout: 3000 });
    expect(within(form).getByText('· 2 orders', { exact: false })).toBeTruthy();
    expect(within(form).getByText(/9 not to be placed/)).toBeTruthy();
    expect(reasons(form)).toEqual([
      'Line 2: This service does not exist or is not available',
      'Line 3: Minimum quantity is 100',
      'Line 4: Maximum quantity is 10,000',
      'Line 5: Please enter a valid link, e.g. https://instagram.com/p/abc',
      'Line 6: Use the format serviceId|link|quantity',
      'Line 7: This service needs more details than a line can give: order it on the New order tab',
      'Line 8: This service is sold by the package: each order is one package, so leave the quantity out or send 1',
      'Line 9: Please enter a username, e.g. @name, or a link to the profile',
      'Line 10: This service does not exist or is not available',
    ]);

    await user.click(within(form).getByRole('button', { name: `Place orders for ${ngn('3,696.60')}` }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ orders: '102|https://instagram.com/p/a|1000\n105|@ada_l|100', expectedTotal: '3696.60' });
    // The two placed lines leave the box; the nine it did not send stay as they were typed.
    await waitFor(() => expect(box.value).toBe(lines.slice(1, 10).join('\n')));
    expect(within(screen.getByRole('complementary', { name: 'Results' })).getByText('Order #52 placed')).toBeTruthy();
  });

  it('offers to place nothing when every line is marked not to be placed', async () => {
    const user = userEvent.setup();
    const sent = server({ message: '', results: [] });
    const form = await openMass(user);
    await paste(user, form, '102|https://instagram.com/p/c|50\n999|https://instagram.com/p/b|1000\n102|https://instagram.com/p/e');

    await waitFor(() => expect(within(form).getByText(/3 not to be placed/)).toBeTruthy(), { timeout: 3000 });
    await waitFor(() => expect(within(form).getByRole('status', { name: 'Total' }).textContent).toBe(ngn('0.00')));
    expect(within(form).queryByRole('button', { name: /Place orders for/ })).toBeNull();
    const button = within(form).getByRole('button', { name: 'No orders to place' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(
      'Every line is marked not to be placed: correct the lines above to place them.',
    );
    await user.click(button);
    expect(sent).toHaveLength(0);
  });

  it('counts no more a line the server refused for itself, but counts again one refused for the balance', async () => {
    const user = userEvent.setup();
    const sent = server({
      message: '1 of 3 orders placed',
      results: [
        { line: 1, ok: true, orderId: 61 },
        { line: 2, ok: false, error: 'This service needs an Instagram link' },
        { line: 3, ok: false, error: 'Insufficient wallet balance' },
      ],
    });
    const form = await openMass(user);
    const box = await paste(user, form, '102|https://instagram.com/p/a|1000\n102|https://tiktok.com/@me/video/1|1000\n102|https://instagram.com/p/b|2000');
    await user.click(await within(form).findByRole('button', { name: `Place orders for ${ngn('14,386.40')}` }, { timeout: 3000 }));
    await waitFor(() => expect(box.value).toBe('102|https://tiktok.com/@me/video/1|1000\n102|https://instagram.com/p/b|2000'));
    expect(sent[0]).toEqual({
      orders: '102|https://instagram.com/p/a|1000\n102|https://tiktok.com/@me/video/1|1000\n102|https://instagram.com/p/b|2000',
      expectedTotal: '14386.40',
    });
    // The link would be refused again: only the line the balance did not cover is offered, at its own price.
    await waitFor(() => expect(within(form).getByRole('status', { name: 'Total' }).textContent).toBe(ngn('7,193.20')));
    expect(within(form).getByText(/1 not to be placed/)).toBeTruthy();
    expect(reasons(form)).toEqual(['Line 1: This service needs an Instagram link', 'Line 2: Insufficient wallet balance']);
    await user.click(within(form).getByRole('button', { name: `Place orders for ${ngn('7,193.20')}` }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toEqual({ orders: '102|https://instagram.com/p/b|2000', expectedTotal: '7193.20' });
  });

  it('says no order can be placed while the wallet owes a debt, and offers none', async () => {
    const user = userEvent.setup();
    const sent = server({ message: '', results: [] }, { walletBalance: 50000, walletDebt: 1161.8 });
    const form = await openMass(user);
    await paste(user, form, '102|https://instagram.com/p/a|1000');

    await waitFor(() => expect(within(form).getByRole('status', { name: 'Total' }).textContent).toBe(ngn('3,596.60')), { timeout: 3000 });
    const alert = within(form).getByText(/Your wallet owes/);
    expect(alert.textContent).toContain(`Your wallet owes ${ngn('1,161.80')} after a card payment was refunded or charged back, and no order can be placed`);
    expect(within(form).queryByRole('button', { name: /Place orders for/ })).toBeNull();
    expect((within(form).getByRole('button', { name: 'No orders to place' }) as HTMLButtonElement).disabled).toBe(true);
    expect(sent).toHaveLength(0);
  });
});
