// Administrators' orders: the filtered list, one order, the sync on demand, and the manual
// actions (resend, link, cancel through the provider, refund without it, status with automatic refund, refill).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validJson, validQuery } from '../../lib/validation';
import { listPage } from '../../schemas/common';
import {
  adminCancelSchema,
  adminLinkOrderSchema,
  adminOrderStatusSchema,
  adminOrdersQuerySchema,
  adminRefundWithoutProviderSchema,
  adminResendSchema,
} from '../../schemas/orders';
import {
  adminCancelOrder,
  adminListOrders,
  adminOrderDetail,
  adminRefillOrder,
  linkProviderOrder,
  refundWithoutProvider,
  resendOrder,
  setOrderStatus,
  syncOrders,
} from '../../services/orders';

export const adminOrderRoutes = new Hono<AppEnv>()
  .get('/', validQuery(adminOrdersQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Orders fetched successfully', query, await adminListOrders(c.var.db, query)));
  })
  .post('/sync', async (c) => c.json({ message: 'Orders synced', data: await syncOrders(c.var.db, c.env) }))
  .get('/:id', async (c) => c.json({ message: 'Order fetched successfully', data: await adminOrderDetail(c.var.db, pathId(c, 'order id')) }))
  .post('/:id/resend', validJson(adminResendSchema), async (c) => {
    const id = pathId(c, 'order id');
    const { confirmNotAtProvider } = c.req.valid('json');
    return c.json({ message: 'Order sent to the provider', data: await resendOrder(c.var.db, c.env, c.var.principal.id, id, confirmNotAtProvider) });
  })
  .post('/:id/link', validJson(adminLinkOrderSchema), async (c) => {
    const id = pathId(c, 'order id');
    const { providerOrderId } = c.req.valid('json');
    return c.json({ message: 'Order linked to the provider order', data: await linkProviderOrder(c.var.db, c.var.principal.id, id, providerOrderId) });
  })
  .post('/:id/cancel', validJson(adminCancelSchema), async (c) => {
    const id = pathId(c, 'order id');
    const input = c.req.valid('json');
    const { order, outcome } = await adminCancelOrder(c.var.db, c.env, c.var.principal.id, id, input);
    const message = outcome === 'refunded' ? 'Order canceled and refunded' : 'The provider was asked to cancel the order; the refund follows when it confirms';
    return c.json({ message, data: order, outcome });
  })
  .post('/:id/refund-without-provider', validJson(adminRefundWithoutProviderSchema), async (c) => {
    const id = pathId(c, 'order id');
    const input = c.req.valid('json');
    return c.json({ message: 'Order canceled and refunded without the provider', data: await refundWithoutProvider(c.var.db, c.var.principal.id, id, input) });
  })
  .post('/:id/status', validJson(adminOrderStatusSchema), async (c) => {
    const id = pathId(c, 'order id');
    const input = c.req.valid('json');
    return c.json({ message: 'Order status updated', data: await setOrderStatus(c.var.db, c.var.principal.id, id, input) });
  })
  .post('/:id/refill', async (c) =>
    c.json({ message: 'Refill requested', data: await adminRefillOrder(c.var.db, c.env, c.var.principal.id, pathId(c, 'order id')) }),
  );
