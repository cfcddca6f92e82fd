// Administrators' orders: the filtered list, one order, the sync on demand, and the manual
// actions (resend, link, cancel through the provider, refund without it, status with automatic refund, refill).
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { jsonBody, parseWith, queryOf } from '../../lib/validation';
import { idParam } from '../../schemas/common';
import {
  adminCancelSchema, adminLinkOrderSchema, adminOrdersQuerySchema, adminOrderStatusSchema, adminRefundWithoutProviderSchema, adminResendSchema,
} from '../../schemas/orders';
import {
  adminCancelOrder, adminListOrders, adminOrderDetail, adminRefillOrder, linkProviderOrder, refundWithoutProvider, resendOrder, setOrderStatus,
} from '../../services/admin-orders';
import { syncOrders } from '../../services/order-sync';

const orderId = (c: Context<AppEnv>) => parseWith(idParam('order id'), c.req.param('id'));

export const adminOrderRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const query = queryOf(c, adminOrdersQuerySchema);
    const { data, total } = await adminListOrders(c.var.db, query);
    return c.json({ message: 'Orders fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .post('/sync', async (c) => c.json({ message: 'Orders synced', data: await syncOrders(c.var.db, c.env) }))
  .get('/:id', async (c) => c.json({ message: 'Order fetched successfully', data: await adminOrderDetail(c.var.db, orderId(c)) }))
  .post('/:id/resend', async (c) => {
    const id = orderId(c);
    const { confirmNotAtProvider } = await jsonBody(c, adminResendSchema);
    return c.json({ message: 'Order sent to the provider', data: await resendOrder(c.var.db, c.env, c.var.principal.id, id, confirmNotAtProvider) });
  })
  .post('/:id/link', async (c) => {
    const id = orderId(c);
    const { providerOrderId } = await jsonBody(c, adminLinkOrderSchema);
    return c.json({ message: 'Order linked to the provider order', data: await linkProviderOrder(c.var.db, c.var.principal.id, id, providerOrderId) });
  })
  .post('/:id/cancel', async (c) => {
    const id = orderId(c);
    const input = await jsonBody(c, adminCancelSchema);
    const { order, outcome } = await adminCancelOrder(c.var.db, c.env, c.var.principal.id, id, input);
    const message = outcome === 'refunded' ? 'Order canceled and refunded' : 'The provider was asked to cancel the order; the refund follows when it confirms';
    return c.json({ message, data: order, outcome });
  })
  .post('/:id/refund-without-provider', async (c) => {
    const id = orderId(c);
    const input = await jsonBody(c, adminRefundWithoutProviderSchema);
    return c.json({ message: 'Order canceled and refunded without the provider', data: await refundWithoutProvider(c.var.db, c.var.principal.id, id, input) });
  })
  .post('/:id/status', async (c) => {
    const id = orderId(c);
    const input = await jsonBody(c, adminOrderStatusSchema);
    return c.json({ message: 'Order status updated', data: await setOrderStatus(c.var.db, c.var.principal.id, id, input) });
  })
  .post('/:id/refill', async (c) => c.json({ message: 'Refill requested', data: await adminRefillOrder(c.var.db, c.env, c.var.principal.id, orderId(c)) }));
