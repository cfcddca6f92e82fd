// GET admin/audit/{id}: one entry in full (a listed repricing carries only its first changes).
import { useQuery } from '@tanstack/react-query';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export const getAuditEntry = async (id: number, signal?: AbortSignal) =>
  (await read(client.admin.audit[':id'].$get({ param: { id: String(id) } }, { init: { signal } }))).data;

export const useAuditEntry = (id: number) => useQuery(adminQuery(['audit-entry', id], (signal) => getAuditEntry(id, signal)));
