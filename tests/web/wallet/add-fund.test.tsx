// Add fund against a stubbed API: a refused start (too many payments waiting, card payments down)
// stays on the page saying what to do, and nothing is stored for the confirmation page.

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AddFundPage from '@/features/wallet/AddFundPage';
import { PAYLOAD_KEY } from '@/lib/session';
import { jsonResponse, mockFetch, renderScreen } from '../helpers';

describe('Add fund', () => {
  it.each([
    [429, 'You have 5 payments waiting. Finish or cancel one, or wait 30 minutes.'],
    [503, 'Card payments are unavailable right now. Please try again later or contact support.'],
  ])('keeps a %i refusal on the page', async (status, message) => {
    const user = userEvent.setup();
    mockFetch((url) => {
      if (url.includes('user/add-fund')) return jsonResponse(status, { message, error: 'Refused' });
      if (url.includes('settings/public')) return jsonResponse(200, { minDeposit: 100, maxDeposit: 5_000_000 });
      if (url.includes('getWalletBalance')) return jsonResponse(200, { walletBalance: 0, walletDebt: 0 });
      return jsonResponse(200, {});
    });
    renderScreen(<AddFundPage />, '/user/add-fund', 'tok');
    await user.type(await screen.findByLabelText('Amount'), '1000');
    await user.click(screen.getByRole('button', { name: 'Proceed to payment' }));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
    expect(screen.getByRole('button', { name: 'Proceed to payment' })).toBeTruthy();
    expect(window.sessionStorage.getItem(PAYLOAD_KEY)).toBeNull();
  });
});
