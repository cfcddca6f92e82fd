// The refund and dispute webhooks as the providers document them (Paystack's samples from its
// webhooks page; Flutterwave's v3 refund and chargeback objects) read into one reversal shape, and
// what cannot be read said plainly instead of guessed.
import { describe, expect, it } from 'vitest';
import { readFlutterwaveReversal, readPaystackReversal } from '../../../worker/providers/payments/reversals';

const paystackTransaction = { id: 896467688, domain: 'live', status: 'success', reference: 'v3mjfgbnc19v97x', amount: 5800, currency: 'NGN', channel: 'card' };
const paystackDispute = {
  id: 358950,
  refund_amount: 5800,
  currency: 'NGN',
  status: 'awaiting-merchant-feedback',
  resolution: null,
  domain: 'live',
  transaction: paystackTransaction,
  transaction_reference: null,
  category: 'chargeback',
  bin: '123456',
  last4: '1234',
};

describe('Paystack refund and dispute webhooks', () => {
  it('reads refund.processed: the transaction by our reference, the amount as a string of kobo', () => {
    const data = {
      status: 'processed',
      transaction_reference: 'T2154954_412829_3be32076_6lcg3',
      refund_reference: '132013318360',
      amount: '5000',
      currency: 'NGN',
      processor: 'mpgs_zen',
      customer: { first_name: 'Damilola', last_name: 'Kwabena', email: 'damilola@email.com' },
      integration: 412829,
      domain: 'live',
    };
    expect(readPaystackReversal('refund.processed', data)).toEqual({
      read: {
        kind: 'refund',
        key: 'refund:T2154954_412829_3be32076_6lcg3:132013318360',
        reference: 'T2154954_412829_3be32076_6lcg3',
        amountKobo: 5000n,
        currency: 'NGN',
        state: 'taken',
        details: { event: 'refund.processed', refundReference: '132013318360', status: 'processed' },
      },
    });
  });

  it('reads a dispute opening, reminder and resolution as one dispute, by its id', () => {
    const opened = readPaystackReversal('charge.dispute.create', paystackDispute);
    expect(opened).toMatchObject({ read: { kind: 'dispute', key: 'dispute:358950', reference: 'v3mjfgbnc19v97x', amountKobo: 5800n, state: 'open' } });
    expect(readPaystackReversal('charge.dispute.remind', paystackDispute)).toMatchObject({ read: { key: 'dispute:358950', state: 'open' } });
    const resolved = (resolution: string) => readPaystackReversal('charge.dispute.resolve', { ...paystackDispute, status: 'resolved', resolution });
    expect(resolved('auto-accepted')).toMatchObject({ read: { key: 'dispute:358950', state: 'lost' } });
    expect(resolved('merchant-accepted')).toMatchObject({ read: { state: 'lost' } });
    expect(resolved('declined')).toMatchObject({ read: { state: 'won' } });
    expect(resolved('escalated')).toEqual({ unreadable: 'charge.dispute.resolve for v3mjfgbnc19v97x has a resolution we do not know: escalated' });
  });

  it('takes the whole transaction as disputed while Paystack states no amount', () => {
    expect(readPaystackReversal('charge.dispute.create', { ...paystackDispute, refund_amount: null })).toMatchObject({ read: { amountKobo: 5800n } });
    expect(readPaystackReversal('charge.dispute.create', { ...paystackDispute, refund_amount: 0 })).toMatchObject({ read: { amountKobo: 5800n } });
  });

  it('leaves other events alone and reports the ones it cannot read', () => {
    expect(readPaystackReversal('charge.success', { reference: 'x' })).toBeNull();
    expect(
      readPaystackReversal('refund.pending', { status: 'pending', transaction_reference: 'x', refund_reference: null, amount: '10000', currency: 'NGN' }),
    ).toBeNull();
    expect(
      readPaystackReversal('refund.processed', { status: 'processed', transaction_reference: 'dep-1', refund_reference: 'r', amount: '12.5', currency: 'NGN' }),
    ).toEqual({ unreadable: expect.stringMatching(/^refund\.processed about dep-1 could not be read \(amount: /) });
  });
});

describe('Flutterwave refund and chargeback webhooks', () => {
  it('reads refund.completed with its v3 refund object: the transaction by its id, naira to kobo', () => {
    const refund = {
      id: 75923,
      account_id: 73362,
      tx_id: 908790,
      flw_ref: 'URF_1577867664541_3572735',
      wallet_id: 74639,
      amount_refunded: 6900.5,
      status: 'completed',
      destination: 'payment_source',
      meta: { source: 'availablebalance' },
      created_at: '2021-01-24T09:18:37.000Z',
    };
    expect(readFlutterwaveReversal('refund.completed', refund)).toEqual({
      read: {
        kind: 'refund',
        key: 'refund:75923',
        reference: null,
        transactionId: '908790',
        amountKobo: 690_050n,
        state: 'taken',
        details: { event: 'refund.completed', refundId: '75923', status: 'completed' },
      },
    });
  });

  it('reads a chargeback through its statuses, by its id', () => {
    const chargeback = {
      id: 1130,
      amount: 10,
      flw_ref: 'FLW-MOCK-8bceeddd2eff1a28d10db65c54e5d858',
      status: 'initiated',
      stage: 'new',
      transaction_id: 1149153,
      settlement_id: 'N/A',
    };
    expect(readFlutterwaveReversal('chargeback.created', chargeback)).toMatchObject({
      read: { kind: 'dispute', key: 'chargeback:1130', transactionId: '1149153', amountKobo: 1000n, state: 'open' },
    });
    for (const [status, state] of [
      ['declined', 'open'],
      ['accepted', 'lost'],
      ['lost', 'lost'],
      ['won', 'won'],
    ]) {
      expect(readFlutterwaveReversal('chargeback.updated', { ...chargeback, status })).toMatchObject({ read: { key: 'chargeback:1130', state } });
    }
    expect(readFlutterwaveReversal('chargeback.updated', { ...chargeback, amount: 10.005 })).toEqual({
      unreadable: expect.stringMatching(/^chargeback\.updated about 1149153 could not be read/),
    });
    expect(readFlutterwaveReversal('charge.completed', { tx_ref: 'x' })).toBeNull();
  });
});
