// An order in the reseller protocol's words, as `status` answers it and the order.status webhook sends it.
import type { orders } from '../../../drizzle/schema';
import type { OrderStatus } from '../../../vocabulary';
import { koboToNaira } from '../../lib/decimal';

export const CURRENCY = 'NGN';

export type ProtocolStatus = Exclude<OrderStatus, 'Pending Submission'>;

/**
 * The protocol has six words; tools switch on them. An order not yet at our provider ('Pending Submission' in the SPA,
 * for about a second, or longer while the provider refuses or its submission is unknown) is Pending to them.
 */
export const protocolStatus = (status: OrderStatus): ProtocolStatus => (status === 'Pending Submission' ? 'Pending' : status);

type Order = Pick<typeof orders.$inferSelect, 'chargeKobo' | 'refundedKobo' | 'startCount' | 'remains' | 'deliverable' | 'status'>;

/** Net charge, the protocol's status word, counts as text. */
export function protocolOrderFields(order: Order) {
  // Until the provider reports progress nothing is delivered; a completion without figures delivered everything.
  const remains = order.remains ?? (order.status === 'Completed' ? 0 : order.deliverable);
  return {
    charge: koboToNaira(order.chargeKobo - order.refundedKobo),
    start_count: String(order.startCount ?? 0),
    status: protocolStatus(order.status),
    remains: String(remains),
    currency: CURRENCY,
  };
}
