// An administrator's order operations: cancel (asking the provider first), refund without the
// provider, a status set by hand after reading the order, and settling an order whose submission is
// unknown by looking it up in the provider's panel (the sandbox's): linking what is there, or
// refunding without the provider what is not.
// 400 and 409 are legitimate answers to all of them: the order may have moved since it was read.
import { said } from './http';
import { runCron } from './ops-chaos';
import { pickOrder, providerLinkOf, type TargetOrder } from './targets';
import { expect, type Sim, takeHangUp, tally } from './world';

/** The status the administrator saw, sent mostly (a change to an order that moved since answers 409), sometimes left out. */
const asSeen = (sim: Sim, status: string) => (sim.rng.chance(0.8) ? { expectedStatus: status } : {});

export async function adminCancel(sim: Sim, target?: TargetOrder): Promise<string> {
  const order = target ?? (await pickOrder(sim, sim.rng.chance(0.85) ? 'open' : 'any'));
  if (!order) return 'admin cancel: no order yet';
  tally(sim, 'admin cancel');
  const answer = await sim.admin.api(`admin/orders/${order.id}/cancel`, {
    body: { reason: 'simulated customer request', ...asSeen(sim, order.status) },
    abortAfterMs: takeHangUp(sim),
  });
  expect(sim, 'POST admin/orders/:id/cancel', answer, [200, 400, 409, 502, 503]);
  const detail = answer.kind === 'answered' ? (answer.body?.providerCancel ?? answer.body?.message ?? '') : '';
  return `admin cancel of order ${order.id} (${order.status}, ${order.submission}): ${said(answer)} ${String(detail).slice(0, 80)}`;
}

export async function adminRefundWithoutProvider(sim: Sim, target?: TargetOrder): Promise<string> {
  const order = target ?? (await pickOrder(sim, sim.rng.chance(0.8) ? 'open' : 'any'));
  if (!order) return 'admin refund without provider: no order yet';
  tally(sim, 'admin refund without provider');
  const answer = await sim.admin.api(`admin/orders/${order.id}/refund-without-provider`, {
    body: { reason: 'the provider lost it', ...asSeen(sim, order.status) },
    abortAfterMs: takeHangUp(sim),
  });
  expect(sim, 'POST admin/orders/:id/refund-without-provider', answer, [200, 400, 409]);
  return `admin refund without provider of order ${order.id} (${order.status}, ${order.submission}): ${said(answer)}`;
}

const STATUSES = ['Completed', 'Partial', 'Canceled', 'In progress', 'Pending', 'Processing'] as const;

export async function adminSetStatus(sim: Sim, target?: TargetOrder): Promise<string> {
  const { rng } = sim;
  const order = target ?? (await pickOrder(sim, rng.chance(0.7) ? 'at provider' : rng.chance(0.7) ? 'open' : 'any'));
  if (!order) return 'admin status: no order yet';
  tally(sim, 'admin status');
  // An administrator reads the order, then decides: meanwhile the sync may move it.
  const read = await sim.admin.api(`admin/orders/${order.id}`);
  if (read.kind !== 'answered' || read.status !== 200) {
    expect(sim, 'GET admin/orders/:id', read, [200]);
    return `admin status of order ${order.id}: reading it ${said(read)}`;
  }
  const status = rng.weighted<(typeof STATUSES)[number]>({ Completed: 3, Partial: 3, Canceled: 3, 'In progress': 1, Pending: 1, Processing: 1 });
  const body: Record<string, unknown> = { status, reason: 'checked in the provider panel' };
  const { deliverable } = read.body.data as { deliverable: number };
  // Now and then more than the order had, which the rule refuses (400).
  if (status === 'Partial') body.remains = rng.chance(0.1) ? deliverable + rng.int(1, 10) : rng.int(0, deliverable);
  Object.assign(body, asSeen(sim, read.body.data.status));
  // Sometimes the cron runs while the administrator decides.
  const meanwhile = rng.chance(0.3) ? await runCron(sim) : null;
  const answer = await sim.admin.api(`admin/orders/${order.id}/status`, { body, abortAfterMs: takeHangUp(sim) });
  expect(sim, 'POST admin/orders/:id/status', answer, [200, 400, 409]);
  const message = answer.kind === 'answered' && answer.status !== 200 ? ` (${String(answer.body?.message).slice(0, 80)})` : '';
  return `admin status of order ${order.id} ${read.body.data.status} → ${status}${body.remains !== undefined ? ` remains ${body.remains}` : ''}${meanwhile ? ' (a sync ran meanwhile)' : ''}: ${said(answer)}${message}`;
}

/** An order whose submission is unknown: the administrator looks for its link in the provider's panel and links what is there, or cancels. */
export async function adminSettleUnknown(sim: Sim): Promise<string> {
  const order = await pickOrder(sim, 'unknown');
  if (!order) return 'admin settles unknown submission: none';
  tally(sim, 'admin settles unknown');
  const link = providerLinkOf(order);
  const panel = (await (await fetch(`${sim.stack.smmProviderUrl}/__adds?links=${encodeURIComponent(link)}`)).json()) as { orders: Array<{ id: number }> };
  if (panel.orders.length === 1) {
    const answer = await sim.admin.api(`admin/orders/${order.id}/link`, {
      body: { providerOrderId: String(panel.orders[0].id) },
      abortAfterMs: takeHangUp(sim),
    });
    // 409: the panel answered this id to another order's `add` too (it mixes its answers up sometimes).
    expect(sim, 'POST admin/orders/:id/link', answer, [200, 400, 409]);
    return `admin links order ${order.id} to panel order ${panel.orders[0].id}: ${said(answer)}`;
  }
  if (panel.orders.length === 0) {
    // Not resent: a resend calls `add` again for the link, which the add-once check would count.
    const answer = await sim.admin.api(`admin/orders/${order.id}/refund-without-provider`, {
      body: { reason: 'not in the provider panel', expectedStatus: order.status },
      abortAfterMs: takeHangUp(sim),
    });
    expect(sim, 'POST admin/orders/:id/refund-without-provider', answer, [200, 400, 409]);
    return `admin refunds order ${order.id}, which the panel does not have, without the provider: ${said(answer)}`;
  }
  return `admin leaves order ${order.id}: the panel has ${panel.orders.length} orders for its link`;
}
