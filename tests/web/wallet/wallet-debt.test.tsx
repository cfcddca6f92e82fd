// What a refunded or charged-back card payment left owing is said plainly on the wallet pages.

import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import AddFundPage from '@/features/wallet/AddFundPage';
import TransactionsPage from '@/features/wallet/TransactionsPage';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

function renderWithDebt(page: ReactNode, walletDebt: number) {
  mockFetch((url) => {
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 4200, walletDebt });
    if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'Debt Shop' });
    return jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
  });
  render(
    <WithQuery>
      <MemoryRouter>{page}</MemoryRouter>
    </WithQuery>,
  );
}

describe('the wallet debt notice', () => {
  it.each([
    ['transactions', <TransactionsPage key="t" />],
    ['add funds', <AddFundPage key="a" />],
  ])('on %s says how much is owed and that the next deposit settles it first', async (_page, page) => {
    renderWithDebt(page, 1250.5);
    const notice = await screen.findByRole('alert', { name: 'Amount owed' });
    expect(notice.textContent).toMatch(/^You owe NGN.1,250\.50 after a card payment was refunded or charged back\. Your next deposit settles it first/);
  });

  it('is absent when nothing is owed', async () => {
    renderWithDebt(<AddFundPage />, 0);
    // The balance and the debt come in the same answer: once the balance shows, the notice has had its chance.
    await screen.findByText(/4,200\.00/);
    expect(screen.queryByRole('alert', { name: 'Amount owed' })).toBeNull();
  });
});
