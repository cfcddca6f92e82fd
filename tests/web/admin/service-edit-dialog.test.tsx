// The admin service edit dialog sets a service's refill window and cap, and what its orders' link is.

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AdminService } from '@/features/admin/catalogue/api/get-services';
import { ServiceEditDialog } from '@/features/admin/catalogue/ServiceEditDialog';
import { IG_FOLLOWERS_AT_60 } from '../../support/fake-services';
import { jsonResponse, mockFetch, retype, WithQuery } from '../helpers';

const SERVICE: AdminService = {
  id: 5,
  name: 'Instagram Followers [Refill 30D]',
  description: '',
  categoryId: 1,
  ...IG_FOLLOWERS_AT_60,
  linkKindOverride: null,
  providerId: 1,
  providerName: 'Panel',
  providerServiceId: '1021',
  providerRate: '1.450000',
  proposedProviderRate: null,
  cost: '2247.87',
  costKobo: '224787',
  marginPercent: '60.00',
  priceMode: 'markup',
  markupPercent: null,
  effectiveMarkupPercent: '60.00',
  providerMin: 100,
  providerMax: 100000,
  maxRefills: 3,
  enabled: true,
  disabledReason: null,
  updated_at: '2026-11-01T00:00:00Z',
};

function server() {
  const sent: unknown[] = [];
  mockFetch((url, init) => {
    if (url.includes('admin/services/categories'))
      return jsonResponse(200, { data: [{ id: 1, name: 'Instagram Followers', platform: 'Instagram', markupPercent: null }] });
    if (url.includes('admin/services/settings'))
      return jsonResponse(200, { data: { defaultMarkupPercent: '60.00', minMarginPercent: '10.00', marginGuardAction: 'reprice' } });
    if (url.includes('admin/services/5') && init.method === 'PUT') {
      sent.push(JSON.parse(String(init.body)));
      return jsonResponse(200, { message: 'Service updated', data: SERVICE });
    }
    return jsonResponse(404, {});
  });
  return sent;
}

/** An input's or select's value, read structurally (the Worker types' element types clash with the DOM's). */
const fieldValue = (element: HTMLElement) => (element as unknown as { value: string }).value;

describe('ServiceEditDialog', () => {
  it('shows the refill window, the refill cap and the automatic link kind, and saves a new window, cap and override', async () => {
    const user = userEvent.setup();
    const sent = server();
    render(
      <WithQuery>
        <ServiceEditDialog service={SERVICE} onClose={() => {}} />
      </WithQuery>,
    );
    const days = await screen.findByLabelText('Refill window (days)');
    expect(fieldValue(days)).toBe('30');
    const kind = screen.getByLabelText('Order link');
    expect(fieldValue(kind)).toBe('auto');
    expect(screen.getByRole('option', { name: 'Automatic (now: a username or profile link)' })).toBeTruthy();

    await retype(user, days, '0');
    await user.click(screen.getByRole('button', { name: 'Save service' }));
    expect(await screen.findByText('Refill window must be a whole number of days from 1 to 3650, or blank')).toBeTruthy();
    expect(sent).toEqual([]);

    await retype(user, days, '45');
    const cap = screen.getByLabelText('Refills per order');
    expect(fieldValue(cap)).toBe('3');
    await retype(user, cap, '0');
    await user.click(screen.getByRole('button', { name: 'Save service' }));
    expect(await screen.findByText('Refills per order must be a whole number from 1 to 100')).toBeTruthy();
    expect(sent).toEqual([]);
    await retype(user, cap, '5');
    await user.selectOptions(kind, 'url');
    await user.click(screen.getByRole('button', { name: 'Save service' }));
    await waitFor(() => expect(sent).toEqual([expect.objectContaining({ refillDays: 45, maxRefills: 5, linkKind: 'url' })]));
  });

  it('sends no limit and the automatic choice as null', async () => {
    const user = userEvent.setup();
    const sent = server();
    render(
      <WithQuery>
        <ServiceEditDialog service={{ ...SERVICE, linkKindOverride: 'url', linkKind: 'url' }} onClose={() => {}} />
      </WithQuery>,
    );
    const days = await screen.findByLabelText('Refill window (days)');
    await user.clear(days);
    await user.selectOptions(screen.getByLabelText('Order link'), 'auto');
    await user.click(screen.getByRole('button', { name: 'Save service' }));
    await waitFor(() => expect(sent).toEqual([expect.objectContaining({ refillDays: null, linkKind: null })]));
  });
});
