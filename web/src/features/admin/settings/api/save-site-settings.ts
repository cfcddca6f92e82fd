// PUT admin/settings/site.
import type { SiteSettings } from '@schemas/settings';
import { client, read } from '@/lib/api';

export const saveSiteSettings = (body: SiteSettings) => read(client.admin.settings.site.$put({ json: body }));
