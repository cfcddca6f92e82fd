// POST notifications/unsubscribe: the one-click link of an email; no sign-in needed, the token is the proof.
import { publicClient, read } from '@/lib/api';

export const unsubscribe = (token: string) => read(publicClient.notifications.unsubscribe.$post({ json: { token } }));
