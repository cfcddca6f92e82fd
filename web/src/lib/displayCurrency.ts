// The visitor's display currency: one hook for every screen that shows naira amounts to visitors
// and users (public Services, the user area's catalogue and picker, top-bar balance, dashboard,
// orders, transactions). Admin screens and money a user enters or pays stay in NGN.
import { useCallback, useMemo, useSyncExternalStore } from 'react';
import {
  availableCurrencies,
  convertNaira,
  currencySnapshot,
  type DisplayCurrency,
  formatNaira,
  isDisplayCurrency,
  ratePerUsd,
  setStoredCurrency,
  subscribeCurrency,
} from './currency';
import { DEFAULT_CURRENCY } from './moneyFormat';
import { usePublicSettings, useRates } from './settings';

type Naira = number | string | null | undefined;

export interface DisplayMoney {
  /** The currency amounts are shown in: the choice once its rate is known, NGN until then. */
  currency: DisplayCurrency;
  /** The visitor's choice (stored, else the site's defaultCurrency, else NGN). */
  selected: DisplayCurrency;
  /** What the switcher offers: NGN and the display currencies the rates answer contains. */
  options: DisplayCurrency[];
  setCurrency: (code: DisplayCurrency) => void;
  /** A naira amount on screen: in `currency`, 2 decimals. */
  format: (naira: Naira) => string;
  /** A naira price per 1000: in `currency`, 2 to 6 fraction digits. */
  formatPrecise: (naira: Naira) => string;
  /** A naira amount as a number in `currency` (chart axes). */
  convert: (naira: Naira) => number;
  /**
   * '≈' hint for an amount that stays in NGN (add fund, order charge): the amount in the display
   * currency, or in `fallback` when the display currency is NGN; null when there is no rate.
   */
  equivalent: (naira: Naira, fallback?: DisplayCurrency) => string | null;
}

export function useDisplayCurrency(): DisplayMoney {
  const stored = useSyncExternalStore(subscribeCurrency, currencySnapshot, () => null);
  const { data: settings } = usePublicSettings();
  const { data: rates } = useRates();
  const siteDefault = settings?.defaultCurrency;
  const selected: DisplayCurrency = stored ?? (isDisplayCurrency(siteDefault) ? siteDefault : DEFAULT_CURRENCY);
  const currency: DisplayCurrency =
    selected !== DEFAULT_CURRENCY && ratePerUsd(DEFAULT_CURRENCY, rates) && ratePerUsd(selected, rates) ? selected : DEFAULT_CURRENCY;
  const setCurrency = useCallback((code: DisplayCurrency) => setStoredCurrency(code), []);

  return useMemo<DisplayMoney>(
    () => ({
      currency,
      selected,
      options: availableCurrencies(rates),
      setCurrency,
      format: (naira) => formatNaira(naira, currency, rates),
      formatPrecise: (naira) => formatNaira(naira, currency, rates, { precise: true }),
      convert: (naira) => Number(convertNaira(naira, currency, rates, 6) ?? convertNaira(naira, DEFAULT_CURRENCY, rates, 6)),
      equivalent: (naira, fallback) => {
        const target = currency !== DEFAULT_CURRENCY ? currency : fallback;
        if (!target || target === DEFAULT_CURRENCY || convertNaira(naira, target, rates) === null) return null;
        return formatNaira(naira, target, rates);
      },
    }),
    [currency, selected, rates, setCurrency],
  );
}
