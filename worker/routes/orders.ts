// A user's orders, under user/ as the SPA calls them: place (with Idempotency-Key), list, one,
// refill, cancel, and the mass order.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../context';
import { jsonBody, parseWith, queryOf } from '../lib/validation';
import type { Db } from '../db';
import { requireUser, userSession, type Principal, type UserSession } from '../middleware/auth';
import { idParam } from '../schemas/common';
import { createOrderSchema, idempotencyKeySchema, listOrdersQuerySchema, massOrderSchema } from '../schemas/orders';
import { orderableServiceQuery, recentlyReadService, rememberServices, serviceIdOf } from '../services/order-plan';
import { placeMassOrder, placeOrder } from '../services/order-placing';
import { getOrderView, listUserOrders } from '../services/order-views';
import { cancelOrder, requestRefill } from '../services/orders';

const idempotencyKey = (c: Context<AppEnv>) => parseWith(idempotencyKeySchema, c.req.header('idempotency-key'));
const orderId = (c: Context<AppEnv>) => parseWith(idParam('order id'), c.req.param('id'));

/**
 * The session check, with the ordered service read in the same batch when this isolate has no recent
 * copy of it: either way one round trip, and placing the order is then its one statement.
 */
async function admitOrdering(session: UserSession, db: Db, serviceId: number | null): Promise<Principal> {
  if (serviceId === null || recentlyReadService(serviceId) !== undefined) return session.admit();
  const { principal, read } = await session.admitWith(orderableServiceQuery(db, serviceId));
  rememberServices(read);
  return principal;
}

export const orderRoutes = new Hono<AppEnv>()
  .post('/orders', async (c) => {
    const session = await userSession(c);
    const key = idempotencyKey(c);
    const input = await jsonBody(c, createOrderSchema);
    const principal = await admitOrdering(session, c.var.db, serviceIdOf(input.serviceId));
    const { order, created } = await placeOrder(c.var.db, c.env, principal.id, input, key);
    return c.json({ message: 'Order placed successfully', data: order }, created ? 201 : 200);
  })
  .get('/orders', requireUser, async (c) => {
    const query = queryOf(c, listOrdersQuerySchema);
    const { data, total } = await listUserOrders(c.var.db, c.var.principal.id, query);
    return c.json({ message: 'Orders fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .get('/orders/:id', requireUser, async (c) => c.json({ message: 'Order fetched successfully', data: await getOrderView(c.var.db, c.var.principal.id, orderId(c)) }))
  .post('/orders/:id/refill', requireUser, async (c) => {
    const id = orderId(c);
    const refill = await requestRefill(c.var.db, c.env, id, { userId: c.var.principal.id, actorId: c.var.principal.id });
    return c.json({ message: 'Refill requested', data: { ...refill, order: await getOrderView(c.var.db, c.var.principal.id, id) } });
  })
  .post('/orders/:id/cancel', requireUser, async (c) => {
    const id = orderId(c);
    const { refunded } = await cancelOrder(c.var.db, c.env, c.var.principal.id, id);
    return c.json({
      message: refunded ? 'Order canceled and refunded' : 'Cancellation requested; the refund follows when the provider confirms it',
      data: await getOrderView(c.var.db, c.var.principal.id, id),
    });
  })
  .post('/mass-order', requireUser, async (c) => {
    const key = idempotencyKey(c);
    const { orders, expectedTotal } = await jsonBody(c, massOrderSchema);
    const results = await placeMassOrder(c.var.db, c.env, c.var.principal.id, orders, { idempotencyKey: key, expectedTotal });
    const placed = results.filter((result) => result.ok).length;
    return c.json({ message: `${placed} of ${results.length} orders placed`, results });
  });
