// Issue 25's "one state per payment" against the sandbox Paystack, its webhooks delivered through the Worker: a
// referred payer's deposit (started and confirmed by the services add-fund and verify-payment call) earns its referrer
// a commission, then Paystack refunds it, disputes it, or both, and every order in which the webhooks can arrive
// (each once and then again, or all at once, each twice) ends in the same state:
// the payer's wallet gives up min(payment, what the refunds and the disputes still open or lost claim), the
// commission follows in the same proportion, what was spent is owed, and the books hold no credit the shop did
// not keep (reversal-fixtures.ts holds the rule and the checks). Paystack's sandbox lets a refund through while
// a dispute is open, and a merchant accept a dispute for less (charge.dispute.resolve's refund_amount).
import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import { koboToNaira } from '../../../worker/lib/decimal';
import { startDeposit } from '../../../worker/services/money/payments';
import { call, registerAndLogin, withDb } from '../../support/api';
import { verifyAsPayer } from '../fixtures/payment-fixtures';
import { deliverPaystackHook, paystackFake } from '../fixtures/paystack-fixtures';
import { expectEveryOrderToAgree, type Hook, type ReversalDriver, SCENARIOS, withCommissionsReleasedAtOnce } from '../fixtures/reversal-fixtures';

const kobo = (amount: bigint | undefined) => (amount === undefined ? undefined : Number(amount));

const paystack: ReversalDriver = {
  async creditedDeposit(payer, amountKobo) {
    // As add-fund starts it (the payer's sign-in left out: each run's password hashes are most of its time).
    const { reference } = await withDb((db) => startDeposit(db, env, payer, koboToNaira(amountKobo)));
    await paystackFake('/__complete', { reference, outcome: 'success' });
    // The return page's verification, while commissions are released at once.
    expect(await withCommissionsReleasedAtOnce((tx) => verifyAsPayer(tx, env, payer.id, { reference }))).toBe(2);
    return reference;
  },

  async makeEvents(reference, events) {
    const hooks: Hook[] = [];
    let disputeId: number | undefined;
    for (const step of events) {
      if (step.event === 'refund') {
        hooks.push((await paystackFake('/__refund', { reference, amount: kobo(step.amountKobo) })).webhook);
      } else if (step.event === 'dispute') {
        const opened = await paystackFake('/__dispute', { reference, amount: kobo(step.amountKobo) });
        disputeId = opened.dispute.id;
        hooks.push(opened.webhook);
      } else {
        const resolution = step.outcome === 'won' ? 'declined' : step.acceptedKobo ? 'merchant-accepted' : 'auto-accepted';
        hooks.push((await paystackFake('/__dispute/resolve', { id: disputeId, resolution, refund_amount: kobo(step.acceptedKobo) })).webhook);
      }
    }
    return hooks;
  },

  async deliver(hook) {
    expect(await deliverPaystackHook(hook)).toBe('Webhook processed');
  },
};

// Each test runs its scenario's every order twice over, each run on a fresh deposit, four at a time.
const RUNS_TIMEOUT = 240_000;

describe('Paystack: every order of a deposit’s refunds and disputes ends in one state, its credit equal to the money kept', () => {
  for (const scenario of Object.values(SCENARIOS)) it(scenario.name, () => expectEveryOrderToAgree(paystack, scenario), RUNS_TIMEOUT);
});

describe('the sandbox Paystack’s disputes', () => {
  it('accept a dispute for less as Paystack reports it (refund_amount), never for more than was disputed, and refund while one is open', async () => {
    const payer = await registerAndLogin();
    const started = await call('user/add-fund', { token: payer.accessToken, body: { amount: 5000 } });
    const reference = started.body.reference as string;
    await paystackFake('/__complete', { reference, outcome: 'success' });
    const opened = await paystackFake('/__dispute', { reference, amount: 300_000 });
    // Open, the dispute holds nothing back: a refund of the whole transaction still goes through.
    const refunded = await paystackFake('/__refund', { reference });
    expect(JSON.parse(refunded.webhook.body).data.amount).toBe('500000');

    const tooMuch = await fetch(`${inject('paystackUrl')}/__dispute/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: opened.dispute.id, resolution: 'merchant-accepted', refund_amount: 300_001 }),
    });
    expect(tooMuch.status).toBe(400);
    expect(await tooMuch.json()).toEqual({ error: 'refund_amount cannot be more than the disputed amount' });

    const { webhook } = await paystackFake('/__dispute/resolve', { id: opened.dispute.id, resolution: 'merchant-accepted', refund_amount: '120000' });
    expect(JSON.parse(webhook.body)).toMatchObject({
      event: 'charge.dispute.resolve',
      data: { refund_amount: 120_000, resolution: 'merchant-accepted', status: 'resolved', transaction: { reference, amount: 500_000 } },
    });
  });
});
