// POST user/webhooks: a new endpoint; its signing secret arrives only in this answer.
import type { CreateWebhookInput } from '@schemas/webhooks';
import { client, read } from '@/lib/api';

export const createWebhook = (input: CreateWebhookInput) => read(client.user.webhooks.$post({ json: input }));
/** An endpoint just made, with its signing secret: shown once. */
export type NewWebhook = Awaited<ReturnType<typeof createWebhook>>['data'];
