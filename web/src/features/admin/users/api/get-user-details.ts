// GET admin/getUserDeta/{userId}: the user's profile, latest ledger rows and orders, with the totals,
// order counts and card payment reversals this Worker adds to the spec's answer.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

type Answer = InferResponseType<(typeof client.admin.getUserDeta)[':userId']['$get'], 200>;

/** The spec promises only message, profile, walletHistory and orders: the screen reads the rest when present. */
export type UserDetails = Pick<Answer, 'message' | 'profile' | 'walletHistory' | 'orders'> & Partial<Pick<Answer, 'summary' | 'orderCounts' | 'reversals'>>;
export type UserOrder = Answer['orders'][number];
export type WalletHistoryEntry = Answer['walletHistory'][number];
export type UserReversal = Answer['reversals'][number];

/** Load failures are only logged. */
export async function getUserDetails(userId: string | number, signal?: AbortSignal): Promise<UserDetails> {
  try {
    return await read(client.admin.getUserDeta[':userId'].$get({ param: { userId: String(userId) } }, { init: { signal } }));
  } catch (error) {
    console.error('Failed to load user details', error);
    throw error;
  }
}

export const userDetailsQueryOptions = (userId: string | number) =>
  queryOptions({ queryKey: adminKeys.user(userId), queryFn: ({ signal }) => getUserDetails(userId, signal) });

export function useUserDetails(userId: string | number | null | undefined) {
  return useQuery({ ...userDetailsQueryOptions(userId ?? ''), enabled: userId !== null && userId !== undefined && userId !== '' });
}
