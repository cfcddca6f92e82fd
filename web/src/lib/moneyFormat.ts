// Currency formatting (spec section 9), apart from the other formatters (format.ts re-exports
// these): the display currency (currency.ts) needs it on every page's first load.

export const DEFAULT_CURRENCY = 'NGN';

export const toNumber = (value: number | string | null | undefined): number => {
  if (value === null || value === undefined || value === '') return 0;
  const n = typeof value === 'number' ? value : Number(String(value).replace(/,/g, ''));
  return Number.isFinite(n) ? n : 0;
};

const formatters = new Map<string, Intl.NumberFormat>();
function currencyFormatter(currency: string, min: number, max: number): Intl.NumberFormat {
  const key = `${currency}|${min}|${max}`;
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: min, maximumFractionDigits: max });
    } catch {
      // An unknown currency code from settings must not break the screen.
      f = new Intl.NumberFormat('en-US', { style: 'currency', currency: DEFAULT_CURRENCY, minimumFractionDigits: min, maximumFractionDigits: max });
    }
    formatters.set(key, f);
  }
  return f;
}

/**
 * Builds the formatters a screen's first render uses, ahead of it (main.tsx, while the screen's code
 * downloads): the first Intl formatter a page makes costs a phone tens of milliseconds, better spent
 * while it waits than in the middle of rendering.
 */
export function prepareFormatters(): void {
  currencyFormatter(DEFAULT_CURRENCY, 2, 2);
  currencyFormatter(DEFAULT_CURRENCY, 2, 6);
}

/** General currency formatter: en-US, NGN by default, 2 to 6 fraction digits. */
export function formatCurrency(value: number | string | null | undefined, currency: string = DEFAULT_CURRENCY): string {
  return currencyFormatter(currency, 2, 6).format(toNumber(value));
}

/** Amounts on screens: en-US currency with exactly 2 decimals. */
export function formatAmount(value: number | string | null | undefined, currency: string = DEFAULT_CURRENCY): string {
  return currencyFormatter(currency, 2, 2).format(toNumber(value));
}

/**
 * Exact decimal text (e.g. a converted amount, '0.012345') in `currency`: 2 to `maxDigits`
 * fraction digits. Intl formats numeric strings exactly, without a detour through a double.
 */
export function formatDecimalString(decimal: string, currency: string = DEFAULT_CURRENCY, maxDigits = 2): string {
  const text = /^-?\d+(\.\d+)?$/.test(decimal) ? (decimal as `${number}`) : '0';
  return currencyFormatter(currency, 2, Math.max(2, maxDigits)).format(text);
}
