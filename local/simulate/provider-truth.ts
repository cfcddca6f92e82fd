// What the outside world holds, read from the sandboxes' own records.
//
// Payments: each refund and dispute the simulator makes at the sandbox Paystack or Flutterwave answers
// the signed webhook the provider sent (or holds) about it; those records are the provider's account of
// the payment. From them: what each reversal claims (a refund its amount, a dispute open or lost its
// amount, a lost one the accepted amount, a won one nothing; Flutterwave's "declined", contested by the
// merchant, is still open), and what the shop kept of the payment: paid − min(paid, Σ claims), never
// below 0. After the drain, every reversal event of the seed's payments in the providers' own logs
// (GET /__webhooks) must be one the simulator knows, byte for byte, and the other way round.
//
// Orders: the refunds against what really happened, after the drain: the sandbox panel knows what it
// delivered. Each of the seed's orders the shop closed from the panel's own answers (at the panel,
// and no administrator set its status or refunded it by hand) must have closed with the undelivered
// part the panel reports for that order, however garbled its answers were on the way; refundOwed
// (checked with the rest of the books) turns that into the refund.
// An order whose panel id names an order for another link was given that id by the panel itself
// (it sometimes answers `add` with the id of the order before): the shop cannot tell, so such orders
// are counted, not failed.

import { nairaToKobo } from '../../worker/lib/decimal';
import { providerLinkOf, seedUserIds } from './targets';
import type { PaymentProviderName, Sim, SimDeposit, SimReversalEvent, World } from './world';

// ---------------------------------------------------------------- payments

/** A webhook as the payment fakes record it (local/fakes/webhooks.ts). */
export interface ProviderWebhook {
  id: number;
  event: string;
  reference: string;
  body: string;
  signature: string;
  deliveries: Array<{ at: string; status: number | null; error: string | null }>;
}

const PAYSTACK_RESOLUTIONS: Record<string, 'won' | 'lost'> = {
  declined: 'won',
  'auto-declined': 'won',
  'merchant-accepted': 'lost',
  'auto-accepted': 'lost',
};
const FLUTTERWAVE_STATES: Record<string, 'open' | 'won' | 'lost'> = {
  initiated: 'open',
  pending: 'open',
  declined: 'open',
  won: 'won',
  lost: 'lost',
  accepted: 'lost',
};
export const REVERSAL_EVENTS = new Set([
  'refund.processed',
  'charge.dispute.create',
  'charge.dispute.resolve',
  'refund.completed',
  'chargeback.created',
  'chargeback.updated',
]);

const nairaKobo = (amount: unknown) => Number(nairaToKobo(String(amount)));

/** What a provider's refund or dispute webhook says, read from its exact bytes. */
export function readReversalEvent(provider: PaymentProviderName, record: ProviderWebhook): Omit<SimReversalEvent, 'delivery'> {
  const { event, data } = JSON.parse(record.body) as { event: string; data: Record<string, unknown> };
  const base = { provider, reference: record.reference, record: { id: record.id, event: record.event, body: record.body, signature: record.signature } };
  switch (event) {
    case 'refund.processed':
      return { ...base, kind: 'refund', key: `refund:${record.id}`, state: 'taken', amountKobo: Number(data.amount) };
    case 'charge.dispute.create':
    case 'charge.dispute.resolve': {
      const state = event === 'charge.dispute.create' ? 'open' : PAYSTACK_RESOLUTIONS[String(data.resolution)];
      if (!state) throw new Error(`the sandbox Paystack resolved dispute ${data.id} as ${String(data.resolution)}, which the simulator does not know`);
      return { ...base, kind: 'dispute', key: `dispute:${data.id}`, state, amountKobo: Number(data.refund_amount) };
    }
    case 'refund.completed':
      return { ...base, kind: 'refund', key: `refund:${data.id}`, state: 'taken', amountKobo: nairaKobo(data.amount_refunded) };
    case 'chargeback.created':
    case 'chargeback.updated': {
      const state = FLUTTERWAVE_STATES[String(data.status).toLowerCase()];
      if (!state) throw new Error(`the sandbox Flutterwave set chargeback ${data.id} to ${String(data.status)}, which the simulator does not know`);
      return { ...base, kind: 'dispute', key: `chargeback:${data.id}`, state, amountKobo: nairaKobo(data.amount) };
    }
    default:
      throw new Error(`${provider} sent ${event}, not a refund or dispute event`);
  }
}

/**
 * What `events` (of one payment) claim of it together: each reversal by its latest event in the provider's
 * order (a refund its amount, a dispute open or lost its amount, won nothing), never more than the payment.
 */
export function claimedBy(amountKobo: number, events: readonly SimReversalEvent[]): number {
  const latest = new Map<string, SimReversalEvent>();
  for (const event of events) {
    const seen = latest.get(event.key);
    if (!seen || seen.record.id < event.record.id) latest.set(event.key, event);
  }
  let claims = 0;
  for (const event of latest.values()) if (event.state !== 'won') claims += event.amountKobo;
  return Math.min(amountKobo, claims);
}

export const eventsOf = (world: World, deposit: SimDeposit) =>
  world.reversalEvents.filter((event) => event.provider === deposit.provider && event.reference === deposit.reference);

/** What the shop kept of a paid deposit by what its provider says: paid − refunded − disputed (open or lost), never below 0. */
export function keptByProvider(world: World, deposit: SimDeposit): number {
  return deposit.amountKobo - claimedBy(deposit.amountKobo, eventsOf(world, deposit));
}

/**
 * Whether the provider itself now calls the payment reversed (the sandbox Paystack does once its refunds and
 * accepted disputes reach the whole amount; its verify then answers "reversed", which no shop credits).
 * Flutterwave keeps calling a refunded transaction successful.
 */
export function reversedInFullAtProvider(world: World, deposit: SimDeposit): boolean {
  if (deposit.provider !== 'paystack') return false;
  let reversed = 0;
  const latest = new Map<string, SimReversalEvent>();
  for (const event of eventsOf(world, deposit)) {
    const seen = latest.get(event.key);
    if (!seen || seen.record.id < event.record.id) latest.set(event.key, event);
  }
  for (const event of latest.values()) if (event.state === 'taken' || event.state === 'lost') reversed += event.amountKobo;
  return reversed >= deposit.amountKobo;
}

/** The provider's whole webhook log (root scope): what it sent, with how each delivery went. */
export async function providerWebhooks(sim: Sim, provider: PaymentProviderName): Promise<ProviderWebhook[]> {
  const url = provider === 'paystack' ? sim.stack.paystackUrl : sim.stack.flutterwaveUrl;
  const response = await fetch(`${url}/__webhooks`);
  if (!response.ok) throw new Error(`${provider}'s /__webhooks answered ${response.status}`);
  return ((await response.json()) as { webhooks: ProviderWebhook[] }).webhooks;
}

/** After the drain: the providers' own logs and the simulator's record of the seed's refunds and disputes are the same events. */
export async function checkAgainstPaymentProviders(sim: Sim): Promise<string[]> {
  const problems: string[] = [];
  for (const provider of ['paystack', 'flutterwave'] as const) {
    const ours = new Set(sim.world.deposits.filter((deposit) => deposit.provider === provider).map((deposit) => deposit.reference));
    const known = new Map(sim.world.reversalEvents.filter((event) => event.provider === provider).map((event) => [event.record.id, event]));
    const logged = (await providerWebhooks(sim, provider)).filter((record) => REVERSAL_EVENTS.has(record.event) && ours.has(record.reference));
    for (const record of logged) {
      const event = known.get(record.id);
      if (!event) problems.push(`${provider} sent ${record.event} #${record.id} about ${record.reference}, which the simulator never saw`);
      else if (event.record.body !== record.body || event.record.signature !== record.signature)
        problems.push(`${provider}'s ${record.event} #${record.id} about ${record.reference} is not what it answered the simulator`);
      known.delete(record.id);
    }
    for (const event of known.values()) problems.push(`${provider} has no ${event.record.event} #${event.record.id} about ${event.reference} in its log`);
  }
  return problems;
}

// ---------------------------------------------------------------- the panel

interface PanelOrder {
  id: number;
  link: string;
  type: string;
  status: string;
  remains: number;
  pinned: boolean;
}

const FINAL_AT_PANEL = /^(completed|partial|canceled|expired)$/i;

export interface TruthCheck {
  problems: string[];
  /** Orders the panel tied to another order's id (its mixed-up `add` answers). */
  mixedUp: number;
  compared: number;
}

export async function checkAgainstPanel(sim: Sim): Promise<TruthCheck> {
  const { orders: panelOrders } = (await (await fetch(`${sim.stack.smmProviderUrl}/__orders`)).json()) as { orders: PanelOrder[] };
  const panel = new Map(panelOrders.map((order) => [String(order.id), order]));
  const { rows } = await sim.pg.query<{
    id: number;
    status: string;
    remains: number | null;
    link: string;
    extras: Record<string, unknown>;
    provider_order_id: string;
  }>(
    `
    select o.id, o.status, o.remains, o.link, o.extras, o.provider_order_id
    from orders o
    where o.user_id = any($1::int[]) and o.submission = 'accepted' and o.status in ('Completed', 'Partial', 'Canceled')
      and not exists (select 1 from audit_log a where a.target_type = 'order' and a.target_id = o.id::text
        and a.action in ('order.status', 'order.refund_without_provider'))
    order by o.id`,
    [seedUserIds(sim)],
  );
  const result: TruthCheck = { problems: [], mixedUp: 0, compared: 0 };
  for (const order of rows) {
    const truth = panel.get(order.provider_order_id);
    if (!truth) {
      result.problems.push(`order ${order.id} closed ${order.status} from panel order ${order.provider_order_id}, which the panel does not have`);
      continue;
    }
    const link = providerLinkOf(order);
    const panelLink = truth.type === 'Subscriptions' ? `username:${truth.link}` : truth.link;
    if (panelLink !== link) {
      result.mixedUp += 1;
      continue;
    }
    if (truth.pinned || !FINAL_AT_PANEL.test(truth.status)) {
      result.problems.push(`order ${order.id} closed ${order.status}, yet its panel order ${truth.id} is still ${truth.status}`);
      continue;
    }
    result.compared += 1;
    const undelivered = Math.max(truth.remains, 0);
    if (order.remains !== undelivered) {
      result.problems.push(
        `order ${order.id} closed ${order.status} with ${order.remains} undelivered; its panel order ${truth.id} ended ${truth.status} with ${undelivered} undelivered`,
      );
    }
  }
  return result;
}
