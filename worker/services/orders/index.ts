// Orders, from the charge to the last refund: placing (one or a batch), sending through the submissions queue, reading statuses
// from providers, refills and cancels, closing with the refund owed, and the views of orders. The rest of the Worker calls what is exported here.
// The administrators' order tools, whole.
export * from './admin-orders';
export { placeMassOrder } from './mass-order-placing';
export { IDEMPOTENCY_KEY_REUSED, placeOrder } from './order-placing';
export { orderableServiceQuery, recentlyReadService, rememberServices, serviceIdOf } from './order-plan';
export { type FinalStatus, refundOwed } from './order-refunds';
export { AT_PROVIDER_OPEN, NEEDS_ATTENTION_AFTER } from './order-status-sync';
export { consumeSubmissions } from './order-submissions';
export { runSmmSync, syncOrders } from './order-sync';
export { committedKobo, getOrderRows, getOrderView, listUserOrders, type OrderViewRow, ordersForUserDetail, pendingRequestOf } from './order-views';
export { cancelOrder, type OrderEnv, requestRefill } from './orders';
export { receiveProviderWebhook } from './provider-webhooks';
