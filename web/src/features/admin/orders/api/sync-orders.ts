// POST admin/orders/sync: the scheduled order sync, run now.
import { client, read } from '@/lib/api';

export const syncOrdersNow = () => read(client.admin.orders.sync.$post());
