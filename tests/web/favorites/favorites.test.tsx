// The Favorites screen lists starred services with "Order again" carrying the last link and
// quantity, and the order form opened from it starts from them; the star takes a service off.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADA, renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const base = {
  platform: 'Instagram',
  categoryId: 1,
  category: 'Instagram Likes',
  rate: '12.50',
  rateKobo: '1250',
  refill: false,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: null,
  refillDays: null,
  type: 'Default',
  min: 100,
  max: 10000,
  linkKind: 'url',
};
const LIKES = { ...base, id: 102, name: 'Instagram Likes' };
const VIEWS = { ...base, id: 104, name: 'Reel Views' };
const GONE = { ...base, id: 105, name: 'Old Story Views' };
const LAST_LINK = 'https://instagram.com/p/last-post';

function server() {
  const calls: Array<{ method: string; url: string }> = [];
  let starred = [102, 104, 105];
  const fetch = mockFetch((url, init) => {
    const method = init.method ?? 'GET';
    if (url.includes('user/favorites')) calls.push({ method, url });
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('user/favorites/ids')) return jsonResponse(200, { data: starred });
    if (url.match(/user\/favorites\/\d+$/) && method === 'DELETE') {
      starred = starred.filter((id) => !url.endsWith(`/${id}`));
      return jsonResponse(200, { message: 'Removed from favorites', data: null });
    }
    if (url.includes('user/favorites')) {
      const all = [
        {
          service: LIKES,
          available: true,
          starredAt: '2026-11-20T10:00:00Z',
          lastOrder: { link: LAST_LINK, quantity: 250, orderedAt: '2026-11-21T10:00:00Z' },
        },
        { service: VIEWS, available: true, starredAt: '2026-11-19T10:00:00Z', lastOrder: null },
        { service: GONE, available: false, starredAt: '2026-11-18T10:00:00Z', lastOrder: null },
      ];
      return jsonResponse(200, { data: all.filter((f) => starred.includes(f.service.id)) });
    }
    if (url.includes('/services')) return jsonResponse(200, { data: [LIKES, VIEWS], page: 1, limit: 100, total: 2 });
    return jsonResponse(404, {});
  });
  return { fetch, calls };
}

describe('the Favorites screen', () => {
  it('offers Order again with the last link and quantity, Order without one, and nothing to order once a service is off', async () => {
    server();
    renderApp('/user/favorites');
    const list = await screen.findByRole('list', { name: 'Favorite services' });
    const again = within(list).getByRole('link', { name: 'Order again: Instagram Likes' });
    const target = new URL(again.getAttribute('href')!, 'https://shop.test');
    expect(target.pathname).toBe('/user/create-order');
    expect(Object.fromEntries(target.searchParams)).toEqual({ service: '102', link: LAST_LINK, quantity: '250' });
    expect(within(list).getByRole('link', { name: 'Order: Reel Views' }).getAttribute('href')).toBe('/user/create-order?service=104');
    const gone = within(list).getByText('Old Story Views').closest('li')!;
    expect(within(gone).queryByRole('link')).toBeNull();
    expect(within(gone).getByText('No longer available')).toBeTruthy();
  });

  it('takes a service off with its star', async () => {
    const user = userEvent.setup();
    const { calls } = server();
    renderApp('/user/favorites');
    const star = await screen.findByRole('button', { name: 'Remove Reel Views from favorites' });
    await waitFor(() => expect(star.getAttribute('aria-pressed')).toBe('true'));
    await user.click(star);
    await waitFor(() => expect(screen.queryByText('Reel Views')).toBeNull());
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith('user/favorites/104'))).toBe(true);
  });

  it('says how to star services when there are none', async () => {
    mockFetch((url) => {
      if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { message: 'ok', data: ADA });
      return jsonResponse(200, { data: [] });
    });
    renderApp('/user/favorites');
    expect(await screen.findByText('No favorites yet')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse services' }).getAttribute('href')).toBe('/user/services');
  });
});

describe('the order form opened by Order again', () => {
  it('starts from the link and quantity it was given, with the service starred', async () => {
    server();
    renderApp(`/user/create-order?service=102&link=${encodeURIComponent(LAST_LINK)}&quantity=250`);
    const form = (await screen.findByText('Instagram Likes', { selector: 'p' })).closest('form')!;
    expect((within(form).getByLabelText('Link') as HTMLInputElement).value).toBe(LAST_LINK);
    expect((within(form).getByLabelText('Quantity') as HTMLInputElement).value).toBe('250');
    expect(await within(form).findByRole('button', { name: 'Remove Instagram Likes from favorites' })).toBeTruthy();
  });

  it('leaves the quantity empty when it is not a whole number', async () => {
    server();
    renderApp(`/user/create-order?service=102&link=${encodeURIComponent(LAST_LINK)}&quantity=2.5e3`);
    const form = (await screen.findByText('Instagram Likes', { selector: 'p' })).closest('form')!;
    expect((within(form).getByLabelText('Quantity') as HTMLInputElement).value).toBe('');
  });
});
