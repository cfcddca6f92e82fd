// POST admin/referrals/{referredUserId}/void {reason}: no more commissions on this user's deposits.
import { client, read } from '@/lib/api';

export const voidReferral = (referredUserId: number, reason: string) =>
  read(client.admin.referrals[':referredUserId'].void.$post({ param: { referredUserId: String(referredUserId) }, json: { reason } }));
