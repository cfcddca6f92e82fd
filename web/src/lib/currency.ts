// Display currency (issue 6 item 5): every amount the API sends is in naira; a visitor may choose
// to see amounts in another currency, converted with the USD-based rates of GET rates
// (rates[X] = units of X per 1 USD, so naira -> X = amount × rates[X] / rates.NGN).
//
// The arithmetic is exact decimal arithmetic on BigInt (no binary floating point), rounded once,
// half away from zero, to the digits shown: the same rounding Intl.NumberFormat uses.
// Money a user enters or pays (add fund, order charges) and the admin area always stay in NGN.

import { DEFAULT_CURRENCY, formatAmount, formatCurrency, formatDecimalString } from './moneyFormat';

/** The currencies a visitor can pick (only those the rates answer contains are offered). */
export const DISPLAY_CURRENCIES = ['NGN', 'USD', 'EUR', 'GBP', 'GHS', 'KES', 'ZAR'] as const;
export type DisplayCurrency = (typeof DISPLAY_CURRENCIES)[number];

/** localStorage key of the visitor's choice. */
export const CURRENCY_STORAGE_KEY = 'CURRENCY';

/** The rates table of GET rates: currency code -> units per 1 `base` (USD). */
export type RateTable = Record<string, string | number | null | undefined>;
export interface RatesLike {
  base?: string | null;
  rates?: RateTable | null;
}

export const isDisplayCurrency = (code: unknown): code is DisplayCurrency =>
  typeof code === 'string' && (DISPLAY_CURRENCIES as readonly string[]).includes(code);

// ---------------------------------------------------------------------------------------------
// Exact decimals: value = units / 10^scale.

interface Decimal {
  units: bigint;
  scale: number;
}

const DECIMAL_RE = /^([+-])?(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** A number or numeric text ('1,550.25', '1e-7') as an exact decimal; null when unreadable. */
export function parseDecimal(value: number | string | null | undefined): Decimal | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const text = String(value).replace(/,/g, '').trim();
  const m = DECIMAL_RE.exec(text);
  if (!m) return null;
  const [, sign, whole = '', fraction = '', exp] = m;
  if (whole === '' && fraction === '') return null;
  let units = BigInt(`${whole || '0'}${fraction}`);
  let scale = fraction.length;
  const e = exp ? Number(exp) : 0;
  if (!Number.isSafeInteger(e) || Math.abs(e) > 400) return null;
  if (e > 0) {
    const shift = Math.min(e, scale);
    scale -= shift;
    units *= 10n ** BigInt(e - shift);
  } else if (e < 0) {
    scale -= e;
  }
  return { units: sign === '-' ? -units : units, scale };
}

/** round(numerator / denominator), halves away from zero; denominator > 0. */
function divRound(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const abs = negative ? -numerator : numerator;
  const q = (abs * 2n + denominator) / (denominator * 2n);
  return negative ? -q : q;
}

/** units / 10^digits as plain decimal text ('-0.012345'). */
function toDecimalString(units: bigint, digits: number): string {
  const negative = units < 0n;
  const abs = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const text = digits > 0 ? `${abs.slice(0, -digits)}.${abs.slice(-digits)}` : abs;
  return negative && units !== 0n ? `-${text}` : text;
}

/** Units of `currency` per 1 USD from the rates answer, or null when missing or not positive. */
export function ratePerUsd(currency: string, rates: RatesLike | null | undefined): Decimal | null {
  if (!rates?.rates || (rates.base && rates.base !== 'USD')) return null;
  const raw = rates.rates[currency];
  const rate = raw === undefined && currency === 'USD' ? { units: 1n, scale: 0 } : parseDecimal(raw);
  return rate && rate.units > 0n ? rate : null;
}

/**
 * `naira` converted to `currency` as exact decimal text rounded to `digits` fraction digits, or
 * null when the rates lack NGN or `currency` (the caller then shows NGN). NGN itself converts to itself.
 */
export function convertNaira(naira: number | string | null | undefined, currency: string, rates: RatesLike | null | undefined, digits = 2): string | null {
  const amount = parseDecimal(naira === '' || naira === null || naira === undefined ? 0 : naira) ?? { units: 0n, scale: 0 };
  if (currency === DEFAULT_CURRENCY) return toDecimalString(divRound(amount.units * 10n ** BigInt(digits), 10n ** BigInt(amount.scale)), digits);
  const ngn = ratePerUsd(DEFAULT_CURRENCY, rates);
  const target = ratePerUsd(currency, rates);
  if (!ngn || !target) return null;
  // amount × target / ngn = (A/10^a) × (T/10^t) / (N/10^n); scaled by 10^digits and rounded once.
  const numerator = amount.units * target.units * 10n ** BigInt(ngn.scale + digits);
  const denominator = ngn.units * 10n ** BigInt(amount.scale + target.scale);
  return toDecimalString(divRound(numerator, denominator), digits);
}

/** The codes offered by the switcher: NGN, then every other display currency the rates contain. */
export function availableCurrencies(rates: RatesLike | null | undefined): DisplayCurrency[] {
  if (!ratePerUsd(DEFAULT_CURRENCY, rates)) return [DEFAULT_CURRENCY];
  return DISPLAY_CURRENCIES.filter((c) => c === DEFAULT_CURRENCY || ratePerUsd(c, rates) !== null);
}

export interface NairaFormatOptions {
  /** 2 to 6 fraction digits (the general formatter), for prices per 1000 where sub-kobo precision matters. */
  precise?: boolean;
}

/**
 * A naira amount shown in `currency`: converted with the rates, 2 decimals (or 2 to 6 with
 * `precise`). Without a usable rate (rates not loaded, currency missing) it is shown in NGN.
 */
export function formatNaira(
  naira: number | string | null | undefined,
  currency: string,
  rates: RatesLike | null | undefined,
  options: NairaFormatOptions = {},
): string {
  const digits = options.precise ? 6 : 2;
  if (currency !== DEFAULT_CURRENCY) {
    const converted = convertNaira(naira, currency, rates, digits);
    if (converted !== null) return formatDecimalString(converted, currency, digits);
  }
  return options.precise ? formatCurrency(naira) : formatAmount(naira);
}

// ---------------------------------------------------------------------------------------------
// The visitor's choice, persisted in localStorage and shared by every mounted screen.

const listeners = new Set<() => void>();
/** The choice when localStorage is unavailable (private mode, blocked storage). */
let memoryChoice: DisplayCurrency | null = null;

/** The stored choice, or null when none (or not one of DISPLAY_CURRENCIES). */
export function getStoredCurrency(): DisplayCurrency | null {
  try {
    const v = window.localStorage.getItem(CURRENCY_STORAGE_KEY);
    return isDisplayCurrency(v) ? v : null;
  } catch {
    return null;
  }
}

export function setStoredCurrency(code: DisplayCurrency): void {
  try {
    window.localStorage.setItem(CURRENCY_STORAGE_KEY, code);
  } catch {
    // Storage full or blocked: the choice still applies to this page view.
    memoryChoice = code;
  }
  for (const l of listeners) l();
}

/** The current choice for useSyncExternalStore (a string, so snapshots compare by value). */
export const currencySnapshot = (): DisplayCurrency | null => getStoredCurrency() ?? memoryChoice;

/** Subscribes to choice changes in this tab and (through the storage event) in other tabs. */
export function subscribeCurrency(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === null || e.key === CURRENCY_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
