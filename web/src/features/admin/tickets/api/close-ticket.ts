// POST admin/tickets/{id}/close.
import { client, read } from '@/lib/api';
import { asStaffView } from './get-admin-ticket';

export const closeTicket = (id: number) => asStaffView(read(client.admin.tickets[':id'].close.$post({ param: { id: String(id) } })));
