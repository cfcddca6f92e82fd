// What one provider answer means for its order (readAnswer), case by case, without a database.
import { describe, expect, it } from 'vitest';
import type { SmmStatusEntry } from '../../../worker/providers/smm/types';
import { readAnswer } from '../../../worker/services/orders/order-status-sync';

const order = { chargeKobo: 224_789n, quantity: 1000, deliverable: 1000, extras: { quantity: 1000 } };
const state = (fields: Partial<Extract<SmmStatusEntry, { ok: true }>>): SmmStatusEntry => ({
  ok: true,
  chargeMicros: 1_450_000n,
  startCount: 100,
  status: 'In progress',
  remains: 400,
  currency: 'USD',
  ...fields,
});

describe('reading one answer', () => {
  it("leaves an order its batch got no answer for to the provider's health, and notes what the provider said about it", () => {
    expect(readAnswer(order, { ok: false, error: 'HTTP 502', unanswered: true }, 'USD')).toEqual({ kind: 'unanswered' });
    expect(readAnswer(order, { ok: false, error: 'Incorrect order ID' }, 'USD')).toEqual({ kind: 'unclear', note: 'provider said: Incorrect order ID' });
    expect(readAnswer(order, state({ status: null, unreadable: { status: 'Fail?' } }), 'USD')).toEqual({
      kind: 'unclear',
      note: 'provider said: status "Fail?"',
    });
  });

  it("moves an open order, keeping remains it can trust and the charge only in the provider's currency", () => {
    expect(readAnswer(order, state({}), 'USD')).toEqual({ kind: 'move', status: 'In progress', startCount: 100, remains: 400, chargeMicros: 1_450_000n });
    expect(readAnswer(order, state({ remains: 4000, currency: 'EUR' }), 'USD')).toEqual({
      kind: 'move',
      status: 'In progress',
      startCount: 100,
      remains: null,
      chargeMicros: null,
    });
    expect(readAnswer(order, state({ remains: -3, currency: '' }), 'USD')).toMatchObject({ remains: 0, chargeMicros: 1_450_000n });
  });

  it('closes with the delivery the rule reads, or notes why it cannot', () => {
    const closing = readAnswer(order, state({ status: 'Partial', remains: 250, chargeMicros: 1_087_500n }), 'USD');
    expect(closing).toMatchObject({ kind: 'close', closing: { status: 'Partial', remains: 250, startCount: 100, set: { providerChargeMicros: 1_087_500n } } });
    // A garbled start count says nothing of delivery; a garbled remains does.
    expect(
      readAnswer(order, state({ status: 'Canceled', remains: null, chargeMicros: null, startCount: null, unreadable: { start_count: 'x' } }), 'USD'),
    ).toMatchObject({ kind: 'close', closing: { status: 'Canceled' } });
    expect(readAnswer(order, state({ status: 'Canceled', remains: null, chargeMicros: null, unreadable: { remains: 'N/A' } }), 'USD')).toEqual({
      kind: 'unclear',
      note: 'provider said: canceled, with remains "N/A"',
    });
  });
});
