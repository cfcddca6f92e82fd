// Display currency: every API amount is naira; a visitor may show amounts in another currency,
// converted with the USD-based rates (naira -> X = amount × rates[X] / rates.NGN), exact to the
// digit shown, NGN until the rates load or when a rate is missing. Money entered or paid (add
// fund) and the admin area stay in NGN. Also the site settings' logo and maintenance notice.

import { render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/app/routes';
import { SignedAmount } from '@/components/TransactionAmount';
import { availableCurrencies, CURRENCY_STORAGE_KEY, convertNaira, formatNaira, parseDecimal } from '@/lib/currency';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatAmount, koboToNaira } from '@/lib/format';
import { type SessionUser, setStoredUser, TOKEN_KEY } from '@/lib/session';
import { useCurrency } from '@/lib/settings';
import { jsonResponse, mockFetch, sessionUser, WithQuery } from '../helpers';

const NBSP = '\u00a0';
const RATES = { base: 'USD', updatedAt: '2024-03-05T10:00:00Z', rates: { NGN: '1550.25', USD: '1', EUR: '0.92', GBP: '0.79', JPY: '150.1' } };

describe('convertNaira / formatNaira (naira -> display currency)', () => {
  it('shows NGN as is: en-US, 2 decimals on screens, 2 to 6 for prices', () => {
    expect(formatNaira(1234.5, 'NGN', RATES)).toBe(`NGN${NBSP}1,234.50`);
    expect(formatNaira('12.345678', 'NGN', RATES, { precise: true })).toBe(`NGN${NBSP}12.345678`);
    expect(formatNaira(null, 'NGN', undefined)).toBe(`NGN${NBSP}0.00`);
  });

  it('converts to USD exactly to the cent: amount × rates.USD / rates.NGN', () => {
    expect(formatNaira(2500, 'USD', RATES)).toBe('$1.61'); // 1.61264...
    expect(formatNaira('10000', 'USD', RATES)).toBe('$6.45'); // 6.45057...
    expect(formatNaira('1550.25', 'USD', RATES)).toBe('$1.00');
    expect(formatNaira('1,550,250', 'USD', RATES)).toBe('$1,000.00');
    const thousand = { base: 'USD', rates: { NGN: '1000' } };
    expect(convertNaira('1005', 'USD', thousand)).toBe('1.01'); // 1.005: half a cent rounds up
    expect(formatNaira('-1005', 'USD', thousand)).toBe('-$1.01');
  });

  it('is exact where floating point is not', () => {
    // 2650 × 0.7 / 1400 is exactly 1.325, so £1.33; in doubles it is 1.3249999999999997, £1.32.
    const rates = { base: 'USD', rates: { NGN: '1400', GBP: '0.7' } };
    expect(formatAmount((2650 * 0.7) / 1400, 'GBP')).toBe('£1.32');
    expect(convertNaira(2650, 'GBP', rates)).toBe('1.33');
    expect(formatNaira(2650, 'GBP', rates)).toBe('£1.33');
    expect(formatNaira('170', 'GBP', rates)).toBe('£0.09'); // 0.085
  });

  it('converts through USD to the other currencies (X per USD / NGN per USD)', () => {
    const rates = { base: 'USD', rates: { NGN: '1600', EUR: '0.92', GBP: 0.8 } };
    expect(formatNaira(5000, 'EUR', rates)).toBe('€2.88'); // 2.875 exactly
    expect(formatNaira(5000, 'GBP', rates)).toBe('£2.50');
  });

  it('keeps sub-kobo precision for per-1000 prices with the general formatter (2 to 6 digits)', () => {
    expect(formatNaira('12.50', 'USD', RATES, { precise: true })).toBe('$0.008063'); // 0.0080632...
    expect(formatNaira('12.50', 'USD', RATES)).toBe('$0.01');
    expect(formatNaira('1550.25', 'USD', RATES, { precise: true })).toBe('$1.00');
    expect(convertNaira('12.50', 'EUR', RATES, 6)).toBe('0.007418'); // 12.5 × 0.92 / 1550.25 = 0.00741816...
  });

  it('falls back to NGN when the rates are missing, lack the currency or lack NGN', () => {
    expect(formatNaira(2500, 'GHS', RATES)).toBe(`NGN${NBSP}2,500.00`);
    expect(formatNaira(2500, 'USD', undefined)).toBe(`NGN${NBSP}2,500.00`);
    expect(formatNaira(2500, 'EUR', { base: 'USD', rates: { EUR: '0.92' } })).toBe(`NGN${NBSP}2,500.00`);
    expect(formatNaira(2500, 'EUR', { base: 'USD', rates: { NGN: '0', EUR: '0.92' } })).toBe(`NGN${NBSP}2,500.00`);
    expect(formatNaira(2500, 'EUR', { base: 'EUR', rates: { NGN: '1700', EUR: '1' } })).toBe(`NGN${NBSP}2,500.00`);
    expect(convertNaira(2500, 'KES', RATES)).toBeNull();
  });

  it('offers NGN and only the display currencies the rates contain', () => {
    expect(availableCurrencies(RATES)).toEqual(['NGN', 'USD', 'EUR', 'GBP']);
    expect(availableCurrencies({ base: 'USD', rates: { NGN: '1550', ZAR: '18.4', KES: '129' } })).toEqual(['NGN', 'USD', 'KES', 'ZAR']);
    expect(availableCurrencies(undefined)).toEqual(['NGN']);
    expect(availableCurrencies({ base: 'USD', rates: { USD: '1', EUR: '0.92' } })).toEqual(['NGN']);
  });

  it('reads numbers and numeric text exactly', () => {
    expect(parseDecimal('1,234.50')).toEqual({ units: 123450n, scale: 2 });
    expect(parseDecimal(1e-7)).toEqual({ units: 1n, scale: 7 });
    expect(parseDecimal('abc')).toBeNull();
    expect(koboToNaira(123456n)).toBe('1234.56');
    expect(koboToNaira(-5)).toBe('-0.05');
  });
});

// ---------------------------------------------------------------------------------------------

const ADA = sessionUser({ id: 1, fullName: 'Ada Lovelace', email: 'ada@example.com', username: 'ada', userType: 2, wallet: { balance: '2500.00' } });
const SERVICE = {
  id: 101,
  name: 'Instagram Followers HQ',
  platform: 'Instagram',
  category: 'Instagram Followers',
  categoryId: 1,
  type: 'Default',
  rate: '12.50',
  rateKobo: '1250',
  min: 100,
  max: 10000,
  refill: true,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: 3600,
};

interface ServerOptions {
  settings?: Record<string, unknown>;
  rates?: unknown;
  /** Resolves the rates answer only when called (to see the screen before the rates load). */
  holdRates?: Promise<void>;
  user?: SessionUser | null;
}

function server({ settings = { siteName: 'Boost Hub' }, rates = RATES, holdRates, user = null }: ServerOptions = {}) {
  return mockFetch(async (url) => {
    if (url.includes('/v1/rates')) {
      if (holdRates) await holdRates;
      return rates ? jsonResponse(200, { message: 'Exchange rates', data: rates }) : jsonResponse(503, { message: 'No rates' });
    }
    if (url.includes('settings/public')) return jsonResponse(200, settings);
    if (url.includes('user/getCurrentProfile')) return user ? jsonResponse(200, { message: 'ok', data: user }) : jsonResponse(401, { message: 'Unauthorized' });
    if (url.includes('auth/refresh')) return jsonResponse(401, { message: 'Unauthorized' });
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 2500 });
    if (url.includes('user/getMai')) return jsonResponse(200, { smmBalance: 0 });
    if (url.includes('services/categories'))
      return jsonResponse(200, { data: [{ id: 1, name: 'Instagram Followers', platform: 'Instagram', serviceCount: 1 }] });
    if (url.includes('/services')) return jsonResponse(200, { data: [SERVICE], page: 1, limit: 100, total: 1 });
    if (url.includes('user/orders')) return jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
    if (url.includes('user/transactions')) return jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
    return jsonResponse(404, {});
  });
}

function renderAt(path: string, signedIn = false) {
  if (signedIn) {
    window.localStorage.setItem(TOKEN_KEY, 'user-token');
    setStoredUser(ADA);
  }
  return render(
    <WithQuery>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
      </MemoryRouter>
    </WithQuery>,
  );
}

// Testing Library normalises whitespace in text matches (the no-break space after 'NGN' is
// matched as a space) but not in accessible names.
/** The switcher's <select>, read structurally (the Worker types' HTMLSelectElement clashes with the DOM's). */
interface SelectView {
  el: HTMLElement;
  readonly value: string;
  readonly disabled: boolean;
  readonly options: string[];
}
function view(el: HTMLElement): SelectView {
  const s = el as unknown as { value: string; disabled: boolean; options: ArrayLike<{ value: string }> };
  return {
    el,
    get value() {
      return s.value;
    },
    get disabled() {
      return s.disabled;
    },
    get options() {
      return Array.from(s.options, (o) => o.value);
    },
  };
}
const switcher = async (root: HTMLElement = document.body) => view(await within(root).findByRole('combobox', { name: 'Display currency' }));

describe('currency switcher', () => {
  it('public header: NGN by default, offers the currencies the rates contain, converts the Services prices and persists the choice', async () => {
    const user = userEvent.setup();
    server();
    const first = renderAt('/services');
    const select = await switcher();
    await waitFor(() => expect(select.disabled).toBe(false));
    expect(select.value).toBe('NGN');
    expect(select.options).toEqual(['NGN', 'USD', 'EUR', 'GBP']);
    expect(await screen.findByText(`NGN 12.50`)).toBeTruthy();

    await user.selectOptions(select.el, 'USD');
    expect(window.localStorage.getItem(CURRENCY_STORAGE_KEY)).toBe('USD');
    expect(select.value).toBe('USD');
    expect(await screen.findByText('$0.008063')).toBeTruthy(); // per-1000 price, 2 to 6 digits
    expect(screen.queryByText(`NGN 12.50`)).toBeNull();
    // The header keeps its texts and links.
    expect(screen.getByRole('link', { name: 'Sign In' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign Up' })).toBeTruthy();

    // A new visit (the page reloaded) starts from the stored choice.
    first.unmount();
    server();
    renderAt('/services');
    const again = await switcher();
    await waitFor(() => expect(again.value).toBe('USD'));
    expect(await screen.findByText('$0.008063')).toBeTruthy();
  });

  it('shows NGN until the rates load, then the stored choice', async () => {
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'EUR');
    let release!: () => void;
    server({ holdRates: new Promise<void>((r) => (release = r)) });
    renderAt('/services');
    const select = await switcher();
    expect(await screen.findByText(`NGN 12.50`)).toBeTruthy();
    expect(select.value).toBe('NGN');
    expect(select.disabled).toBe(true);
    release();
    await waitFor(() => expect(select.value).toBe('EUR'));
    expect(await screen.findByText('€0.007418')).toBeTruthy();
  });

  it('shows NGN when the rates fail or lack the chosen currency', async () => {
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'GHS');
    server({ rates: { base: 'USD', rates: { NGN: '1550.25', USD: '1' } } });
    const view = renderAt('/services');
    const select = await switcher();
    await waitFor(() => expect(select.options).toEqual(['NGN', 'USD']));
    expect(select.value).toBe('NGN');
    expect(await screen.findByText(`NGN 12.50`)).toBeTruthy();
    view.unmount();

    window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'USD');
    server({ rates: null });
    renderAt('/services');
    const failed = await switcher();
    expect(await screen.findByText(`NGN 12.50`)).toBeTruthy();
    expect(failed.value).toBe('NGN');
    expect(failed.options).toEqual(['NGN']);
  });

  it("starts from the site's defaultCurrency when the visitor has not chosen", async () => {
    server({ settings: { siteName: 'Boost Hub', defaultCurrency: 'GBP' } });
    renderAt('/services');
    const select = await switcher();
    await waitFor(() => expect(select.value).toBe('GBP'));
    expect(await screen.findByText('£0.00637')).toBeTruthy(); // 12.5 × 0.79 / 1550.25 = 0.006369...
    expect(window.localStorage.getItem(CURRENCY_STORAGE_KEY)).toBeNull();
  });

  it("user shell: 'Your Balance:' follows the choice, the bar keeps its elements", async () => {
    const user = userEvent.setup();
    server({ user: ADA });
    renderAt('/user/services', true);
    const bar = (await screen.findByText('Your Balance:')).closest('header')!;
    // The code is its own element, hidden on a phone where the switcher beside the amount shows it.
    expect((await within(bar).findByText('2,500.00')).textContent?.replace(/\s/g, ' ')).toBe('NGN 2,500.00');
    const select = await switcher(bar);
    await waitFor(() => expect(select.disabled).toBe(false));

    await user.selectOptions(select.el, 'USD');
    expect(await within(bar).findByText('$1.61')).toBeTruthy();
    expect(window.localStorage.getItem(CURRENCY_STORAGE_KEY)).toBe('USD');
    // The catalogue's prices and the page's balance banner follow too.
    expect(await screen.findByText('$0.008063')).toBeTruthy();
    expect(screen.getAllByText('$1.61').length).toBeGreaterThanOrEqual(2);
    // Unchanged: the plus link with its tooltip and the account menu.
    expect(within(bar).getByRole('link', { name: 'Add fund' }).getAttribute('href')).toBe('/user/add-fund');
    expect(within(bar).getByRole('tooltip').textContent).toBe('Add fund');
    expect(within(bar).getByRole('button', { name: 'Account menu, Ada Lovelace' })).toBeTruthy();
  });
});

describe("the user's screens show the display currency", () => {
  const ORDER = {
    id: 77,
    serviceId: 101,
    serviceName: 'Instagram Followers HQ',
    link: 'https://instagram.com/ada',
    quantity: 1000,
    total: 1000,
    delivered: 800,
    charge: '1550.25',
    refunded: '310.05',
    status: 'Partial',
    created_at: '2024-03-05T10:00:00Z',
  };
  const TX = { id: 5, transaction_type: 1, amount: '5000.00', balance_after: '7500.00', description: 'Card deposit', created_at: '2024-03-05T10:00:00Z' };
  const extra = (url: string) => {
    if (url.includes('user/orders')) return jsonResponse(200, { data: [ORDER], page: 1, limit: 20, total: 1 });
    if (url.includes('user/transactions')) return jsonResponse(200, { data: [TX], page: 1, limit: 20, total: 1 });
    return undefined;
  };
  const serverWith = () => {
    const base = server({ user: ADA });
    const handler = base.getMockImplementation()!;
    base.mockImplementation((input, init) => {
      const custom = extra(String(input));
      return custom ? Promise.resolve(custom) : handler(input, init);
    });
  };

  it('orders, transactions and dashboard: converted amounts (EUR: × 0.92 / 1550.25)', async () => {
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'EUR');
    serverWith();
    const orders = renderAt('/user/orders', true);
    expect((await screen.findAllByText('€0.92')).length).toBeGreaterThan(0); // the charge
    expect((await screen.findAllByText('Refunded €0.18 for the 200 of 1,000 not delivered')).length).toBeGreaterThan(0);
    expect(screen.queryByText(/NGN.1,550\.25/)).toBeNull();
    orders.unmount();

    serverWith();
    const transactions = renderAt('/user/transactions', true);
    expect((await screen.findAllByText('+€2.97')).length).toBeGreaterThan(0); // 5000 naira
    expect((await screen.findAllByText(/€4\.45/)).length).toBeGreaterThan(0); // balance after 7500
    transactions.unmount();

    serverWith();
    renderAt('/user/dashboard', true);
    const balances = await screen.findByRole('region', { name: 'Balances' });
    expect(await within(balances).findByText('€1.48')).toBeTruthy(); // wallet 2500
    expect((await screen.findAllByText('+€2.97')).length).toBeGreaterThan(0); // recent transactions
  });

  it('create order: prices in the display currency, the charge and the balance check in NGN', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'EUR');
    server({ user: ADA });
    renderAt('/user/create-order?service=101', true);
    const form = (await screen.findByText('Instagram Followers HQ', { selector: 'p' })).closest('form')!;
    expect(await within(form).findByText(/^€0\.007418 per 1000/)).toBeTruthy();
    await user.type(within(form).getByLabelText('Quantity'), '1000');
    expect(within(form).getByText('NGN 12.50', { selector: 'output' })).toBeTruthy();
    expect(within(form).getByText('≈ €0.01')).toBeTruthy(); // 0.0074...
    expect(await within(form).findByText('NGN 2,500.00')).toBeTruthy(); // the balance it is checked against
  });
});

describe('money entered or paid stays in NGN', () => {
  it('add fund: quick picks, limits and the amount to pay in NGN, the display currency as a hint', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'USD');
    server({ user: ADA, settings: { siteName: 'Boost Hub', minDeposit: 500, maxDeposit: 100000 } });
    renderAt('/user/add-fund', true);
    await screen.findByRole('heading', { name: 'Add funds' });
    // The top bar shows the display currency...
    const bar = screen.getByText('Your Balance:').closest('header')!;
    expect(await within(bar).findByText('$1.61')).toBeTruthy();
    // ...the page shows naira.
    const main = screen.getByRole('main');
    for (const q of ['1,000', '5,000', '10,000', '50,000']) expect(within(main).getByRole('button', { name: `NGN${NBSP}${q}` })).toBeTruthy();
    expect(await within(main).findByText(`Minimum NGN 500.00 · Maximum NGN 100,000.00`)).toBeTruthy();
    expect(await within(main).findByText(`NGN 2,500.00`)).toBeTruthy(); // current balance

    await user.click(within(main).getByRole('button', { name: `NGN${NBSP}5,000` }));
    const pay = within(main).getByText('You will pay').parentElement!;
    expect(within(pay).getByText(`NGN 5,000.00`)).toBeTruthy();
    expect(within(pay).getByText('≈ $3.23')).toBeTruthy(); // 5000 / 1550.25 = 3.2253...
    expect(within(main).queryByText(/\$5,000/)).toBeNull();
  });

  it('add fund with NGN displayed keeps the USD hint', async () => {
    const user = userEvent.setup();
    server({ user: ADA });
    renderAt('/user/add-fund', true);
    const main = await screen.findByRole('main');
    await user.type(await within(main).findByLabelText('Amount'), '10000');
    const pay = within(main).getByText('You will pay').parentElement!;
    expect(within(pay).getByText(`NGN 10,000.00`)).toBeTruthy();
    expect(await within(pay).findByText('≈ $6.45')).toBeTruthy();
  });

  it('the admin area labels naira as NGN whatever the site default or the visitor chose', async () => {
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'USD');
    server({ settings: { defaultCurrency: 'USD' } });
    const { result } = renderHook(() => ({ admin: useCurrency(), display: useDisplayCurrency() }), {
      wrapper: ({ children }) => <WithQuery>{children}</WithQuery>,
    });
    await waitFor(() => expect(result.current.display.currency).toBe('USD'));
    expect(result.current.admin).toBe('NGN');
    expect(result.current.display.format(2500)).toBe('$1.61');
    render(<SignedAmount tx={{ transaction_type: 1, amount: '5000' }} currency={result.current.admin} />);
    expect(screen.getByText(`+NGN 5,000.00`)).toBeTruthy();
  });
});

describe('site settings on public pages', () => {
  it('shows the logo from the settings in the public header and the user shell', async () => {
    server({ settings: { siteName: 'Boost Hub', logoUrl: 'https://cdn.example.com/logo.png' } });
    const view = renderAt('/');
    const home = await screen.findAllByRole('link', { name: 'Boost Hub home' });
    await waitFor(() => expect(home[0].querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/logo.png'));
    view.unmount();

    server({ user: ADA, settings: { siteName: 'Boost Hub', logoUrl: 'https://cdn.example.com/logo.png' } });
    renderAt('/user/services', true);
    const bar = (await screen.findByText('Your Balance:')).closest('header')!;
    await waitFor(() =>
      expect(within(bar).getByRole('link', { name: 'Boost Hub home' }).querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/logo.png'),
    );
  });

  it('uses the built-in logo when none is set', async () => {
    server({ settings: { siteName: 'Boost Hub', logoUrl: '' } });
    renderAt('/');
    const home = await screen.findAllByRole('link', { name: 'Boost Hub home' });
    expect(home[0].querySelector('img')?.getAttribute('src')).toBe('/favicon.svg');
  });

  it('shows a dismissible maintenance notice, on public pages and in the user shell', async () => {
    const user = userEvent.setup();
    const notice = 'Payments are paused tonight from 22:00 to 23:00.';
    server({ settings: { siteName: 'Boost Hub', maintenanceNotice: notice } });
    const view = renderAt('/');
    const banner = await screen.findByRole('status', { name: 'Maintenance notice' });
    expect(banner.textContent).toContain(notice);
    await user.click(within(banner).getByRole('button', { name: 'Dismiss notice' }));
    expect(screen.queryByRole('status', { name: 'Maintenance notice' })).toBeNull();
    view.unmount();

    // Dismissed for this session: a different notice shows again, in the user shell too.
    server({ user: ADA, settings: { siteName: 'Boost Hub', maintenanceNotice: 'Orders are delayed.' } });
    renderAt('/user/services', true);
    expect((await screen.findByRole('status', { name: 'Maintenance notice' })).textContent).toContain('Orders are delayed.');
  });

  it('shows no notice when it is empty', async () => {
    server({ settings: { siteName: 'Boost Hub', maintenanceNotice: '   ' } });
    renderAt('/');
    await screen.findAllByRole('link', { name: 'Boost Hub home' });
    expect(screen.queryByRole('status', { name: 'Maintenance notice' })).toBeNull();
  });
});
