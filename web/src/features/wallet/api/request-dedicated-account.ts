// POST user/dedicated-account: asks for the account number once; asking again answers the same one.
import { client, read } from '@/lib/api';

export const requestDedicatedAccount = () => read(client.user['dedicated-account'].$post());
