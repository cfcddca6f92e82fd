// PUT admin/referrals/settings.
import type { ReferralSettingsInput } from '@schemas/referrals';
import { client, read } from '@/lib/api';

export const saveReferralSettings = (input: ReferralSettingsInput) => read(client.admin.referrals.settings.$put({ json: input }));
