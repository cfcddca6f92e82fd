// A local open.er-api.com: GET /v6/latest/USD in its exact shape, with fixed
// realistic rates, plus POST /__control to change the rates or make it fail:
//   {"rates": {"NGN": 2325.38, "EUR": 0.93}}    several rates at once (JSON numbers, as the service sends)
//   {"currency": "NGN", "rate": "2325.38"}      one chosen rate; also as a form: currency=NGN&rate=2325.38
//   {"mode": "fail" | "timeout" | "normal"}
// e.g. on the local stack, a 50% jump the shop holds for an administrator (Admin → Services → Pricing):
//   curl -d currency=NGN -d rate=2325.38 http://127.0.0.1:8792/__control

import { isOneOf, type RunningFake, readFields, Scopes, sendJson, startFakeServer } from './http';

export interface FakeRatesOptions {
  port?: number;
}

type Mode = 'normal' | 'fail' | 'timeout';

/** Units per 1 USD, as the real service publishes them (JSON numbers). */
const DEFAULT_RATES: Record<string, number> = {
  USD: 1,
  NGN: 1550.25,
  EUR: 0.921538,
  GBP: 0.787455,
  GHS: 15.486172,
  KES: 129.1505,
  ZAR: 18.402611,
  XOF: 604.49,
  EGP: 48.7052,
  CAD: 1.369887,
  INR: 83.948251,
  AED: 3.6725,
  CNY: 7.118214,
  JPY: 149.361208,
};

const DAY_SECONDS = 86_400;

interface RatesState {
  rates: Record<string, number>;
  mode: Mode;
}

export async function startFakeRates(options: FakeRatesOptions = {}): Promise<RunningFake> {
  const scopes = new Scopes<RatesState>(() => ({ rates: { ...DEFAULT_RATES }, mode: 'normal' }));

  return startFakeServer(options.port ?? 0, (request, response, scope) => {
    const state = scopes.get(scope);
    const { method, path } = request;
    const latest = /^\/v6\/latest\/([A-Za-z]+)$/.exec(path);
    if (method === 'GET' && latest) {
      if (state.mode === 'timeout') return; // never answers; the connection is cut when the fake closes
      if (state.mode === 'fail') return sendJson(response, 503, { result: 'error', 'error-type': 'service-unavailable' });
      if (latest[1].toUpperCase() !== 'USD') return sendJson(response, 404, { result: 'error', 'error-type': 'unsupported-code' });
      // The real service refreshes once a day, at midnight UTC.
      const updated = Math.floor(Date.now() / 1000 / DAY_SECONDS) * DAY_SECONDS;
      return sendJson(response, 200, {
        result: 'success',
        provider: 'https://www.exchangerate-api.com',
        documentation: 'https://www.exchangerate-api.com/docs/free',
        terms_of_use: 'https://www.exchangerate-api.com/terms',
        time_last_update_unix: updated,
        time_last_update_utc: new Date(updated * 1000).toUTCString().replace('GMT', '+0000'),
        time_next_update_unix: updated + DAY_SECONDS,
        time_next_update_utc: new Date((updated + DAY_SECONDS) * 1000).toUTCString().replace('GMT', '+0000'),
        time_eol_unix: 0,
        base_code: 'USD',
        rates: state.rates,
      });
    }
    if (method === 'POST' && path === '/__control') {
      const fields = readFields(request);
      if (isOneOf(fields.mode, ['normal', 'fail', 'timeout'])) state.mode = fields.mode;
      if (typeof fields.rates === 'object' && fields.rates !== null) Object.assign(state.rates, fields.rates);
      if (typeof fields.currency === 'string' && (typeof fields.rate === 'string' || typeof fields.rate === 'number')) {
        const rate = Number(fields.rate);
        if (!/^[A-Z]{3}$/.test(fields.currency) || !(rate > 0))
          return sendJson(response, 400, { error: 'currency must be a 3-letter code in capitals and rate a positive number' });
        state.rates[fields.currency] = rate;
      }
      return sendJson(response, 200, { mode: state.mode, rates: state.rates });
    }
    if (method === 'POST' && path === '/__reset') {
      scopes.reset(scope);
      return sendJson(response, 200, { ok: true });
    }
    sendJson(response, 404, { result: 'error', 'error-type': 'unknown-path' });
  });
}
