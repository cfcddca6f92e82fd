// Starts the local fakes of every outside service together (Paystack, Flutterwave,
// the SMM panel, the exchange-rate service, the email API) and the webhook receiver a reseller would run,
// for `npm start` and the test harness.

import { startFakeFlutterwave } from './flutterwave';
import { startFakeMailbox } from './mailbox';
import { startFakePaystack } from './paystack';
import { startFakeRates } from './rates';
import type { FaultPreset } from './smm-faults';
import { startFakeSmmProvider } from './smm-provider';
import { startFakeWebhookReceiver } from './webhook-receiver';

export { startFakeFlutterwave } from './flutterwave';
export type { RunningFake } from './http';
export { startFakeMailbox } from './mailbox';
export { startFakePaystack } from './paystack';
export { startFakeRates } from './rates';
export { startFakeSmmProvider } from './smm-provider';
export { startFakeWebhookReceiver, type WebhookDelivery } from './webhook-receiver';

export interface FakesOptions {
  paystackPort?: number;
  smmPort?: number;
  ratesPort?: number;
  flutterwavePort?: number;
  mailPort?: number;
  webhookReceiverPort?: number;
  paystackSecretKey: string;
  /** A live Paystack key the fake also accepts (its transactions are on the live domain). */
  paystackLiveSecretKey?: string;
  flutterwaveSecretKey: string;
  flutterwaveLiveSecretKey?: string;
  /** The webhook secret hash Flutterwave sends in verif-hash. */
  flutterwaveSecretHash: string;
  /** The key the email API accepts. */
  emailApiKey: string;
  smmApiKey: string;
  /** The app's Paystack webhook endpoint; null or absent keeps webhooks in GET /__webhooks only. */
  webhookUrl?: string | null;
  /** The app's Flutterwave webhook endpoint, likewise. */
  flutterwaveWebhookUrl?: string | null;
  /** Print every email the mailbox receives (npm start). */
  echoEmails?: boolean;
  /** Print every webhook the receiver gets (npm start). */
  echoWebhooks?: boolean;
  /** Paystack's dashboard callback URL, used when a transaction is initialized without callback_url. */
  appUrl?: string;
  /** SMM order progress step in ms (an order finishes after 3 steps). */
  smmStepMs?: number;
  /** 'rough' starts the SMM panel misbehaving as real panels do, at low rates (see smm-faults.ts); 'calm' by default. */
  smmMode?: FaultPreset;
}

export interface RunningFakes {
  paystackUrl: string;
  /** The panel's API endpoint (…/api/v2), what the SMM client is configured with. */
  smmApiUrl: string;
  /** The panel's base URL, for its /__control, /__orders and /__reset endpoints. */
  smmProviderUrl: string;
  ratesUrl: string;
  flutterwaveUrl: string;
  /** The email API's endpoint (…/emails), what EMAIL_API_URL is set to. */
  emailApiUrl: string;
  /** The mailbox's base URL, for GET /__messages?to=<address>. */
  mailboxUrl: string;
  /** The webhook receiver's base URL: point webhooks at any path under it; GET /__deliveries?path=<path> lists them. */
  webhookReceiverUrl: string;
  close(): Promise<void>;
}

export async function startFakes(options: FakesOptions): Promise<RunningFakes> {
  const started = await Promise.allSettled([
    startFakePaystack({
      secretKey: options.paystackSecretKey,
      liveSecretKey: options.paystackLiveSecretKey,
      port: options.paystackPort,
      webhookUrl: options.webhookUrl ?? null,
      defaultCallbackUrl: options.appUrl ?? null,
    }),
    startFakeSmmProvider({ apiKey: options.smmApiKey, port: options.smmPort, stepMs: options.smmStepMs, preset: options.smmMode }),
    startFakeRates({ port: options.ratesPort }),
    startFakeFlutterwave({
      secretKey: options.flutterwaveSecretKey,
      liveSecretKey: options.flutterwaveLiveSecretKey,
      secretHash: options.flutterwaveSecretHash,
      port: options.flutterwavePort,
      webhookUrl: options.flutterwaveWebhookUrl ?? null,
    }),
    startFakeMailbox({ apiKey: options.emailApiKey, port: options.mailPort, echo: options.echoEmails }),
    startFakeWebhookReceiver({ port: options.webhookReceiverPort, echo: options.echoWebhooks }),
  ]);
  const running = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    // Do not leave half the fakes listening when one port was taken.
    await Promise.all(running.map((fake) => fake.close()));
    throw failure.reason;
  }
  const [paystack, smm, rates, flutterwave, mailbox, webhookReceiver] = running;
  return {
    paystackUrl: paystack.url,
    smmApiUrl: `${smm.url}/api/v2`,
    smmProviderUrl: smm.url,
    ratesUrl: rates.url,
    flutterwaveUrl: flutterwave.url,
    emailApiUrl: `${mailbox.url}/emails`,
    mailboxUrl: mailbox.url,
    webhookReceiverUrl: webhookReceiver.url,
    close: async () => {
      await Promise.all(running.map((fake) => fake.close()));
    },
  };
}
