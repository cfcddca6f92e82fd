// Starts the local fakes of every outside service together (Paystack, the SMM
// panel, the exchange-rate service), for `npm start` and the test harness.

import { startFakePaystack } from './paystack';
import { startFakeRates } from './rates';
import { startFakeSmmProvider } from './smm-provider';

export { startFakePaystack } from './paystack';
export { startFakeRates } from './rates';
export { startFakeSmmProvider } from './smm-provider';
export type { RunningFake } from './http';

export interface FakesOptions {
  paystackPort?: number;
  smmPort?: number;
  ratesPort?: number;
  paystackSecretKey: string;
  smmApiKey: string;
  /** The app's Paystack webhook endpoint; null or absent keeps webhooks in GET /__webhooks only. */
  webhookUrl?: string | null;
  /** Paystack's dashboard callback URL, used when a transaction is initialized without callback_url. */
  appUrl?: string;
  /** SMM order progress step in ms (an order finishes after 3 steps). */
  smmStepMs?: number;
}

export interface RunningFakes {
  paystackUrl: string;
  /** The panel's API endpoint (…/api/v2), what the SMM client is configured with. */
  smmApiUrl: string;
  /** The panel's base URL, for its /__control, /__orders and /__reset endpoints. */
  smmProviderUrl: string;
  ratesUrl: string;
  close(): Promise<void>;
}

export async function startFakes(options: FakesOptions): Promise<RunningFakes> {
  const started = await Promise.allSettled([
    startFakePaystack({
      secretKey: options.paystackSecretKey,
      port: options.paystackPort,
      webhookUrl: options.webhookUrl ?? null,
      defaultCallbackUrl: options.appUrl ?? null,
    }),
    startFakeSmmProvider({ apiKey: options.smmApiKey, port: options.smmPort, stepMs: options.smmStepMs }),
    startFakeRates({ port: options.ratesPort }),
  ]);
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    // Do not leave half the fakes listening when one port was taken.
    await Promise.all(running.map((fake) => fake.close()));
    throw failure.reason;
  }
  const [paystack, smm, rates] = running;
  return {
    paystackUrl: paystack.url,
    smmApiUrl: `${smm.url}/api/v2`,
    smmProviderUrl: smm.url,
    ratesUrl: rates.url,
    close: async () => {
      await Promise.all(running.map((fake) => fake.close()));
    },
  };
}
