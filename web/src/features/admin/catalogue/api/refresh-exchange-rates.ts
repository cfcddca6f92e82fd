// POST admin/services/rates/refresh: fetches the rates now; one too far from the current rate is held for review.
import { client, read } from '@/lib/api';

export const refreshExchangeRates = () => read(client.admin.services.rates.refresh.$post());
