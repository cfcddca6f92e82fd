// The user's personal account number for bank transfers (user/dedicated-account).
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export interface DedicatedAccount {
  status: 'pending' | 'active' | 'failed';
  accountNumber: string | null;
  accountName: string | null;
  bankName: string | null;
  /** The local sandbox's page that sends a test transfer; null on a real deployment. */
  sandboxTransferUrl: string | null;
}

export const dedicatedAccountKey = ['wallet', 'dedicated-account'] as const;

export function useDedicatedAccount(enabled: boolean) {
  return useQuery({
    queryKey: dedicatedAccountKey,
    queryFn: ({ signal }) => api.get<{ data: DedicatedAccount | null }>('user/dedicated-account', { signal }),
    select: (r) => r.data,
    enabled,
    staleTime: 5 * 60_000,
  });
}

export const requestDedicatedAccount = () => api.post<{ message: string; data: DedicatedAccount }>('user/dedicated-account', {});
