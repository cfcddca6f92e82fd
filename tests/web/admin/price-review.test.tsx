// The Pricing tab's price sanity: the limits on new rates and provider prices, exchange rates and
// provider prices held for review, and what accepting one sends (the value as shown).

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { PricingTab } from '@/features/admin/catalogue/PricingTab';
import { jsonResponse, mockFetch, renderScreen, retype } from '../helpers';

const SETTINGS = {
  defaultMarkupPercent: '50.00',
  minMarginPercent: '10.00',
  marginGuardAction: 'reprice',
  rateBandPercent: '10.00',
  providerPriceFactor: '3.00',
};
const RATES = {
  bandPercent: '10.00',
  rates: [
    {
      currency: 'NGN',
      rate: '1550.250000',
      proposedRate: '2325.375000',
      changePercent: '+50.00',
      proposedAt: '2024-03-05T10:00:00Z',
      updatedAt: '2024-03-05T00:00:00Z',
      fetchedAt: '2024-03-05T10:00:00Z',
    },
    {
      currency: 'USD',
      rate: '1.000000',
      proposedRate: null,
      changePercent: null,
      proposedAt: null,
      updatedAt: '2024-03-05T00:00:00Z',
      fetchedAt: '2024-03-05T10:00:00Z',
    },
  ],
};
const HELD = {
  data: [
    {
      serviceId: 5,
      name: 'Instagram Likes',
      providerId: 1,
      providerName: 'Panel',
      currency: 'USD',
      providerRate: '0.320000',
      proposedProviderRate: '0.000000',
      changePercent: '-100.00',
      cost: '496.08',
      rate: '744.12',
      newCost: '0.00',
      newRate: '0.01',
      enabled: false,
      disabledReason: 'provider_price',
    },
    {
      serviceId: 6,
      name: 'TikTok Views',
      providerId: 1,
      providerName: 'Panel',
      currency: 'USD',
      providerRate: '0.012000',
      proposedProviderRate: null,
      changePercent: null,
      cost: '18.61',
      rate: '27.92',
      newCost: null,
      newRate: null,
      enabled: false,
      disabledReason: 'provider_price',
    },
  ],
  page: 1,
  limit: 20,
  total: 2,
};

function server() {
  return mockFetch((url, init) => {
    if (init.method === 'POST' || init.method === 'PUT') return jsonResponse(200, { message: 'Done', data: SETTINGS });
    if (url.includes('admin/services/rates')) return jsonResponse(200, { data: RATES });
    if (url.includes('admin/services/held-prices')) return jsonResponse(200, HELD);
    return jsonResponse(200, { data: SETTINGS });
  });
}

/** The tab on its own against the fake server; returns the fetch mock and a user to drive the tab. */
function openTab() {
  const fetch = server();
  renderScreen(<PricingTab />, '/admin/services?tab=pricing', 'admin-token');
  return { fetch, user: userEvent.setup() };
}

/** The bodies POSTed to addresses containing `part`, in order. */
const postedBodies = (fetch: ReturnType<typeof mockFetch>, part: string) =>
  fetch.mock.calls.filter(([url, init]) => String(url).includes(part) && init?.method === 'POST').map(([, init]) => JSON.parse(String(init?.body)));

describe('Pricing tab: prices held for review', () => {
  it('shows a held exchange rate with its move and accepts it, naming the rate as shown, after a confirmation', async () => {
    const { fetch, user } = openTab();
    const table = await screen.findByRole('table', { name: 'Exchange rates' });
    expect(within(table).getByText('+50.00%')).toBeTruthy();
    expect(screen.getByText(/1 new rate waits for review/)).toBeTruthy();
    // Only the held rate can be decided.
    expect(within(table).getAllByRole('button', { name: 'Accept' })).toHaveLength(1);

    await user.click(within(table).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(/NGN 1550\.25 → 2325\.375 per USD \(\+50\.00%\)/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes, accept' }));
    await waitFor(() => expect(postedBodies(fetch, 'admin/services/rates/NGN/accept')).toEqual([{ rate: '2325.375000' }]));
  });

  it('accepts a held provider price with what it does to the cost and price, and offers nothing to accept for a missing one', async () => {
    const { fetch, user } = openTab();
    const table = await screen.findByRole('table', { name: 'Provider prices held for review' });
    expect(within(table).getByText('no readable price')).toBeTruthy();
    expect(within(table).getByText('Waits for the provider')).toBeTruthy();
    expect(within(table).getAllByRole('button', { name: 'Accept' })).toHaveLength(1);

    await user.click(within(table).getByRole('button', { name: 'Accept' }));
    expect(await screen.findByText(/Cost NGN\s496\.08 → NGN\s0\.00, price NGN\s744\.12 → NGN\s0\.01/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes, accept' }));
    await waitFor(() => expect(postedBodies(fetch, 'admin/services/5/provider-price/accept')).toEqual([{ providerRate: '0.000000' }]));
  });

  it('saves the rate band and the provider price limit with the other rules, and refuses a limit of 1×', async () => {
    const { fetch, user } = openTab();
    const band = await screen.findByLabelText(/Exchange rate band/);
    expect((band as HTMLInputElement).value).toBe('10.00');
    const factor = screen.getByLabelText(/Provider price limit/);
    await retype(user, factor, '1');
    await user.click(screen.getByRole('button', { name: 'Save and reprice' }));
    expect((await screen.findAllByText('providerPriceFactor must be a factor above 1 and at most 100, with at most 2 decimals')).length).toBeGreaterThan(0);

    await retype(user, factor, '4');
    await retype(user, band, '15');
    await user.click(screen.getByRole('button', { name: 'Save and reprice' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, save' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const body = JSON.parse(String(fetch.mock.calls.find(([, init]) => init?.method === 'PUT')![1]?.body));
    expect(body).toMatchObject({ rateBandPercent: '15', providerPriceFactor: '4' });
  });
});
