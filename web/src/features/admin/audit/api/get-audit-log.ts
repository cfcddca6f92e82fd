// GET admin/audit: who changed money, roles, orders, prices or settings, filtered by area and administrator.

import type { AuditQuery } from '@schemas/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys, asQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type AuditEntry = InferResponseType<typeof client.admin.audit.$get, 200>['data'][number];

export const getAuditLog = (q: AuditQuery, signal?: AbortSignal) => read(client.admin.audit.$get({ query: asQuery(q) }, { init: { signal } }));

export const auditLogQueryOptions = (q: AuditQuery) =>
  queryOptions({ queryKey: adminKeys.audit(q), queryFn: ({ signal }) => getAuditLog(q, signal), placeholderData: keepPreviousData });

export const useAuditLog = (q: AuditQuery) => useQuery(auditLogQueryOptions(q));
