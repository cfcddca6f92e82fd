import { registerSchema } from './auth';
import type { BulkServicesInput } from './catalogue';
import { dateQueryParam, idParam, paginationSchema } from './common';
import { z } from './zod';

export const USER_STATUSES = ['active', 'suspended'] as const;
/** The orders the admin user list can be sorted in; the first is the default. */
export const USER_SORTS = ['newest', 'oldest', 'name', 'balance', 'last_login'] as const;
export type UserSort = (typeof USER_SORTS)[number];

export const userListQuerySchema = paginationSchema.extend({
  search: z.string().trim().max(100).optional(),
  status: z.enum(USER_STATUSES, { error: 'status must be active or suspended' }).optional(),
  userType: z.coerce
    .number()
    .pipe(z.union([z.literal(1), z.literal(2)], { error: 'userType must be 1 or 2' }))
    .optional(),
  sort: z.enum(USER_SORTS, { error: 'Unknown sort order' }).default('newest'),
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

/** Every action the audit log records; the admin audit screen filters and labels entries by these strings. */
export type AuditAction =
  | 'admin.invite'
  | 'admin.invite_existing'
  | 'admin.promote'
  | 'admin.remove'
  | 'catalogue.reprice'
  | 'catalogue.settings'
  | 'category.update'
  | 'order.cancel'
  | 'order.link'
  | 'order.refill'
  | 'order.refund_without_provider'
  | 'order.resend'
  | 'order.status'
  | 'provider.create'
  | 'provider.delete'
  | 'provider.update'
  | 'rate.accept'
  | 'rate.reject'
  | 'referral.void'
  | `service.bulk_${BulkServicesInput['action']}`
  | 'service.csv_import'
  | 'service.import'
  | 'service.provider_price_accept'
  | 'service.update'
  | 'settings.payment.update'
  | 'settings.referral.update'
  | 'settings.reseller_api.update'
  | 'settings.security.update'
  | 'settings.site.update'
  | 'ticket.assign'
  | 'ticket.close'
  | 'ticket.reply'
  | 'two_factor.disable'
  | 'two_factor.enable'
  | 'two_factor.locked'
  | 'two_factor.recovery_codes'
  | 'user.reactivate'
  | 'user.suspend'
  | 'wallet.credit'
  | 'wallet.debit';
/** The kinds of record an audit entry names as its target. */
export const AUDIT_TARGET_TYPES = ['category', 'exchange_rate', 'order', 'provider', 'service', 'settings', 'ticket', 'user'] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The part of an action before its dot ("wallet" of "wallet.credit"), which the log's filter matches. */
export type AuditArea = AuditAction extends `${infer Area}.${string}` ? Area : never;

export const auditQuerySchema = paginationSchema.extend({
  /** An action ("wallet.credit") or its area ("wallet" matches every wallet.* action). */
  action: z
    .string()
    .trim()
    .max(60, { error: 'action must be at most 60 characters' })
    .regex(/^[a-z_]+(?:\.[a-z_]+)*$/, { error: 'action must look like wallet or wallet.credit' })
    .optional(),
  actorId: idParam('actorId').optional(),
  /** Recorded on or after this day (UTC). */
  from: dateQueryParam('from'),
  /** Recorded on or before this day (UTC): the day itself included. */
  to: dateQueryParam('to'),
  /** The kind of record acted on; with targetId, that one record. */
  targetType: z.enum(AUDIT_TARGET_TYPES, { error: `targetType must be one of ${AUDIT_TARGET_TYPES.join(', ')}` }).optional(),
  targetId: z
    .string()
    .trim()
    .min(1)
    .max(60, { error: 'targetId must be at most 60 characters' })
    .regex(/^[A-Za-z0-9_.-]+$/, { error: 'targetId must be an id (letters, digits, _ . -)' })
    .optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
