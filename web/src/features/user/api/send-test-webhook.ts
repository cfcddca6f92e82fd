// POST user/webhooks/:id/test: a webhook.test delivery, queued at once; it shows in the delivery log like any other.
import { client, read } from '@/lib/api';

export const sendTestWebhook = (id: number) => read(client.user.webhooks[':id'].test.$post({ param: { id: String(id) } }));
