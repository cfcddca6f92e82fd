// DELETE user/webhooks/:id: the endpoint and its delivery log go; deliveries still being retried stop.
import { client, read } from '@/lib/api';

export const deleteWebhook = (id: number) => read(client.user.webhooks[':id'].$delete({ param: { id: String(id) } }));
