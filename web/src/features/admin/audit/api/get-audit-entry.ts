// GET admin/audit/{id}: one entry in full (a listed repricing carries only its first changes).
import { client, read } from '@/lib/api';

export const getAuditEntry = async (id: number) => (await read(client.admin.audit[':id'].$get({ param: { id: String(id) } }))).data;
