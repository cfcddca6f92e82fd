// PUT admin/settings/security.
import type { SecuritySettings } from '@schemas/settings';
import { client, read } from '@/lib/api';

export const saveSecuritySettings = (body: SecuritySettings) => read(client.admin.settings.security.$put({ json: body }));
