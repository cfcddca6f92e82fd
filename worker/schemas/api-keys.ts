// The user calls that manage reseller API keys (user/api-keys), shared with the SPA's form.
import { trimmedText } from './common';
import { z } from './zod';

export const API_KEY_NAME_MAX = 60;

/** POST user/api-keys: a name that tells the key's uses apart ("My child panel", "Telegram bot"). */
export const createApiKeySchema = z.object({
  name: trimmedText({ required: 'Name is required', max: API_KEY_NAME_MAX, tooLong: `Name must be at most ${API_KEY_NAME_MAX} characters` }),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
