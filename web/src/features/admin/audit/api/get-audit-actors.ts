// GET admin/audit/actors: the people the log can be filtered by, named (administrators, and former ones with entries).
import { useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type AuditActor = InferResponseType<typeof client.admin.audit.actors.$get, 200>['data'][number];

export const getAuditActors = async (signal?: AbortSignal) => (await read(client.admin.audit.actors.$get(undefined, { init: { signal } }))).data;

export const useAuditActors = () => useQuery({ ...adminQuery(['audit-actors'], getAuditActors), staleTime: 60_000 });
