import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatAmount, formatCount, formatCurrency, formatDecimalString, formatKobo, initials, timeAgo, truncate } from '@/lib/format';

describe('formatCurrency (general formatter: en-US, NGN default, 2–6 fraction digits)', () => {
  it('defaults to NGN with the en-US grouping', () => {
    expect(formatCurrency(1234.5)).toBe('NGN\u00a01,234.50');
  });
  it('always shows at least 2 fraction digits', () => {
    expect(formatCurrency(5)).toBe('NGN\u00a05.00');
  });
  it('keeps up to 6 fraction digits and rounds the 7th', () => {
    expect(formatCurrency(0.123456)).toBe('NGN\u00a00.123456');
    expect(formatCurrency(0.1234567)).toBe('NGN\u00a00.123457');
  });
  it('accepts numeric strings and another currency', () => {
    expect(formatCurrency('1550.250000', 'USD')).toBe('$1,550.25');
  });
  it('treats empty and unreadable values as zero', () => {
    expect(formatCurrency(null)).toBe('NGN\u00a00.00');
    expect(formatCurrency('abc')).toBe('NGN\u00a00.00');
  });
});

describe('naira and counts written without Intl read exactly as Intl.NumberFormat writes them', () => {
  const intl = (min: number, max: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'NGN', minimumFractionDigits: min, maximumFractionDigits: max });
  // A fixed pseudo-random walk over magnitudes and digits, with the edges that differ most easily: ties, -0, 9s that carry.
  let seed = 20261128;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const numbers = [0, -0, 0.005, 0.125, -0.125, 2.675, 1.005, 999.995, -999.995, 0.0000005, -0.004, 1e20, 123456789.98765433];
  for (let i = 0; i < 2000; i++) numbers.push((next() - 0.3) * 10 ** Math.floor(next() * 14 - 4));
  const texts = ['0', '-0', '0.005', '-0.005', '999.999999', '-999.9999995', '0000123.450', '12345678901234567890123.456789', '0.0000004999'];
  for (let i = 0; i < 2000; i++)
    texts.push(`${next() < 0.3 ? '-' : ''}${Math.floor(next() * 10 ** Math.floor(next() * 12))}.${String(Math.floor(next() * 1e9)).padStart(9, '0')}`);

  it('formatCurrency and formatAmount, on numbers', () => {
    for (const n of numbers) {
      expect(formatCurrency(n), String(n)).toBe(intl(2, 6).format(n));
      expect(formatAmount(n), String(n)).toBe(intl(2, 2).format(n));
    }
  });
  it('formatDecimalString, on exact decimal text with 2 to 6 digits', () => {
    for (const text of texts)
      for (const digits of [2, 4, 6]) expect(formatDecimalString(text, 'NGN', digits), text).toBe(intl(2, digits).format(text as `${number}`));
  });
  it('formatCount', () => {
    const counts = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    for (const n of [...numbers, 2.5, -2.5, 1e21, 12500]) expect(formatCount(n), String(n)).toBe(counts.format(n));
  });
  it('other currencies still go through Intl', () => {
    expect(formatAmount(-1234.5, 'USD')).toBe('-$1,234.50');
    expect(formatDecimalString('0.0123456', 'EUR', 6)).toBe('€0.012346');
  });
});

describe('formatAmount (screen amounts: exactly 2 decimals)', () => {
  it('rounds to 2 decimals', () => {
    expect(formatAmount(1234.567)).toBe('NGN\u00a01,234.57');
    expect(formatAmount('100')).toBe('NGN\u00a0100.00');
  });
  it('formats kobo exactly', () => {
    expect(formatKobo(123456n)).toBe('NGN\u00a01,234.56');
    expect(formatKobo(5)).toBe('NGN\u00a00.05');
  });
});

describe('abbreviateNumber (K, M, B, T at 1e3, 1e6, 1e9, 1e12, one decimal)', () => {
  it('leaves numbers under 1000 as they are', () => {
    expect(abbreviateNumber(0)).toBe('0');
    expect(abbreviateNumber(999)).toBe('999');
  });
  it('uses K from 1e3', () => {
    expect(abbreviateNumber(1000)).toBe('1.0K');
    expect(abbreviateNumber(1500)).toBe('1.5K');
    expect(abbreviateNumber(999_940)).toBe('999.9K');
  });
  it('uses M from 1e6, B from 1e9, T from 1e12', () => {
    expect(abbreviateNumber(1_000_000)).toBe('1.0M');
    expect(abbreviateNumber(2_345_678)).toBe('2.3M');
    expect(abbreviateNumber(1_000_000_000)).toBe('1.0B');
    expect(abbreviateNumber(7_250_000_000)).toBe('7.3B');
    expect(abbreviateNumber(1e12)).toBe('1.0T');
    expect(abbreviateNumber(4.56e15)).toBe('4560.0T');
  });
  it('moves up a unit instead of showing 1000.0K', () => {
    expect(abbreviateNumber(999_999)).toBe('1.0M');
  });
  it('keeps the sign of negative numbers', () => {
    expect(abbreviateNumber(-1500)).toBe('-1.5K');
  });
});

describe('timeAgo (relative time labels)', () => {
  const now = Date.UTC(2024, 5, 15, 12, 0, 0);
  const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();
  const DAY = 86_400;

  it('says just now for under 5 seconds and for future times', () => {
    expect(timeAgo(ago(0), now)).toBe('just now');
    expect(timeAgo(ago(4), now)).toBe('just now');
    expect(timeAgo(ago(-60), now)).toBe('just now');
  });
  it('counts seconds: "sec ago"', () => {
    expect(timeAgo(ago(5), now)).toBe('5 sec ago');
    expect(timeAgo(ago(59), now)).toBe('59 sec ago');
  });
  it('counts minutes: "min ago" / "mins ago"', () => {
    expect(timeAgo(ago(60), now)).toBe('1 min ago');
    expect(timeAgo(ago(150), now)).toBe('2 mins ago');
  });
  it('counts hours: "hr ago" / "hrs ago"', () => {
    expect(timeAgo(ago(3600), now)).toBe('1 hr ago');
    expect(timeAgo(ago(5 * 3600), now)).toBe('5 hrs ago');
  });
  it('says Yesterday for one day and "N days" after that', () => {
    expect(timeAgo(ago(DAY), now)).toBe('Yesterday');
    expect(timeAgo(ago(2 * DAY), now)).toBe('2 days');
    expect(timeAgo(ago(29 * DAY), now)).toBe('29 days');
  });
  it('counts months: "mo" / "mos"', () => {
    expect(timeAgo(ago(30 * DAY), now)).toBe('1 mo');
    expect(timeAgo(ago(90 * DAY), now)).toBe('3 mos');
  });
  it('counts years: "yr" / "yrs"', () => {
    expect(timeAgo(ago(365 * DAY), now)).toBe('1 yr');
    expect(timeAgo(ago(3 * 365 * DAY), now)).toBe('3 yrs');
  });
  it('returns an empty label for missing or invalid dates', () => {
    expect(timeAgo(null, now)).toBe('');
    expect(timeAgo('not a date', now)).toBe('');
  });
});

describe('text helpers', () => {
  it('truncate cuts at the limit and appends "..."', () => {
    const title = 'Instagram Followers | Real | 30 Days Refill';
    expect(truncate(title, 30)).toBe(`${title.slice(0, 30)}...`);
    expect(truncate('Short title', 30)).toBe('Short title');
    expect(truncate('x'.repeat(30), 30)).toBe('x'.repeat(30));
  });
  it('initials takes up to two', () => {
    expect(initials('Ada King Lovelace')).toBe('AK');
    expect(initials('')).toBe('?');
  });
});
