// POST admin/tickets/{id}/messages: support's reply (it opens a closed ticket again).
import { client, read } from '@/lib/api';
import { asStaffView } from './get-admin-ticket';

export const replyAsSupport = (id: number, message: string) =>
  asStaffView(read(client.admin.tickets[':id'].messages.$post({ param: { id: String(id) }, json: { message } })));
