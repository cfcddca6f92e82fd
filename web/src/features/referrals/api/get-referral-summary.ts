// GET user/referrals: the user's referral link, the commission rule and what the link earned.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getReferralSummary = (signal?: AbortSignal) => read(client.user.referrals.$get(undefined, { init: { signal } }));
export type ReferralSummary = Awaited<ReturnType<typeof getReferralSummary>>['data'];

export const referralSummaryQuery = queryOptions({
  queryKey: ['referrals', 'summary'],
  queryFn: async ({ signal }) => (await getReferralSummary(signal)).data,
});

export const useReferralSummary = () => useQuery(referralSummaryQuery);
