// The order form's service picker with a 5,000-service catalogue: typing narrows the services already
// loaded at once, before the server has answered the search, and the server's answer then takes over.

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ServicePicker } from '@/features/orders/ServicePicker';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

const CATALOGUE = Array.from({ length: 5000 }, (_, i) => {
  const id = i + 1;
  const [platform, name] = id % 2 ? ['Instagram', `Instagram Followers ${id}`] : ['TikTok', `TikTok Likes ${id}`];
  return { id, name, platform, category: `${platform} services`, rate: '12.50', rateKobo: '1250', min: 10, max: 10000, type: 'Default' };
});

/** GET services as the Worker answers it; answers to a search wait for `searchAnswered`. */
function catalogueServer(searchAnswered: Promise<void>) {
  return mockFetch(async (url) => {
    if (url.includes('services/categories')) return jsonResponse(200, { data: [] });
    if (url.includes('rates')) return jsonResponse(200, { data: [] });
    const params = new URL(url, 'http://shop.test').searchParams;
    const search = params.get('search') ?? '';
    const page = Number(params.get('page') ?? 1);
    const limit = Number(params.get('limit') ?? 100);
    if (search) await searchAnswered;
    const found = CATALOGUE.filter((s) => !search || s.name.toLowerCase().includes(search.toLowerCase()));
    return jsonResponse(200, { data: found.slice((page - 1) * limit, page * limit), page, limit, total: found.length });
  });
}

const optionNames = () =>
  within(screen.getByRole('listbox', { name: 'Services' }))
    .queryAllByRole('option')
    .map((option) => option.textContent ?? '');

describe('the service picker with 5,000 services', () => {
  // jsdom lays nothing out: the listbox gets its height on screen (h-80) and each option its own, so
  // the virtualiser shows the options in view, as in a browser.
  beforeEach(() => {
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(320);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(360);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(68);
  });
  it("narrows the loaded services as soon as the text is typed, then shows the server's answer", async () => {
    const user = userEvent.setup();
    let answerSearch!: () => void;
    const fetch = catalogueServer(new Promise<void>((resolve) => (answerSearch = resolve)));
    const onSelect = vi.fn();
    render(
      <WithQuery>
        <ServicePicker onSelect={onSelect} />
      </WithQuery>,
    );
    await waitFor(() => expect(optionNames().length).toBeGreaterThan(0));
    expect(optionNames().some((name) => name.includes('Instagram'))).toBe(true);

    await user.type(screen.getByRole('combobox', { name: 'Service' }), 'tiktok');
    // The server has not answered the search (it is held): the first page, narrowed here.
    await waitFor(() => expect(optionNames().length).toBeGreaterThan(0));
    await waitFor(() => expect(optionNames().every((name) => name.includes('TikTok'))).toBe(true));
    expect(optionNames()[0]).toContain('#2 TikTok Likes 2');

    // The search has gone to the server (which holds its answer).
    await waitFor(() => expect(fetch.mock.calls.some(([input]) => String(input).includes('search=tiktok'))).toBe(true));
    // Narrowed here from the 100 loaded, the list holds 50: moving far down stops at the 50th, #100.
    const pageDown = async () => {
      for (let i = 0; i < 12; i++) await user.keyboard('{PageDown}');
    };
    await pageDown();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ id: 100, name: 'TikTok Likes 100' }));

    // The server's answer, its first 100 matches, takes over: the same moves now reach #200.
    answerSearch();
    await waitFor(() => expect(document.querySelector('.animate-spin')).toBeNull());
    await pageDown();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ id: 200, name: 'TikTok Likes 200' }));
  });

  it('leaves its list where it is as it mounts (a scroll there would lay the page out mid-render), and scrolls it as the keys move', async () => {
    const scrolls: Array<{ top?: number }> = [];
    const scrollTo = vi.fn((options?: ScrollToOptions) => scrolls.push({ top: options?.top }));
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', { configurable: true, writable: true, value: scrollTo });
    onTestFinished(() => {
      Reflect.deleteProperty(HTMLElement.prototype, 'scrollTo');
    });
    // The first page's 100 options, laid out: room to scroll.
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(100 * 68);
    const user = userEvent.setup();
    catalogueServer(Promise.resolve());
    render(
      <WithQuery>
        <ServicePicker onSelect={vi.fn()} />
      </WithQuery>,
    );
    await waitFor(() => expect(optionNames().length).toBeGreaterThan(0));
    expect(scrolls).toEqual([]);

    await user.click(screen.getByRole('combobox', { name: 'Service' }));
    for (let i = 0; i < 3; i++) await user.keyboard('{PageDown}');
    await waitFor(() => expect(scrolls.at(-1)?.top).toBeGreaterThan(0));
  });
});
