// POST user/api-keys/:id/rotate: the key's new secret, which only this answer carries; the old one stops working.
import { client, read } from '@/lib/api';

export const rotateApiKey = (id: number) => read(client.user['api-keys'][':id'].rotate.$post({ param: { id: String(id) } }));
