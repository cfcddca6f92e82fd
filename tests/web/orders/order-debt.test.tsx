// What the order form says a customer needs when their wallet owes a debt (a card payment refunded or
// charged back after the money was spent). The Worker places no order while any debt is owed, and a
// deposit pays the debt before anything else (settleDebt): so what is needed is the charge plus the
// debt less the balance, and with a debt no order is offered, whatever the balance.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADA, renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const LIKES = {
  id: 201,
  name: 'Instagram Likes',
  platform: 'Instagram',
  category: 'Instagram Likes',
  categoryId: 1,
  type: 'Default',
  linkKind: 'url',
  refill: false,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: null,
  refillDays: null,
  min: 100,
  max: 10000,
  rate: '102.98',
  rateKobo: '10298',
};

function server(wallet: { walletBalance: number; walletDebt: number }) {
  const posted: unknown[] = [];
  mockFetch((url, init) => {
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, wallet);
    const userArea = userAreaAnswer(url, ADA);
    if (userArea) return userArea;
    if (url.includes('user/orders') && init.method === 'POST') {
      posted.push(JSON.parse(String(init.body)));
      return jsonResponse(400, { message: 'Insufficient wallet balance', error: 'Bad Request' });
    }
    if (url.includes('/services')) return jsonResponse(200, { data: [LIKES], page: 1, limit: 50, total: 1 });
    return jsonResponse(404, {});
  });
  return posted;
}

const ngn = (amount: string) => `NGN\u00a0${amount}`;

/** The form for 1,000 likes: a charge of NGN 102.98. */
async function fillOrder() {
  const user = userEvent.setup();
  renderApp('/user/create-order?service=201', ADA);
  const form = (await screen.findByText('Instagram Likes', { selector: 'p' })).closest('form')!;
  await user.type(within(form).getByLabelText('Link'), 'https://instagram.com/p/abc');
  await user.type(within(form).getByLabelText('Quantity'), '1000');
  expect(within(form).getByText('NGN 102.98', { selector: 'output' })).toBeTruthy();
  return { user, form };
}

describe('the order form with a wallet debt', () => {
  it('counts the debt in what the customer needs: charge + debt − balance, and offers no order', async () => {
    const posted = server({ walletBalance: 100, walletDebt: 1161.8 });
    const { user, form } = await fillOrder();
    const alert = await within(form).findByRole('alert');
    // The case: NGN 2.98 short of the charge, but NGN 1,164.78 short of an order that can be placed.
    expect(alert.textContent).toBe(
      `Insufficient balance — you need ${ngn('1,164.78')} more: the ${ngn('102.98')} charge and the ${ngn('1,161.80')} your wallet owes after a card payment ` +
        `was refunded or charged back, less your ${ngn('100.00')} balance. Your next deposit settles what is owed first; no order can be placed until it is paid. Add funds`,
    );
    expect(alert.textContent).not.toContain('2.98 more');
    const place = within(form).getByRole('button', { name: /Place order/ }) as HTMLButtonElement;
    expect(place.disabled).toBe(true);
    await user.click(place);
    expect(posted).toHaveLength(0);
  });

  it('says no order can be placed while a debt is owed, even when the balance covers the charge', async () => {
    server({ walletBalance: 5000, walletDebt: 1161.8 });
    const { form } = await fillOrder();
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(
      `Your wallet owes ${ngn('1,161.80')} after a card payment was refunded or charged back. Your next deposit settles it first; no order can be placed until it is paid. Add funds`,
    );
    expect((within(form).getByRole('button', { name: /Place order/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('without a debt, needs the charge less the balance, as before', async () => {
    server({ walletBalance: 100, walletDebt: 0 });
    const { form } = await fillOrder();
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toBe(`Insufficient balance — you need ${ngn('2.98')} more. Add funds`);
    expect((within(form).getByRole('button', { name: /Place order/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('offers the order when there is no debt and the balance covers it', async () => {
    server({ walletBalance: 5000, walletDebt: 0 });
    const { form } = await fillOrder();
    expect(within(form).queryByRole('alert')).toBeNull();
    expect((within(form).getByRole('button', { name: /Place order/ }) as HTMLButtonElement).disabled).toBe(false);
  });
});
