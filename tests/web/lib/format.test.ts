import { describe, expect, it } from 'vitest';
import { abbreviateNumber, formatAmount, formatCurrency, formatKobo, initials, timeAgo, truncate } from '@/lib/format';

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
