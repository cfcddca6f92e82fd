// Administrators' referral calls: admin/referrals (list, void) and admin/referrals/settings.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReferralSettingsInput } from '@schemas/referrals';
import { api } from '@/lib/api';

interface Person {
  id: number;
  fullName: string;
  email: string;
}

export interface AdminReferral {
  referrer: Person;
  referred: Person;
  createdAt: string;
  commissions: number;
  /** Naira, 2 decimals. */
  paid: string;
  voidedAt: string | null;
  voidReason: string | null;
}

export const referralAdminKeys = {
  all: ['admin', 'referrals'] as const,
  list: (page: number) => ['admin', 'referrals', 'list', page] as const,
  settings: ['admin', 'referrals', 'settings'] as const,
};

export function useAdminReferrals(page: number, limit: number) {
  return useQuery({
    queryKey: referralAdminKeys.list(page),
    queryFn: ({ signal }) => api.get<{ data: AdminReferral[]; page: number; limit: number; total: number }>('admin/referrals', { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useReferralSettings() {
  return useQuery({
    queryKey: referralAdminKeys.settings,
    queryFn: ({ signal }) => api.get<{ data: ReferralSettingsInput }>('admin/referrals/settings', { signal }),
    select: (r) => r.data,
  });
}

export const saveReferralSettings = (input: ReferralSettingsInput) => api.put<{ message: string; data: ReferralSettingsInput }>('admin/referrals/settings', input);

export const voidReferral = (referredUserId: number, reason: string) =>
  api.post<{ message: string; data: { voided: boolean } }>(`admin/referrals/${referredUserId}/void`, { reason });
