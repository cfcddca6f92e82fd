// Exact decimal arithmetic for money. Amounts live as bigint counts of a fixed
// smallest unit (kobo, or micro-units at scale 6); decimal text is converted
// digit by digit so no binary floating point ever touches a value.

/** Longest decimal text accepted; keeps a hostile input from building huge bigints. */
const MAX_INPUT_LENGTH = 64;
/** Largest exponent accepted in exponent notation (1e-7 and 1.5e+21 are fine, 1e999999 is not). */
const MAX_EXPONENT = 40;

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

interface ScaledParts {
  /** The value times 10^scale, truncated toward zero. */
  truncated: bigint;
  /** Whether non-zero digits were cut off below the scale. */
  hasRemainder: boolean;
  /** Whether the first cut-off digit is 5 or more (the value must be rounded away from zero). */
  roundsAway: boolean;
  negative: boolean;
}

function decimalText(input: string | number): string {
  if (typeof input === 'number') {
    // String(n) is the shortest text that reads back as the same double, e.g. "1.2e-5".
    if (!Number.isFinite(input)) throw new RangeError(`Not a finite number: ${input}`);
    return String(input);
  }
  if (typeof input !== 'string') throw new TypeError(`Expected a decimal string or number, got ${typeof input}`);
  return input.trim();
}

function splitScaled(input: string | number, scale: number): ScaledParts {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`Scale must be a non-negative integer, got ${scale}`);
  const text = decimalText(input);
  if (text.length === 0 || text.length > MAX_INPUT_LENGTH) throw new SyntaxError(`Not a decimal number: "${text}"`);
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) throw new SyntaxError(`Not a decimal number: "${text}"`);
  const [, sign, integerDigits, fractionDigits = '', exponentText = '0'] = match;
  if (integerDigits.length === 0 && fractionDigits.length === 0) throw new SyntaxError(`Not a decimal number: "${text}"`);
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) throw new RangeError(`Exponent out of range: "${text}"`);

  // All digits as one integer string, with the decimal point `pointShift` places from the right.
  const digits = integerDigits + fractionDigits;
  const pointShift = fractionDigits.length - exponent - scale;
  let kept: string;
  let dropped: string;
  if (pointShift <= 0) {
    kept = digits + '0'.repeat(-pointShift);
    dropped = '';
  } else if (pointShift >= digits.length) {
    kept = '';
    dropped = '0'.repeat(pointShift - digits.length) + digits;
  } else {
    kept = digits.slice(0, digits.length - pointShift);
    dropped = digits.slice(digits.length - pointShift);
  }
  const truncated = BigInt(kept || '0');
  const hasRemainder = /[1-9]/.test(dropped);
  return {
    truncated,
    hasRemainder,
    roundsAway: dropped.length > 0 && dropped[0] >= '5',
    negative: sign === '-' && (truncated !== 0n || hasRemainder),
  };
}

function signed(magnitude: bigint, negative: boolean): bigint {
  return negative ? -magnitude : magnitude;
}

/**
 * Parses decimal text (or a number, through its shortest string form, exponent
 * notation included) into an integer count of 10^-scale units. Digits below the
 * scale are rounded half away from zero. Throws on anything that is not a number.
 *
 * parseDecimal("0.90", 6) === 900000n; parseDecimal(1.2e-5, 6) === 12n
 */
export function parseDecimal(input: string | number, scale: number): bigint {
  const parts = splitScaled(input, scale);
  return signed(parts.truncated + (parts.roundsAway ? 1n : 0n), parts.negative);
}

/**
 * Like parseDecimal, but throws instead of rounding when the value has non-zero
 * digits below the scale ("1.005" at scale 2). For amounts that must be exact.
 */
export function parseDecimalExact(input: string | number, scale: number): bigint {
  const parts = splitScaled(input, scale);
  if (parts.hasRemainder) throw new RangeError(`"${decimalText(input)}" has more than ${scale} decimal places`);
  return signed(parts.truncated, parts.negative);
}

/**
 * Formats a count of 10^-scale units as decimal text with exactly
 * `fractionDigits` decimals, rounding half away from zero when digits are cut.
 *
 * formatScaled(1234500000n, 6, 2) === "1234.50"; formatScaled(-5n, 1, 0) === "-1"
 */
export function formatScaled(value: bigint, scale: number, fractionDigits: number): string {
  if (!Number.isInteger(scale) || scale < 0) throw new RangeError(`Scale must be a non-negative integer, got ${scale}`);
  if (!Number.isInteger(fractionDigits) || fractionDigits < 0) {
    throw new RangeError(`Fraction digits must be a non-negative integer, got ${fractionDigits}`);
  }
  const negative = value < 0n;
  let magnitude = negative ? -value : value;
  if (fractionDigits < scale) {
    const divisor = 10n ** BigInt(scale - fractionDigits);
    magnitude = (magnitude + divisor / 2n) / divisor;
  } else {
    magnitude *= 10n ** BigInt(fractionDigits - scale);
  }
  const digits = magnitude.toString().padStart(fractionDigits + 1, '0');
  const integerPart = digits.slice(0, digits.length - fractionDigits);
  const fractionPart = digits.slice(digits.length - fractionDigits);
  const sign = negative && magnitude !== 0n ? '-' : '';
  return fractionDigits === 0 ? sign + integerPart : `${sign}${integerPart}.${fractionPart}`;
}

/** Naira text or number to kobo; more than 2 significant decimal places is an error, never rounded. */
/** Basis points as a percentage with two decimals ("12.50"). */
export const bpsToPercent = (bps: number | bigint): string => formatScaled(BigInt(bps), 2, 2);

export function nairaToKobo(input: string | number): bigint {
  return parseDecimalExact(input, 2);
}

/** Kobo to naira text with two decimals: 123450n -> "1234.50". */
export function koboToNaira(kobo: bigint): string {
  return formatScaled(kobo, 2, 2);
}

/**
 * Kobo as naira for messages people read (bell, emails, answers), written as every page writes money
 * (the SPA's Intl en-US currency format): 123450n -> "NGN 1,234.50", -5n -> "-NGN 0.05", the space a
 * no-break one, so a line never wraps between the code and the amount.
 */
export function formatNaira(kobo: bigint): string {
  const [whole, fraction] = koboToNaira(kobo < 0n ? -kobo : kobo).split('.');
  return `${kobo < 0n ? '-' : ''}NGN\u00a0${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction}`;
}

/** formatNaira in SQL, for texts a query writes: `koboExpression` (an amount that is never negative there) as "NGN 1,234.50". */
export const formatNairaSql = (koboExpression: string): string => `'NGN' || chr(160) || to_char(${koboExpression} / 100.0, 'FM999,999,999,990.00')`;

/**
 * Kobo to a naira number, only for API fields the spec defines as numbers
 * (walletBalance). Exact for any balance below 2^53 kobo; never compute with it.
 */
export function koboToNumber(kobo: bigint): number {
  return Number(kobo) / 100;
}

/** a / b rounded toward positive infinity (bigint division truncates toward zero). */
export function ceilDiv(a: bigint, b: bigint): bigint {
  const quotient = a / b;
  const exact = quotient * b === a;
  return !exact && a < 0n === b < 0n ? quotient + 1n : quotient;
}
