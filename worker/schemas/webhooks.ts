// The user calls that manage reseller webhooks (user/webhooks), shared with the API page's form.
import { WEBHOOK_EVENTS } from '../../vocabulary';
import { trimmedText } from './common';
import { z } from './zod';

export const WEBHOOK_URL_MAX = 500;

/** POST user/webhooks: where to post, and which events. Whether the address may receive them is the service's call (it knows the environment). */
export const createWebhookSchema = z.object({
  url: trimmedText({ required: 'Webhook URL is required', max: WEBHOOK_URL_MAX, tooLong: `Webhook URL must be at most ${WEBHOOK_URL_MAX} characters` }),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: `Events must be among ${WEBHOOK_EVENTS.join(', ')}` }), { error: 'Choose at least one event' })
    .min(1, { error: 'Choose at least one event' })
    .transform((events) => [...new Set(events)]),
});
export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;
