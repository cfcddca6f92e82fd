// POST user/api-keys: a new key; its secret arrives only in this answer.
import { client, read } from '@/lib/api';

export const createApiKey = (name: string) => read(client.user['api-keys'].$post({ json: { name } }));
/** A key just made or rotated, with its secret: shown once. */
export type NewApiKey = Awaited<ReturnType<typeof createApiKey>>['data'];
