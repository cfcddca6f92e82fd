// POST auth/logout: ends the session on the server (its refresh token stops working).
import { client, read } from '@/lib/api';

export const logout = () => read(client.auth.logout.$post());
