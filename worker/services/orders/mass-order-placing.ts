// Placing a batch of orders (POST user/mass-order): each line is placed as a single order would
// be, and a total the customer saw holds for the whole batch, so it is agreed before any line is
// charged.
import { and, eq, inArray } from 'drizzle-orm';
import { orders } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { formatNaira, koboToNaira, nairaToKobo } from '../../lib/decimal';
import { AppError, invalid } from '../../lib/errors';
import { type MassOrderLine, parseMassOrderLines, SERVICE_UNAVAILABLE } from '../../schemas/orders';
import { createPaidOrder, PriceChanged } from './order-placing';
import { massLineChargeKobo, readOrderableServices, serviceIdOf } from './order-plan';
import { queueSubmissions } from './order-submissions';
import type { OrderEnv } from './orders';

export interface MassOrderResult {
  line: number;
  ok: boolean;
  orderId?: number;
  error?: string;
}

/** How each line of a batch is charged once its total is agreed: its charge, or null when its service was not on sale. */
type AgreedCharges = Map<number, bigint | null>;

/**
 * The batch's total at today's prices: massLineChargeKobo of each line whose service is on sale,
 * or for a line its Idempotency-Key placed earlier, what that order was charged. A total other
 * than the one the customer saw is refused (409, with the total now) before anything is placed.
 */
async function agreeTotal(
  db: Db,
  userId: number,
  lines: MassOrderLine[],
  lineKey: (line: number) => string | undefined,
  shownKobo: bigint,
): Promise<AgreedCharges> {
  const keys = lines.map((line) => lineKey(line.line)).filter((key) => key !== undefined);
  const [placedEarlier, onSale] = await Promise.all([
    keys.length === 0
      ? []
      : db
          .select({ key: orders.idempotencyKey, chargeKobo: orders.chargeKobo })
          .from(orders)
          .where(and(eq(orders.userId, userId), inArray(orders.idempotencyKey, keys))),
    readOrderableServices(
      db,
      lines.map((line) => serviceIdOf(line.serviceId)).filter((id) => id !== null),
    ),
  ]);
  const earlierCharges = new Map(placedEarlier.map((row) => [row.key, row.chargeKobo]));
  const agreed: AgreedCharges = new Map();
  let totalKobo = 0n;
  for (const line of lines) {
    const key = lineKey(line.line);
    const id = serviceIdOf(line.serviceId);
    const service = id === null ? undefined : onSale.get(id);
    const chargeKobo = (key === undefined ? undefined : earlierCharges.get(key)) ?? (service ? massLineChargeKobo(service, line.quantity) : null);
    // A type whose fields a line cannot give counts 0 in the total: planOrder refuses it, and if an
    // administrator changed the type meanwhile, it is refused as a price change, never charged unagreed.
    if (chargeKobo === null && service) {
      agreed.set(line.line, 0n);
      continue;
    }
    agreed.set(line.line, chargeKobo);
    totalKobo += chargeKobo ?? 0n;
  }
  if (totalKobo !== shownKobo) {
    throw new PriceChanged(
      `The total changed from ${formatNaira(shownKobo)} to ${formatNaira(totalKobo)}. Check the new prices and confirm to place the orders.`,
      {
        total: koboToNaira(totalKobo),
      },
    );
  }
  return agreed;
}

/**
 * POST user/mass-order: every line is charged in order (earlier lines get the balance first) and
 * answered on its own; the accepted ones then go on the submissions queue together. With an
 * idempotency key, line n uses "<key>:<n>", so a retried batch places nothing twice. With the
 * total the customer saw, the batch is placed only if it still costs that, and each line only at
 * the charge counted in it.
 */
export async function placeMassOrder(
  db: Db,
  env: OrderEnv,
  userId: number,
  text: string,
  options: { idempotencyKey?: string; expectedTotal?: string } = {},
): Promise<MassOrderResult[]> {
  const results: MassOrderResult[] = [];
  const toSubmit: number[] = [];
  const lines = parseMassOrderLines(text);
  const lineKey = (line: number) => (options.idempotencyKey ? `${options.idempotencyKey}:${line}` : undefined);
  const agreed =
    options.expectedTotal === undefined
      ? undefined
      : await agreeTotal(
          db,
          userId,
          lines.filter((line) => !line.error),
          lineKey,
          nairaToKobo(options.expectedTotal),
        );
  for (const line of lines) {
    if (line.error) {
      results.push({ line: line.line, ok: false, error: line.error });
      continue;
    }
    try {
      const agreedKobo = agreed?.get(line.line);
      // Its service was not on sale when the total was agreed: placing it now would charge more than the total.
      if (agreedKobo === null) throw invalid(SERVICE_UNAVAILABLE);
      const input = { serviceId: line.serviceId, link: line.link, quantity: line.quantity };
      const paid = await createPaidOrder(db, userId, input, { idempotencyKey: lineKey(line.line), expectedChargeKobo: agreedKobo });
      if (paid.created) toSubmit.push(paid.id);
      results.push({ line: line.line, ok: true, orderId: paid.id });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ line: line.line, ok: false, error: error.message });
    }
  }
  await queueSubmissions(env, toSubmit);
  return results;
}
