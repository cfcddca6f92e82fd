// The refunds against what really happened, after the drain: the sandbox panel knows what it
// delivered. Each of the seed's orders the shop closed from the panel's own answers (at the panel,
// and no administrator set its status or refunded it by hand) must have closed with the undelivered
// part the panel reports for that order, however garbled its answers were on the way; refundOwed
// (checked with the rest of the books) turns that into the refund.
// An order whose panel id names an order for another link was given that id by the panel itself
// (it sometimes answers `add` with the id of the order before): the shop cannot tell, so such orders
// are counted, not failed.

import { providerLinkOf, seedUserIds } from './targets';
import type { Sim } from './world';

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
