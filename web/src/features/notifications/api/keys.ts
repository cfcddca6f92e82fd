// The notification queries' keys: the bell (whose new money notifications refresh the balances, lib/queryClient.ts) and the email settings.
import { BELL_QUERY_KEY } from '@/lib/moneyQueries';

export const notificationKeys = {
  bell: BELL_QUERY_KEY,
  settings: ['notifications', 'settings'] as const,
};
