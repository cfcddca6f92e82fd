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

interface RoundedDecimal {
  negative: boolean;
  whole: string;
  fraction: string;
}

/** A finite number's shortest decimal text ('0.0000001', not '1e-7'), which Intl rounds; null past 1e21. */
function plainDecimal(value: number): string | null {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return null;
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const [digits, exponent] = String(Math.abs(value)).split('e');
  if (!exponent) return `${sign}${digits}`;
  // Only small numbers reach here (below 1e-6): '1.5e-7' -> '0.00000015'.
  const [whole, fraction = ''] = digits.split('.');
  return `${sign}0.${'0'.repeat(-Number(exponent) - 1)}${whole}${fraction}`;
}

/**
 * A number or plain decimal text rounded half away from zero to `max` fraction digits, then trimmed
 * of trailing zeros down to `min`: what Intl.NumberFormat writes (it rounds a number's shortest
 * decimal text, so 2.675 makes 2.68). null for what it cannot read, and past 1e21.
 */
export function roundDecimal(value: number | string, min: number, max: number): RoundedDecimal | null {
  const text = typeof value === 'number' ? plainDecimal(value) : value;
  const parts = text === null ? null : /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!parts) return null;
  let whole = parts[2];
  let fraction = parts[3] ?? '';
  if (fraction.length > max) {
    const kept = `${whole}${fraction.slice(0, max)}`;
    const rounded = fraction[max] >= '5' ? (BigInt(kept) + 1n).toString().padStart(kept.length, '0') : kept;
    whole = rounded.slice(0, rounded.length - max);
    fraction = rounded.slice(rounded.length - max);
  }
  let end = fraction.length;
  while (end > min && fraction[end - 1] === '0') end--;
  return { negative: parts[1] === '-', whole: whole.replace(/^0+(?=\d)/, '') || '0', fraction: fraction.slice(0, end).padEnd(min, '0') };
}

/** '1234567' -> '1,234,567'. */
export const groupThousands = (digits: string): string => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/**
 * en-US currency text, as Intl.NumberFormat writes it. NGN, the shop's currency, is written here:
 * the first Intl number formatter a page makes costs a phone over a hundred milliseconds of one
 * task, and most pages show nothing but naira.
 */
function formatMoney(value: number | string, currency: string, min: number, max: number): string {
  const rounded = currency === DEFAULT_CURRENCY ? roundDecimal(value, min, max) : null;
  if (!rounded) {
    const formatter = currencyFormatter(currency, min, max);
    return typeof value === 'number' ? formatter.format(value) : formatter.format(value as `${number}`);
  }
  return `${rounded.negative ? '-' : ''}${DEFAULT_CURRENCY}\u00a0${groupThousands(rounded.whole)}${rounded.fraction ? `.${rounded.fraction}` : ''}`;
}

/** General currency formatter: en-US, NGN by default, 2 to 6 fraction digits. */
export function formatCurrency(value: number | string | null | undefined, currency: string = DEFAULT_CURRENCY): string {
  return formatMoney(toNumber(value), currency, 2, 6);
}

/** Amounts on screens: en-US currency with exactly 2 decimals. */
export function formatAmount(value: number | string | null | undefined, currency: string = DEFAULT_CURRENCY): string {
  return formatMoney(toNumber(value), currency, 2, 2);
}

/**
 * Exact decimal text (e.g. a converted amount, '0.012345') in `currency`: 2 to `maxDigits`
 * fraction digits, without a detour through a double.
 */
export function formatDecimalString(decimal: string, currency: string = DEFAULT_CURRENCY, maxDigits = 2): string {
  const text = /^-?\d+(\.\d+)?$/.test(decimal) ? decimal : '0';
  return formatMoney(text, currency, 2, Math.max(2, maxDigits));
}
