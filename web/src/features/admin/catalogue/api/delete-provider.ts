// DELETE admin/providers/:id: refused (409) while the provider has services; those are switched off instead.
import { client, read } from '@/lib/api';

export const deleteProvider = (providerId: number) => read(client.admin.providers[':id'].$delete({ param: { id: String(providerId) } }));
