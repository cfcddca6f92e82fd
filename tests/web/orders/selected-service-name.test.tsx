// The service chosen on the order screen is named in full: two services whose names differ only towards
// their end ("Instagram Followers [Real] … [Refill 30 Days]" and "… [No Refill]") are told apart in the
// card of the chosen service, in the picker's options and on the picker's "Keep" button, the long
// names wrapping over several lines (never cut with an ellipsis or after a number of characters or lines).

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ADA, renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const base = {
  platform: 'Instagram',
  category: 'Instagram Followers',
  categoryId: 1,
  type: 'Default',
  linkKind: 'username',
  refill: true,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: null,
  refillDays: 30,
  min: 50,
  max: 5000,
  rate: '1000.00',
  rateKobo: '100000',
};
const REFILL = 'Instagram Followers [Real Accounts] [Max 50K] [Start 0-1 Hour] [Speed 5K/Day] [Nigeria] [Refill 30 Days]';
const NO_REFILL = 'Instagram Followers [Real Accounts] [Max 50K] [Start 0-1 Hour] [Speed 5K/Day] [Nigeria] [No Refill]';
const SERVICES = [
  { ...base, id: 301, name: REFILL },
  { ...base, id: 302, name: NO_REFILL, refill: false },
];

/** No class that cuts text: one line with an ellipsis, or a number of lines. */
const cuts = (element: Element) => /\b(truncate|line-clamp-\d+|text-ellipsis|whitespace-nowrap)\b/.test(element.className);

describe('the chosen service, named in full', () => {
  beforeEach(() => {
    // jsdom lays nothing out: the picker's list gets its height on screen and each option its own, as in a browser.
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(320);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(390);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(68);
    mockFetch((url) => {
      const userArea = userAreaAnswer(url, ADA);
      if (userArea) return userArea;
      if (url.includes('/services')) {
        const search = new URL(url, 'http://shop.test').searchParams.get('search');
        const found = SERVICES.filter((service) => !search || String(service.id) === search);
        return jsonResponse(200, { data: found, page: 1, limit: 100, total: found.length });
      }
      return jsonResponse(404, {});
    });
  });

  it('shows the whole name in the card of the chosen service, in the options and on the Keep button', async () => {
    const user = userEvent.setup();
    renderApp('/user/create-order?service=301', ADA);
    const name = await screen.findByText(REFILL, { selector: 'form p' });
    expect(name.textContent).toBe(REFILL);
    expect(cuts(name)).toBe(false);
    // Nothing around it keeps it on one line either.
    expect(name.closest('.truncate, .whitespace-nowrap')).toBeNull();

    await user.click(within(name.closest('form')!).getByRole('button', { name: 'Change' }));
    const keep = await screen.findByRole('button', { name: `Keep ${REFILL}` });
    expect(cuts(keep)).toBe(false);

    const listbox = await screen.findByRole('listbox', { name: 'Services' });
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(2));
    const options = within(listbox).getAllByRole('option');
    expect(options.map((option) => option.querySelector('p')?.textContent)).toEqual([`#301 ${REFILL}`, `#302 ${NO_REFILL}`]);
    for (const option of options) expect(cuts(option.querySelector('p')!)).toBe(false);
    expect(options[0].getAttribute('aria-selected')).toBe('true');

    await user.click(options[1]);
    const other = await screen.findByText(NO_REFILL, { selector: 'form p' });
    expect(cuts(other)).toBe(false);
  });
});
