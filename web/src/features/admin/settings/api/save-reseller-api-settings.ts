// PUT admin/settings/reseller-api.
import type { ResellerApiSettings } from '@schemas/settings';
import { client, read } from '@/lib/api';

export const saveResellerApiSettings = (body: ResellerApiSettings) => read(client.admin.settings['reseller-api'].$put({ json: body }));
