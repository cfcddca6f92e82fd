// Add fund offers a personal account number for bank transfers while the shop offers it: asked for
// once, then shown with the bank, the name and a copy button; not shown at all when it is off.

import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADA, renderApp } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const ACCOUNT = {
  status: 'active',
  accountNumber: '9930000123',
  accountName: 'PAYSTACK/ADA LOVELACE',
  bankName: 'Test Bank',
  provider: 'paystack',
  sandboxTransferUrl: null,
};

function server(bankTransfer: boolean) {
  const requests: string[] = [];
  let account: typeof ACCOUNT | null = null;
  mockFetch((url, init) => {
    if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'Boost Hub', minDeposit: 100, maxDeposit: 5_000_000, bankTransfer });
    if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { message: 'ok', data: ADA });
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 2500 });
    if (url.includes('user/dedicated-account')) {
      requests.push(init.method ?? 'GET');
      if (init.method === 'POST') account = ACCOUNT;
      return jsonResponse(200, { data: account });
    }
    return jsonResponse(200, { data: [] });
  });
  return requests;
}

describe('paying by bank transfer', () => {
  it('gives the account number once asked, with the bank, the name and a copy button', async () => {
    const user = userEvent.setup();
    const requests = server(true);
    renderApp('/user/add-fund');
    const card = await screen.findByRole('region', { name: 'Pay by bank transfer' });
    await user.click(await within(card).findByRole('button', { name: 'Get my account number' }));
    expect(await within(card).findByText('9930000123')).toBeTruthy();
    expect(within(card).getByText('Test Bank')).toBeTruthy();
    expect(within(card).getByText('PAYSTACK/ADA LOVELACE')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Copy account number' })).toBeTruthy();
    expect(requests).toEqual(['GET', 'POST']);
  });

  it('is not offered while the shop does not take transfers', async () => {
    const requests = server(false);
    renderApp('/user/add-fund');
    // The limits come with the same settings answer that says whether transfers are offered.
    expect(await screen.findByText(/^Minimum /)).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Pay by bank transfer' })).toBeNull();
    expect(requests).toEqual([]);
  });
});
