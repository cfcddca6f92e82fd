// PUT user/updateProfile: the name is all a person changes; username and email go back as they are.
import type { UpdateProfileInput } from '@schemas/auth';
import { client, read } from '@/lib/api';

export const updateProfile = (input: UpdateProfileInput) => read(client.user.updateProfile.$put({ json: input }));
