// USD-based exchange rates from an open.er-api.com style service
// (GET /v6/latest/USD -> {result, base_code, time_last_update_unix, rates}).
// Rates arrive as JSON numbers; they are read through their exact decimal text
// into bigint at scale 6 (1550.25 NGN per USD -> 1550250000n).

import { parseDecimal } from '../lib/decimal';
import { excerpt, type FetchImpl, fetchJsonObject, globalFetch, isRecord, ProviderError } from './http';

/** Exchange rates are kept as units of the quoted currency per 1 USD, times 10^6. */
export const RATE_SCALE = 6;

export interface RatesOptions {
  baseUrl?: string;
  timeoutMs?: number;
  fetchImpl?: FetchImpl;
}

export interface LatestRates {
  base: 'USD';
  /** When the service last refreshed its rates. */
  updatedAt: Date;
  /** Currency code -> units per 1 USD at scale 6. */
  rates: Record<string, bigint>;
}

export interface RatesClient {
  latest(): Promise<LatestRates>;
}

export class RatesProviderError extends ProviderError {}

export function createRatesClient({ baseUrl = 'https://open.er-api.com', timeoutMs = 10_000, fetchImpl = globalFetch }: RatesOptions = {}): RatesClient {
  const url = `${baseUrl.replace(/\/+$/, '')}/v6/latest/USD`;

  function unreadable(message: string, httpStatus: number | null, cause?: unknown): RatesProviderError {
    return new RatesProviderError('unavailable', `Exchange rates: ${message}`, httpStatus, { cause });
  }

  return {
    async latest() {
      const { httpStatus, body, text } = await fetchJsonObject(
        fetchImpl,
        url,
        { method: 'GET', headers: { accept: 'application/json' } },
        timeoutMs,
        (kind, message, status, cause) => new RatesProviderError(kind, message, status, { cause }),
        'Exchange rates',
      );
      if (body.result === 'error') {
        const errorType = typeof body['error-type'] === 'string' ? body['error-type'] : 'unknown error';
        throw new RatesProviderError('rejected', `Exchange rates refused: ${errorType}`, httpStatus);
      }
      if (body.result !== 'success' || httpStatus >= 400) throw unreadable(`HTTP ${httpStatus}: ${excerpt(text)}`, httpStatus);
      if (body.base_code !== 'USD') throw unreadable(`base is ${JSON.stringify(body.base_code)}, not USD`, httpStatus);
      const updatedSeconds = body.time_last_update_unix;
      if (typeof updatedSeconds !== 'number' || !Number.isSafeInteger(updatedSeconds) || updatedSeconds <= 0) {
        throw unreadable(`bad time_last_update_unix ${JSON.stringify(updatedSeconds)}`, httpStatus);
      }
      if (!isRecord(body.rates)) throw unreadable('no rates object', httpStatus);

      const rates: Record<string, bigint> = {};
      for (const [code, value] of Object.entries(body.rates)) {
        if (!/^[A-Z]{3}$/.test(code) || (typeof value !== 'number' && typeof value !== 'string')) {
          throw unreadable(`bad rate ${code}=${JSON.stringify(value)}`, httpStatus);
        }
        let scaled: bigint;
        try {
          scaled = parseDecimal(value, RATE_SCALE);
        } catch (error) {
          throw unreadable(`bad rate ${code}=${JSON.stringify(value)}`, httpStatus, error);
        }
        if (scaled <= 0n) throw unreadable(`rate ${code}=${JSON.stringify(value)} is not positive`, httpStatus);
        rates[code] = scaled;
      }
      if (rates.USD !== undefined && rates.USD !== 10n ** BigInt(RATE_SCALE)) throw unreadable(`USD rate is not 1`, httpStatus);
      return { base: 'USD', updatedAt: new Date(updatedSeconds * 1000), rates };
    },
  };
}
