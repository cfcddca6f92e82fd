// GET admin/referrals/settings: whether commissions are paid, how much of each deposit, how long each is held, and the cap per referred account.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { referralAdminKeys } from './keys';

export const getReferralSettings = async (signal?: AbortSignal) => (await read(client.admin.referrals.settings.$get(undefined, { init: { signal } }))).data;

export const referralSettingsQueryOptions = () => queryOptions({ queryKey: referralAdminKeys.settings, queryFn: ({ signal }) => getReferralSettings(signal) });

export const useReferralSettings = () => useQuery(referralSettingsQueryOptions());
