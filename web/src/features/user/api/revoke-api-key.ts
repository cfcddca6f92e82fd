// DELETE user/api-keys/:id.
import { client, read } from '@/lib/api';

export const revokeApiKey = (id: number) => read(client.user['api-keys'][':id'].$delete({ param: { id: String(id) } }));
