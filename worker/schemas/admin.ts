import { z } from 'zod';
import { paginationSchema } from './common';

export const userListQuerySchema = paginationSchema.extend({
  search: z.string().trim().max(100).optional(),
  status: z.enum(['active', 'suspended'], { error: 'status must be active or suspended' }).optional(),
  userType: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)], { error: 'userType must be 1 or 2' })).optional(),
  sort: z.enum(['newest', 'oldest', 'name', 'balance', 'last_login'], { error: 'Unknown sort order' }).default('newest'),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;
