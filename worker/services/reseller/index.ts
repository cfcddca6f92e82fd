// The reseller API (/api/v2): the SMM panel protocol spoken by reseller tools, over the orders, catalogue and money domains,
// and the signed webhooks that tell resellers' endpoints what changed. The rest of the Worker calls what is exported here.
export { answerResellerCall, OrderedAnswer, type ResellerParams, refusalText } from './reseller-api';
export { consumeWebhookDeliveries, dispatchWebhooks } from './webhook-deliveries';
export { createWebhook, deleteWebhook, listWebhooks, sendTestWebhook } from './webhooks';
