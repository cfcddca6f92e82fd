// Issue 25's "one state per payment" against this file's copy of the sandbox Flutterwave: a referred payer's
// deposit earns its referrer a commission, then Flutterwave refunds it, raises a chargeback, or both, and every
// order in which the webhooks can arrive (each once and then again, or all at once, each twice) ends in the same
// state: the payer's wallet gives up min(payment, what the refunds and the chargebacks still open or lost claim),
// the commission follows in the same proportion, what was spent is owed, and the books hold no credit the shop
// did not keep (reversal-fixtures.ts holds the rule and the checks). The shop's provider setting stays Paystack
// (other files take deposits meanwhile): the payment services are driven with Flutterwave's deployment keys,
// the webhooks through handlePaymentWebhook, each delivery on a database connection of its own.
import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { paymentIntents } from '../../../drizzle/schema';
import { koboToNaira } from '../../../worker/lib/decimal';
import { paymentGateway } from '../../../worker/services/money/payment-gateway';
import { handlePaymentWebhook } from '../../../worker/services/money/payments';
import { withDb } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { expectEveryOrderToAgree, type Hook, type ReversalDriver, SCENARIOS, withCommissionsReleasedAtOnce } from '../fixtures/reversal-fixtures';
import { fakeScope } from '../providers/fake-scope';

const flutterwave = fakeScope(inject('flutterwaveUrl'));
const bindings = {
  ...env,
  FLUTTERWAVE_BASE_URL: flutterwave.url,
  FLUTTERWAVE_SECRET_KEY: TEST_SECRETS.FLUTTERWAVE_SECRET_KEY,
  FLUTTERWAVE_SECRET_HASH: TEST_SECRETS.FLUTTERWAVE_SECRET_HASH,
};

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const webhookTo = (db: Parameters<typeof handlePaymentWebhook>[0], hook: Hook) =>
  handlePaymentWebhook(db, bindings, 'flutterwave', bytes(hook.body), new Headers({ 'verif-hash': hook.signature }));
const naira = (kobo: bigint | undefined) => (kobo === undefined ? undefined : koboToNaira(kobo));

const flutterwaveDriver: ReversalDriver = {
  async creditedDeposit(payer, amountKobo) {
    // As startDeposit records and starts one, with Flutterwave whatever the shop's chosen provider.
    const reference = `dep-${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
    await withDb((db) => db.insert(paymentIntents).values({ reference, userId: payer.id, provider: 'flutterwave', amountKobo }));
    const { provider } = await withDb((db) => paymentGateway(db, bindings, 'flutterwave'));
    const { checkoutUrl } = await provider.initialize({
      reference,
      amountKobo,
      email: payer.email,
      currency: 'NGN',
      callbackUrl: `${env.APP_URL}/user/confirm-payment`,
      metadata: { userId: String(payer.id) },
    });
    await (await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' })).arrayBuffer();
    const { webhooks } = (await flutterwave.get('/__webhooks')) as { webhooks: Array<Hook & { event: string; reference: string }> };
    const credit = webhooks.find((hook) => hook.reference === reference && hook.event === 'charge.completed');
    expect(credit, `charge.completed for ${reference}`).toBeDefined();
    // Its webhook credits the deposit while commissions are released at once.
    expect(await withCommissionsReleasedAtOnce((tx) => webhookTo(tx, credit!))).toBe('processed');
    return reference;
  },

  async makeEvents(reference, events) {
    const hooks: Hook[] = [];
    let chargebackId: number | undefined;
    for (const step of events) {
      if (step.event === 'refund') {
        hooks.push((await flutterwave.post('/__refund', { tx_ref: reference, amount: naira(step.amountKobo) })).webhook);
      } else if (step.event === 'dispute') {
        const raised = await flutterwave.post('/__chargeback', { tx_ref: reference, amount: naira(step.amountKobo) });
        chargebackId = raised.chargeback.id;
        hooks.push(raised.webhook);
      } else {
        const status = step.outcome === 'won' ? 'won' : step.acceptedKobo ? 'accepted' : 'lost';
        hooks.push((await flutterwave.post('/__chargeback/resolve', { id: chargebackId, status, amount: naira(step.acceptedKobo) })).webhook);
      }
    }
    return hooks;
  },

  async deliver(hook) {
    expect(await withDb((db) => webhookTo(db, hook))).toBe('processed');
  },
};

// Each test runs its scenario's every order twice over, each run on a fresh deposit, four at a time.
const RUNS_TIMEOUT = 240_000;

describe('Flutterwave: every order of a deposit’s refunds and chargebacks ends in one state, its credit equal to the money kept', () => {
  for (const scenario of Object.values(SCENARIOS)) it(scenario.name, () => expectEveryOrderToAgree(flutterwaveDriver, scenario), RUNS_TIMEOUT);
});

describe('the sandbox Flutterwave’s chargebacks', () => {
  it('end for less as the chargeback object’s amount, never for more than was charged back, and a refund goes through while one is open', async () => {
    const payer = { id: 0, email: 'sandbox@example.com' };
    const { provider } = await withDb((db) => paymentGateway(db, bindings, 'flutterwave'));
    const reference = `dep-${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const { checkoutUrl } = await provider.initialize({ reference, amountKobo: 500_000n, email: payer.email, currency: 'NGN', callbackUrl: env.APP_URL });
    await (await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' })).arrayBuffer();
    const raised = await flutterwave.post('/__chargeback', { tx_ref: reference, amount: '3000' });
    const refunded = await flutterwave.post('/__refund', { tx_ref: reference });
    expect(JSON.parse(refunded.webhook.body).data.amount_refunded).toBe(5000);
    await expect(flutterwave.post('/__chargeback/resolve', { id: raised.chargeback.id, status: 'accepted', amount: '3000.01' })).rejects.toThrow(
      'amount cannot be more than the chargeback amount',
    );
    await expect(flutterwave.post('/__chargeback/resolve', { id: raised.chargeback.id, status: 'won', amount: '1200' })).rejects.toThrow(
      'amount is only for a chargeback lost or accepted',
    );
    const { webhook } = await flutterwave.post('/__chargeback/resolve', { id: raised.chargeback.id, status: 'accepted', amount: '1200' });
    expect(JSON.parse(webhook.body)).toMatchObject({ event: 'chargeback.updated', data: { id: raised.chargeback.id, amount: 1200, status: 'accepted' } });
  });
});
