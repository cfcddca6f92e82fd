import { beforeEach, describe, expect, inject, it } from 'vitest';
import { createRatesClient, RatesProviderError } from '../../../worker/providers/rates';
import { answering, fakeScope, rejection } from './fake-scope';

const fake = fakeScope(inject('ratesUrl'));
const rates = createRatesClient({ baseUrl: fake.url, timeoutMs: 2000 });

const failure = (promise: Promise<unknown>) => rejection(promise, RatesProviderError);

function answer(overrides: Record<string, unknown>): string {
  return JSON.stringify({ result: 'success', base_code: 'USD', time_last_update_unix: 1_700_000_000, rates: { USD: 1, NGN: 1550.25 }, ...overrides });
}

beforeEach(async () => {
  await fake.post('/__reset');
});

describe('exchange rates', () => {
  it('reads USD-based rates exactly at scale 6', async () => {
    const latest = await rates.latest();
    expect(latest.base).toBe('USD');
    expect(latest.rates.USD).toBe(1_000_000n);
    expect(latest.rates.NGN).toBe(1_550_250_000n);
    expect(latest.rates.EUR).toBe(921_538n);
    expect(latest.updatedAt).toBeInstanceOf(Date);
    expect(latest.updatedAt.getTime() % 86_400_000).toBe(0);
    expect(Date.now() - latest.updatedAt.getTime()).toBeLessThan(86_400_000);
  });

  it('follows rate changes, reading tiny and exponent-notation numbers exactly', async () => {
    await fake.post('/__control', { rates: { NGN: 1601.5, BTC: 0.0000158, XAU: 1.2e-5 } });
    const latest = await rates.latest();
    expect(latest.rates.NGN).toBe(1_601_500_000n);
    expect(latest.rates.BTC).toBe(16n);
    expect(latest.rates.XAU).toBe(12n);
  });

  it('is unavailable when the service fails or hangs', async () => {
    await fake.post('/__control', { mode: 'fail' });
    expect(await failure(rates.latest())).toMatchObject({ kind: 'unavailable', httpStatus: 503 });
    await fake.post('/__control', { mode: 'timeout' });
    const quick = createRatesClient({ baseUrl: fake.url, timeoutMs: 300 });
    expect((await failure(quick.latest())).kind).toBe('unavailable');
  });

  it('is rejected when the service answers with an error result', async () => {
    const client = createRatesClient({ fetchImpl: answering(200, JSON.stringify({ result: 'error', 'error-type': 'unsupported-code' })) });
    expect(await failure(client.latest())).toMatchObject({ kind: 'rejected', message: 'Exchange rates refused: unsupported-code' });
  });

  it('is unavailable for answers of the wrong shape', async () => {
    const bodies = [
      '<html>oops</html>',
      answer({ base_code: 'EUR' }),
      answer({ rates: { NGN: 'lots' } }),
      answer({ rates: { NGN: -5 } }),
      answer({ rates: { USD: 1.1 } }),
      answer({ rates: null }),
      answer({ time_last_update_unix: 'yesterday' }),
      answer({ result: 'maybe' }),
    ];
    for (const body of bodies) {
      const client = createRatesClient({ fetchImpl: answering(200, body) });
      expect((await failure(client.latest())).kind, body).toBe('unavailable');
    }
  });

  it('asks the open.er-api.com path', async () => {
    const urls: string[] = [];
    const client = createRatesClient({
      baseUrl: 'https://rates.test/',
      fetchImpl: async (input) => {
        urls.push(String(input));
        return new Response(answer({}));
      },
    });
    expect((await client.latest()).rates.NGN).toBe(1_550_250_000n);
    expect(urls).toEqual(['https://rates.test/v6/latest/USD']);
  });
});
