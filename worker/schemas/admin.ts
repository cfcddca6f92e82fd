import { z } from './zod';
import { registerSchema } from './auth';
import { idParam, paginationSchema } from './common';

export const userListQuerySchema = paginationSchema.extend({
  search: z.string().trim().max(100).optional(),
  status: z.enum(['active', 'suspended'], { error: 'status must be active or suspended' }).optional(),
  userType: z.coerce.number().pipe(z.union([z.literal(1), z.literal(2)], { error: 'userType must be 1 or 2' })).optional(),
  sort: z.enum(['newest', 'oldest', 'name', 'balance', 'last_login'], { error: 'Unknown sort order' }).default('newest'),
});
export type UserListQuery = z.infer<typeof userListQuerySchema>;

/** The dashboard's bucket size: the last 30 days, 12 weeks or 12 months. */
export const DASHBOARD_PERIODS = ['day', 'week', 'month'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];

export const dashboardQuerySchema = z.object({
  period: z.enum(DASHBOARD_PERIODS, { error: 'period must be day, week or month' }).default('day'),
});

export const promoteAdministratorSchema = z.object({ userId: idParam('userId') });
export type PromoteAdministratorInput = z.infer<typeof promoteAdministratorSchema>;

/** An invitation names the person; their password is theirs to choose through the emailed link. */
export const inviteAdministratorSchema = registerSchema.pick({ fullName: true, email: true });
export type InviteAdministratorInput = z.infer<typeof inviteAdministratorSchema>;

export const auditQuerySchema = paginationSchema.extend({
  /** An action ("wallet.credit") or its area ("wallet" matches every wallet.* action). */
  action: z
    .string()
    .trim()
    .max(60, { error: 'action must be at most 60 characters' })
    .regex(/^[a-z_]+(?:\.[a-z_]+)*$/, { error: 'action must look like wallet or wallet.credit' })
    .optional(),
  actorId: idParam('actorId').optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
