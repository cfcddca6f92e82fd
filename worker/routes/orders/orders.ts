// A user's orders, under user/ as the SPA calls them: place (with Idempotency-Key), list, one,
// refill, cancel, and the mass order.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { z } from 'zod';
import type { AppEnv } from '../../context';
import { parseWith, pathId, validJson, validQuery } from '../../lib/validation';
import { deferSessionCheck, requireUser } from '../../middleware/auth';
import { listPage } from '../../schemas/common';
import { createOrderSchema, idempotencyKeySchema, listOrdersQuerySchema, massOrderSchema } from '../../schemas/orders';
import { cancelOrder, getOrderView, listUserOrders, placeMassOrder, placeOrder, requestRefill } from '../../services/orders';

/** The Idempotency-Key header, checked before the body is read. */
const idempotencyKey = createMiddleware<{ Variables: { idempotencyKey: z.output<typeof idempotencyKeySchema> } }>(async (c, next) => {
  c.set('idempotencyKey', parseWith(idempotencyKeySchema, c.req.header('idempotency-key')));
  await next();
});
export const orderRoutes = new Hono<AppEnv>()
  .post('/orders', deferSessionCheck, idempotencyKey, validJson(createOrderSchema), async (c) => {
    // The placing statement checks the session itself: with the service as this isolate last read it, one round trip.
    const { session } = c.var;
    const { order, created } = await placeOrder(c.var.db, c.env, session.userId, c.req.valid('json'), {
      idempotencyKey: c.var.idempotencyKey,
      admission: session,
    });
    return c.json({ message: 'Order placed successfully', data: order }, created ? 201 : 200);
  })
  .get('/orders', requireUser, validQuery(listOrdersQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Orders fetched successfully', query, await listUserOrders(c.var.db, c.var.principal.id, query)));
  })
  .get('/orders/:id', requireUser, async (c) =>
    c.json({ message: 'Order fetched successfully', data: await getOrderView(c.var.db, c.var.principal.id, pathId(c, 'order id')) }),
  )
  .post('/orders/:id/refill', requireUser, async (c) => {
    const id = pathId(c, 'order id');
    const refill = await requestRefill(c.var.db, c.env, id, { userId: c.var.principal.id, actorId: c.var.principal.id });
    return c.json({ message: 'Refill requested', data: { ...refill, order: await getOrderView(c.var.db, c.var.principal.id, id) } });
  })
  .post('/orders/:id/cancel', requireUser, async (c) => {
    const id = pathId(c, 'order id');
    const { refunded } = await cancelOrder(c.var.db, c.env, c.var.principal.id, id);
    return c.json({
      message: refunded ? 'Order canceled and refunded' : 'Cancellation requested; the refund follows when the provider confirms it',
      data: await getOrderView(c.var.db, c.var.principal.id, id),
    });
  })
  .post('/mass-order', requireUser, idempotencyKey, validJson(massOrderSchema), async (c) => {
    const { orders, expectedTotal } = c.req.valid('json');
    const results = await placeMassOrder(c.var.db, c.env, c.var.principal.id, orders, { idempotencyKey: c.var.idempotencyKey, expectedTotal });
    const placed = results.filter((result) => result.ok).length;
    return c.json({ message: `${placed} of ${results.length} orders placed`, results });
  });
