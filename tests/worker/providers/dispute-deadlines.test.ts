// A dispute's deadline for the shop's answer, as each provider states it: Paystack's dispute object says
// `dueAt` (its webhook samples), Flutterwave's v3 chargeback object `due_date`. A deadline that cannot be
// read is null, and never refuses the event: the money still moves and the dispute is still shown.
import { describe, expect, it } from 'vitest';
import { createFlutterwave } from '../../../worker/providers/payments/flutterwave';
import { readDeadline, readFlutterwaveReversal, readPaystackReversal } from '../../../worker/providers/payments/reversals';

const paystackDispute = {
  id: 358950,
  refund_amount: 5800,
  currency: 'NGN',
  status: 'awaiting-merchant-feedback',
  resolution: null,
  domain: 'live',
  transaction: { id: 896467688, domain: 'live', status: 'success', reference: 'v3mjfgbnc19v97x', amount: 5800, currency: 'NGN' },
  transaction_reference: null,
  category: 'chargeback',
  bin: '123456',
  last4: '1234',
  dueAt: '2020-11-25T18:00:00.000Z',
  resolvedAt: null,
  created_at: '2020-11-24T13:46:57.000Z',
};

const flutterwaveChargeback = {
  id: 2221,
  amount: 3000,
  flw_ref: '0550726510071683619721660',
  status: 'initiated',
  stage: 'new',
  comment: 'Product/service not received',
  due_date: '2024-08-03T15:59:59.000Z',
  settlement_id: 'N/A',
  created_at: '2024-08-01T16:58:20.000Z',
  transaction_id: 674630970,
};

const UNREADABLE = [
  undefined,
  null,
  '',
  '   ',
  'soon',
  'N/A',
  42,
  {},
  '2024-02-30T10:00:00Z',
  '2024-13-01',
  '2024-08-03T25:00:00Z',
  '1970-01-01T00:00:00Z',
  '20240803',
];

describe('reading a deadline', () => {
  it('reads ISO dates and times, with or without a zone (UTC when none), and the first candidate that reads', () => {
    expect(readDeadline('2020-11-25T18:00:00.000Z')).toEqual(new Date('2020-11-25T18:00:00.000Z'));
    expect(readDeadline('2024-08-03T15:59:59+01:00')).toEqual(new Date('2024-08-03T14:59:59.000Z'));
    expect(readDeadline('2024-08-03T15:59:59+0100')).toEqual(new Date('2024-08-03T14:59:59.000Z'));
    expect(readDeadline('2024-08-03 15:59:59')).toEqual(new Date('2024-08-03T15:59:59.000Z'));
    expect(readDeadline('2024-08-03T15:59')).toEqual(new Date('2024-08-03T15:59:00.000Z'));
    expect(readDeadline(' 2024-08-03 ')).toEqual(new Date('2024-08-03T00:00:00.000Z'));
    expect(readDeadline('2024-08-03T15:59:59.123456Z')).toEqual(new Date('2024-08-03T15:59:59.123Z'));
    expect(readDeadline('garbled', '2024-08-03T15:59:59Z')).toEqual(new Date('2024-08-03T15:59:59.000Z'));
  });

  it('is null for anything else, never an error', () => {
    for (const value of UNREADABLE) expect(readDeadline(value), String(value)).toBeNull();
    expect(readDeadline()).toBeNull();
  });
});

describe("Paystack's dispute deadline", () => {
  it('is read from dueAt on every dispute event, and from due_at should Paystack spell it so', () => {
    for (const event of ['charge.dispute.create', 'charge.dispute.remind']) {
      expect(readPaystackReversal(event, paystackDispute)).toMatchObject({ read: { state: 'open', dueAt: new Date('2020-11-25T18:00:00.000Z') } });
    }
    expect(readPaystackReversal('charge.dispute.resolve', { ...paystackDispute, status: 'resolved', resolution: 'declined' })).toMatchObject({
      read: { state: 'won', dueAt: new Date('2020-11-25T18:00:00.000Z') },
    });
    const { dueAt: _, ...snake } = paystackDispute;
    expect(readPaystackReversal('charge.dispute.create', { ...snake, due_at: '2020-11-26T09:00:00.000Z' })).toMatchObject({
      read: { dueAt: new Date('2020-11-26T09:00:00.000Z') },
    });
  });

  it('is null when missing or unreadable, and the dispute is read all the same', () => {
    const { dueAt: _, ...without } = paystackDispute;
    expect(readPaystackReversal('charge.dispute.create', without)).toMatchObject({ read: { key: 'dispute:358950', amountKobo: 5800n, dueAt: null } });
    for (const dueAt of UNREADABLE) {
      expect(readPaystackReversal('charge.dispute.create', { ...paystackDispute, dueAt }), String(dueAt)).toMatchObject({
        read: { key: 'dispute:358950', state: 'open', dueAt: null },
      });
    }
  });

  it('is no part of a refund', () => {
    const refund = { status: 'processed', transaction_reference: 'dep-1', refund_reference: 'r-1', amount: '5000', currency: 'NGN' };
    const reading = readPaystackReversal('refund.processed', { ...refund, dueAt: '2020-11-25T18:00:00.000Z' });
    expect(reading && 'read' in reading && 'dueAt' in reading.read).toBe(false);
  });
});

describe("Flutterwave's chargeback deadline", () => {
  it('is read from due_date, and null when missing or unreadable without refusing the chargeback', () => {
    expect(readFlutterwaveReversal('chargeback.created', flutterwaveChargeback)).toMatchObject({
      read: { key: 'chargeback:2221', state: 'open', dueAt: new Date('2024-08-03T15:59:59.000Z') },
    });
    const { due_date: _, ...without } = flutterwaveChargeback;
    expect(readFlutterwaveReversal('chargeback.created', without)).toMatchObject({ read: { key: 'chargeback:2221', dueAt: null } });
    for (const due_date of UNREADABLE) {
      expect(readFlutterwaveReversal('chargeback.updated', { ...flutterwaveChargeback, due_date }), String(due_date)).toMatchObject({
        read: { key: 'chargeback:2221', state: 'open', dueAt: null },
      });
    }
  });

  it('reaches the reversal the adapter hands on, beside the payment it names', async () => {
    const flutterwave = createFlutterwave({
      secretKey: 'FLWSECK_TEST-abc',
      webhookSecretHash: 'my-secret-hash',
      fetchImpl: async () =>
        new Response(
          JSON.stringify({ status: 'success', message: 'Transaction fetched successfully', data: { id: 674630970, tx_ref: 'dep-9', currency: 'NGN' } }),
        ),
    });
    const body = JSON.stringify({ event: 'chargeback.created', data: flutterwaveChargeback });
    const event = await flutterwave.parseWebhook(new TextEncoder().encode(body).buffer as ArrayBuffer, new Headers({ 'verif-hash': 'my-secret-hash' }));
    expect(event).toMatchObject({
      event: 'chargeback.created',
      reference: 'dep-9',
      reversal: { kind: 'dispute', key: 'chargeback:2221', reference: 'dep-9', currency: 'NGN', dueAt: new Date('2024-08-03T15:59:59.000Z') },
    });
  });
});
