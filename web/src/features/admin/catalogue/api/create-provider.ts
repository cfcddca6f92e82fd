// POST admin/providers: adds an upstream provider (its API key is write-only).
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type NewProvider = InferRequestType<typeof client.admin.providers.$post>['json'];

export const createProvider = (provider: NewProvider) => read(client.admin.providers.$post({ json: provider }));
