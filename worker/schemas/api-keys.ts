// The user calls that manage reseller API keys (user/api-keys), shared with the SPA's form.
import { z } from './zod';

export const API_KEY_NAME_MAX = 60;

/** POST user/api-keys: a name that tells the key's uses apart ("My child panel", "Telegram bot"). */
export const createApiKeySchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(API_KEY_NAME_MAX, { error: `Name must be at most ${API_KEY_NAME_MAX} characters` }),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeySchema>;
