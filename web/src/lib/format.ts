// Number, money and time formatting (spec section 9). The currency formatters live in
// moneyFormat.ts, which a public page's first load needs (the currency switcher) without the rest;
// every screen still imports its formatting from here.
import { DEFAULT_CURRENCY, formatAmount, groupThousands, roundDecimal, toNumber } from './moneyFormat';

export { DEFAULT_CURRENCY, formatAmount, formatCurrency, formatDecimalString } from './moneyFormat';

/** Kobo (integer minor units) as exact naira text: 123456n -> '1234.56', -5n -> '-0.05'. */
export function koboToNaira(kobo: bigint | number | string): string {
  const k = typeof kobo === 'bigint' ? kobo : BigInt(Math.trunc(Number(kobo) || 0));
  const negative = k < 0n;
  const abs = negative ? -k : k;
  const naira = `${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${naira}` : naira;
}

/** Kobo (integer minor units) to a 2-decimal screen amount. */
export function formatKobo(kobo: bigint | number | string, currency: string = DEFAULT_CURRENCY): string {
  return formatAmount(koboToNaira(kobo), currency);
}

const UNITS: ReadonlyArray<[number, string]> = [
  [1e12, 'T'],
  [1e9, 'B'],
  [1e6, 'M'],
  [1e3, 'K'],
];

/** Large counts: K, M, B, T at 1e3, 1e6, 1e9, 1e12 with one decimal (1500 -> '1.5K'); smaller as is. */
export function abbreviateNumber(value: number | string | null | undefined): string {
  const n = toNumber(value);
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  for (let i = 0; i < UNITS.length; i += 1) {
    const [size, suffix] = UNITS[i];
    if (abs >= size) {
      const scaled = Number((abs / size).toFixed(1));
      // 999,960 rounds to 1000.0K: show it as 1.0M instead (not past T).
      if (scaled >= 1000 && i > 0) {
        const [biggerSize, biggerSuffix] = UNITS[i - 1];
        return `${sign}${(abs / biggerSize).toFixed(1)}${biggerSuffix}`;
      }
      return `${sign}${scaled.toFixed(1)}${suffix}`;
    }
  }
  return `${sign}${abs}`;
}

/** Makes the formatter once, on first use: building an Intl formatter costs far more than formatting with it, and a list formats several values per row. */
function once<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => {
    made ??= make();
    return made;
  };
}
const countFormat = once(() => new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }));
const dateFormat = once(() => new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' }));
const dateTimeFormat = once(() => new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }));

/** Plain grouped integer, e.g. 12,500: written here as Intl would (moneyFormat.ts says why), by Intl past 1e21. */
export function formatCount(value: number | string | null | undefined): string {
  const n = toNumber(value);
  const rounded = roundDecimal(n, 0, 0);
  return rounded ? `${rounded.negative ? '-' : ''}${groupThousands(rounded.whole)}` : countFormat().format(n);
}

/** A list's total: "312", or "10,000+" when the list counted no further than that. */
export const formatTotal = (total: number | string, capped = false): string => `${formatCount(total)}${capped ? '+' : ''}`;

const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Relative time: '2 yrs', '1 mo', 'Yesterday', '3 days', '1 hr ago', '5 mins ago',
 * '12 sec ago', 'just now' (under 5 seconds, or a time in the future).
 */
export function timeAgo(date: string | number | Date | null | undefined, now: number = Date.now()): string {
  if (date === null || date === undefined || date === '') return '';
  const t = date instanceof Date ? date.getTime() : new Date(date).getTime();
  if (Number.isNaN(t)) return '';
  const seconds = Math.floor((now - t) / 1000);
  if (seconds >= YEAR) return plural(Math.floor(seconds / YEAR), 'yr', 'yrs');
  if (seconds >= MONTH) return plural(Math.floor(seconds / MONTH), 'mo', 'mos');
  if (seconds >= DAY) {
    const days = Math.floor(seconds / DAY);
    return days === 1 ? 'Yesterday' : `${days} days`;
  }
  if (seconds >= HOUR) return `${plural(Math.floor(seconds / HOUR), 'hr', 'hrs')} ago`;
  if (seconds >= MINUTE) return `${plural(Math.floor(seconds / MINUTE), 'min', 'mins')} ago`;
  if (seconds >= 5) return `${seconds} sec ago`;
  return 'just now';
}

/** 'Mar 5, 2024' (or '' for no date). */
export function formatDate(date: string | number | Date | null | undefined): string {
  if (date === null || date === undefined || date === '') return '';
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  return dateFormat().format(d);
}

/** 'Mar 5, 2024, 3:04 PM'. */
export function formatDateTime(date: string | number | Date | null | undefined): string {
  if (date === null || date === undefined || date === '') return '';
  const d = date instanceof Date ? date : new Date(date);
  if (Number.isNaN(d.getTime())) return '';
  return dateTimeFormat().format(d);
}

/** Seconds to '2 hr 5 min', '45 min', '3 days'; null -> 'Not enough data'. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 'Not enough data';
  const d = Math.floor(seconds / DAY);
  const h = Math.floor((seconds % DAY) / HOUR);
  const m = Math.floor((seconds % HOUR) / MINUTE);
  const parts: string[] = [];
  if (d) parts.push(plural(d, 'day', 'days'));
  if (h) parts.push(`${h} hr`);
  if (m && !d) parts.push(`${m} min`);
  return parts.length ? parts.join(' ') : 'Under a minute';
}

/** Cuts text at `max` characters followed by '...' (admin order titles use 30). */
export function truncate(text: string | null | undefined, max: number): string {
  const t = text ?? '';
  return t.length > max ? `${t.slice(0, max)}...` : t;
}

/** Up to two initials of a name ('Ada Lovelace' -> 'AL'), '?' when empty. */
export function initials(name: string | null | undefined): string {
  return (
    (name ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((p) => p[0]?.toUpperCase())
      .join('') || '?'
  );
}
