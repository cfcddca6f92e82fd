import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ceilDiv, formatScaled, koboToNaira, koboToNumber, nairaToKobo, parseDecimal, parseDecimalExact } from '../../../worker/lib/decimal';

describe('parseDecimal', () => {
  it('reads decimal text exactly at the given scale', () => {
    expect(parseDecimal('0.90', 6)).toBe(900_000n);
    expect(parseDecimal('8', 6)).toBe(8_000_000n);
    expect(parseDecimal('0.27819', 6)).toBe(278_190n);
    expect(parseDecimal('1550.25', 2)).toBe(155_025n);
    expect(parseDecimal('-12.5', 1)).toBe(-125n);
    expect(parseDecimal('+3', 0)).toBe(3n);
    expect(parseDecimal(' 42.10 ', 2)).toBe(4210n);
    expect(parseDecimal('.5', 2)).toBe(50n);
    expect(parseDecimal('123456789012345678901234567890.123456', 6)).toBe(123456789012345678901234567890123456n);
  });

  it('reads numbers through their exact shortest text, exponent notation included', () => {
    expect(parseDecimal(1.2e-5, 6)).toBe(12n);
    expect(parseDecimal(0.1, 6)).toBe(100_000n);
    // 0.1 + 0.2 is 0.30000000000000004 as a double; the extra digits round away.
    expect(parseDecimal(0.1 + 0.2, 6)).toBe(300_000n);
    expect(parseDecimal(1e21, 0)).toBe(10n ** 21n);
    expect(parseDecimal('2.5E3', 0)).toBe(2500n);
    expect(parseDecimal(-0, 2)).toBe(0n);
  });

  it('rounds digits below the scale half away from zero', () => {
    expect(parseDecimal('0.0000005', 6)).toBe(1n);
    expect(parseDecimal('0.0000004999', 6)).toBe(0n);
    expect(parseDecimal('-0.0000005', 6)).toBe(-1n);
    expect(parseDecimal('1.005', 2)).toBe(101n);
    expect(parseDecimal('-0.0000001', 6)).toBe(0n);
  });

  it('throws on anything that is not a plain decimal number', () => {
    for (const garbage of ['', ' ', 'abc', '1,000', '1_000', '0x10', '1.2.3', '--1', '.', 'e5', '1e', 'NaN', 'Infinity', '12abc', '1e999']) {
      expect(() => parseDecimal(garbage, 2), garbage).toThrow();
    }
    expect(() => parseDecimal(Number.NaN, 2)).toThrow();
    expect(() => parseDecimal(Number.POSITIVE_INFINITY, 2)).toThrow();
    expect(() => parseDecimal('1'.repeat(100), 0)).toThrow();
    expect(() => parseDecimal(null as unknown as string, 2)).toThrow(TypeError);
    expect(() => parseDecimal('1', -1)).toThrow(RangeError);
  });
});

describe('parseDecimalExact and nairaToKobo', () => {
  it('accepts at most the scale in significant decimals', () => {
    expect(nairaToKobo('1234.50')).toBe(123_450n);
    expect(nairaToKobo('1234.5')).toBe(123_450n);
    expect(nairaToKobo(1234.5)).toBe(123_450n);
    expect(nairaToKobo('100')).toBe(10_000n);
    expect(nairaToKobo('0.01')).toBe(1n);
    expect(nairaToKobo('5.000')).toBe(500n);
    expect(parseDecimalExact('157', 0)).toBe(157n);
  });

  it('throws instead of rounding', () => {
    expect(() => nairaToKobo('1.005')).toThrow(RangeError);
    expect(() => nairaToKobo(0.001)).toThrow(RangeError);
    expect(() => nairaToKobo('ten')).toThrow();
    expect(() => parseDecimalExact('12.5', 0)).toThrow(RangeError);
  });
});

describe('formatScaled', () => {
  it('formats exactly with the requested decimals', () => {
    expect(formatScaled(123_450n, 2, 2)).toBe('1234.50');
    expect(formatScaled(5n, 2, 2)).toBe('0.05');
    expect(formatScaled(0n, 6, 2)).toBe('0.00');
    expect(formatScaled(278_190n, 6, 5)).toBe('0.27819');
    expect(formatScaled(7n, 0, 2)).toBe('7.00');
    expect(formatScaled(1_234_567n, 3, 0)).toBe('1235');
  });

  it('rounds half away from zero and keeps the sign of negatives', () => {
    expect(formatScaled(1_234_567n, 3, 2)).toBe('1234.57');
    expect(formatScaled(-1_234_567n, 3, 2)).toBe('-1234.57');
    expect(formatScaled(125n, 3, 2)).toBe('0.13');
    expect(formatScaled(-125n, 3, 2)).toBe('-0.13');
    expect(formatScaled(124n, 3, 2)).toBe('0.12');
    expect(formatScaled(-5n, 2, 2)).toBe('-0.05');
    // Rounds to zero: no "-0.00".
    expect(formatScaled(-4n, 3, 2)).toBe('0.00');
  });

  it('round-trips with parseDecimal for any value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 12 }), (value, scale) => {
        expect(parseDecimal(formatScaled(value, scale, scale), scale)).toBe(value);
        expect(parseDecimalExact(formatScaled(value, scale, scale + 3), scale)).toBe(value);
      }),
    );
  });
});

describe('kobo helpers', () => {
  it('converts kobo to naira text and number', () => {
    expect(koboToNaira(123_450n)).toBe('1234.50');
    expect(koboToNaira(-99n)).toBe('-0.99');
    expect(koboToNumber(123_450n)).toBe(1234.5);
    expect(koboToNumber(29n)).toBe(0.29);
    expect(koboToNumber(0n)).toBe(0);
  });
});

describe('ceilDiv', () => {
  it('rounds the quotient toward positive infinity', () => {
    expect(ceilDiv(10n, 5n)).toBe(2n);
    expect(ceilDiv(11n, 5n)).toBe(3n);
    expect(ceilDiv(1n, 1000n)).toBe(1n);
    expect(ceilDiv(0n, 7n)).toBe(0n);
    expect(ceilDiv(-11n, 5n)).toBe(-2n);
    expect(ceilDiv(11n, -5n)).toBe(-2n);
    expect(ceilDiv(-11n, -5n)).toBe(3n);
    expect(() => ceilDiv(1n, 0n)).toThrow(RangeError);
  });

  it('matches the mathematical ceiling', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), fc.boolean(), (a, magnitude, negative) => {
        const b = negative ? -magnitude : magnitude;
        const q = ceilDiv(a, b);
        // q is the smallest integer with q * b >= a (for b > 0), or q * b <= a (for b < 0).
        if (b > 0n) expect(q * b >= a && (q - 1n) * b < a).toBe(true);
        else expect(q * b <= a && (q - 1n) * b > a).toBe(true);
      }),
    );
  });
});
