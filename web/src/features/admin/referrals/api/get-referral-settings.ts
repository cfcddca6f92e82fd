// GET admin/referrals/settings: whether commissions are paid, and how much of each deposit.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { referralAdminKeys } from './keys';

export const getReferralSettings = async (signal?: AbortSignal) => (await read(client.admin.referrals.settings.$get(undefined, { init: { signal } }))).data;

export const referralSettingsQueryOptions = () => queryOptions({ queryKey: referralAdminKeys.settings, queryFn: ({ signal }) => getReferralSettings(signal) });

export const useReferralSettings = () => useQuery(referralSettingsQueryOptions());
