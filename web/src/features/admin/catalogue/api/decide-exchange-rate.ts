// POST admin/services/rates/:currency/{accept,reject}. Either names the proposed rate as shown, so a
// proposal that changed meanwhile is refused (409).
import { client, read } from '@/lib/api';

export function decideExchangeRate(currency: string, decision: 'accept' | 'reject', rate: string) {
  const review = client.admin.services.rates[':currency'];
  const request = { param: { currency }, json: { rate } };
  return decision === 'accept' ? read(review.accept.$post(request)) : read(review.reject.$post(request));
}
