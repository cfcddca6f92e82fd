// The user shell's balance at phone width and what a chargeback left owing, as a hint beside it.

import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { HeaderBalance } from '@/app/layouts/HeaderBalance';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

function renderBalance(walletBalance: number, walletDebt: number) {
  mockFetch((url) => {
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance, walletDebt });
    return jsonResponse(404, {});
  });
  render(
    <WithQuery>
      <MemoryRouter>
        <HeaderBalance />
      </MemoryRouter>
    </WithQuery>,
  );
}

describe('the header balance', () => {
  it('reads the whole amount, its currency code hidden on a phone only (the switcher beside it shows it)', async () => {
    renderBalance(1234567.89, 0);
    const amount = await screen.findByText('1,234,567.89');
    expect(amount.textContent?.replace(/\s/g, ' ')).toBe('NGN 1,234,567.89');
    expect(amount.querySelector('span')?.className).toBe('max-sm:sr-only');
    expect(screen.queryByRole('link', { name: /^Owed/ })).toBeNull();
  });

  it('hints at a debt, in naira, linking to Add funds', async () => {
    renderBalance(0, 1164.78);
    const hint = await screen.findByRole('link', { name: /^Owed NGN.1,164\.78$/ });
    expect(hint.getAttribute('href')).toBe('/user/add-fund');
    expect(hint.getAttribute('title')).toMatch(/your next deposit settles this first/);
  });
});
