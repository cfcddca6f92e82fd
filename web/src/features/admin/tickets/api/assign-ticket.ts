// POST admin/tickets/{id}/assign: the administrator takes the ticket.
import { client, read } from '@/lib/api';
import { asStaffView } from './get-admin-ticket';

export const assignToMe = (id: number) => asStaffView(read(client.admin.tickets[':id'].assign.$post({ param: { id: String(id) } })));
