// POST admin/services/warnings/:id/acknowledge: marks a warning as read.
import { client, read } from '@/lib/api';

export const acknowledgeWarning = (warningId: number) => read(client.admin.services.warnings[':id'].acknowledge.$post({ param: { id: String(warningId) } }));
