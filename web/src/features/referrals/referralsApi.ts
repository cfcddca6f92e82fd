// GET user/referrals: the user's referral link, the commission rule and what the link earned.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export interface ReferralSummary {
  enabled: boolean;
  ratePercent: string;
  code: string;
  link: string;
  signUps: number;
  depositsCredited: number;
  /** Naira, 2 decimals. */
  earnings: string;
  referred: Array<{ username: string; joinedAt: string; voided: boolean; deposits: number; earned: string }>;
}

export function useReferralSummary() {
  return useQuery({
    queryKey: ['referrals', 'summary'],
    queryFn: ({ signal }) => api.get<{ data: ReferralSummary }>('user/referrals', { signal }),
    select: (r) => r.data,
  });
}
