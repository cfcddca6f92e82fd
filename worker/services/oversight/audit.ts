// The audit log: who did what to which record, and when. Writers record their row with recordAudit,
// passing the transaction of the change it records, so the row and the change commit together.

import { and, asc, count, desc, eq, gte, inArray, like, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias, union } from 'drizzle-orm/pg-core';
import { auditLog, providers, users } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { notFound } from '../../lib/errors';
import type { AuditAction, AuditQuery, AuditTargetType } from '../../schemas/admin';

export type { AuditTargetType };

export interface AuditRecord {
  /** Null for the shop's own work (a scheduled sync). */
  actorId: number | null;
  action: AuditAction;
  /** The record acted on; no id for an action on many. */
  target: { type: AuditTargetType; id?: string | number | null };
  details?: Record<string, unknown>;
}

export async function recordAudit(db: DbOrTx, { actorId, action, target, details }: AuditRecord): Promise<void> {
  await db.insert(auditLog).values({ actorId, action, targetType: target.type, targetId: target.id == null ? null : String(target.id), details });
}

/** One field's move, as an audit row's `details.changes` records it. */
export interface FieldChange {
  from: unknown;
  to: unknown;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What an edit changed, field by field, for an audit row's `details.changes`: each field of `after`
 * (undefined ones are not part of the edit) whose value differs from `before`'s. A nested object is
 * compared field by field ("perMinute.add"). Values must be JSON (bigints written as text by the caller).
 */
export function fieldChanges(before: object, after: object, prefix = ''): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue;
    const from = (before as Record<string, unknown>)[field];
    if (isPlainObject(to) && isPlainObject(from)) Object.assign(changes, fieldChanges(from, to, `${prefix}${field}.`));
    else if (JSON.stringify(from ?? null) !== JSON.stringify(to)) changes[`${prefix}${field}`] = { from: from ?? null, to };
  }
  return changes;
}

/** The user an entry acts on, when its target is a user (an administrator made, a wallet credited). */
const targetUser = alias(users, 'target_user');

const auditColumns = {
  entry: auditLog,
  actorName: users.fullName,
  actorEmail: users.email,
  targetName: targetUser.fullName,
  targetEmail: targetUser.email,
  targetProviderName: providers.name,
};

interface AuditRow {
  entry: typeof auditLog.$inferSelect;
  actorName: string | null;
  actorEmail: string | null;
  targetName: string | null;
  targetEmail: string | null;
  targetProviderName: string | null;
}

/** Price changes a listed entry shows; a repricing of the whole catalogue lists thousands, read in full one entry at a time. */
const LISTED_CHANGES = 50;

function listedDetails(details: unknown): unknown {
  const changes = (details as { changes?: unknown } | null)?.changes;
  if (!Array.isArray(changes) || changes.length <= LISTED_CHANGES) return details;
  return { ...(details as object), changes: changes.slice(0, LISTED_CHANGES) };
}

export function toAuditView({ entry, actorName, actorEmail, targetName, targetEmail, targetProviderName }: AuditRow, full = false) {
  return {
    id: entry.id,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    /** The user acted on, by name, for an entry whose target is a user that still exists. */
    targetUser: targetEmail === null ? null : { fullName: targetName, email: targetEmail },
    /** The provider acted on, by name, for an entry whose target is a provider that still exists. */
    targetProvider: targetProviderName === null ? null : { name: targetProviderName },
    details: full ? entry.details : listedDetails(entry.details),
    // The actor's row may be gone (deleted accounts keep their history with no name).
    actor: entry.actorId === null ? null : { id: entry.actorId, fullName: actorName, email: actorEmail },
    created_at: entry.createdAt.toISOString(),
  };
}
export type AuditView = ReturnType<typeof toAuditView>;

const DAY_MS = 86_400_000;

function auditFilter(query: Omit<AuditQuery, 'page' | 'limit'>): SQL | undefined {
  return and(
    query.action ? or(eq(auditLog.action, query.action), like(auditLog.action, `${query.action.replace(/_/g, '\\_')}.%`)) : undefined,
    query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
    query.from ? gte(auditLog.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
    // Through the end of the day named.
    query.to ? lt(auditLog.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)) : undefined,
    query.targetType ? eq(auditLog.targetType, query.targetType) : undefined,
    query.targetId ? eq(auditLog.targetId, query.targetId) : undefined,
  );
}

/** Entries with their actor's name (and a user's or provider's acted on), newest first. */
function newestEntries(db: DbOrTx, where?: SQL) {
  return (
    db
      .select(auditColumns)
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorId))
      // Target ids are text (a currency, a settings key); a user's is its id.
      .leftJoin(
        targetUser,
        sql`${auditLog.targetType} = 'user' and ${targetUser.id} = (case when ${auditLog.targetType} = 'user' then ${auditLog.targetId}::integer end)`,
      )
      .leftJoin(
        providers,
        sql`${auditLog.targetType} = 'provider' and ${providers.id} = (case when ${auditLog.targetType} = 'provider' then ${auditLog.targetId}::integer end)`,
      )
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
  );
}

export async function listAuditEntries(db: DbOrTx, query: AuditQuery): Promise<{ data: AuditView[]; total: number }> {
  const where = auditFilter(query);
  const [rows, [{ total }]] = await Promise.all([
    newestEntries(db, where)
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { data: rows.map((row) => toAuditView(row)), total };
}

/** One entry with all its details (every price change of a large repricing). */
export async function getAuditEntry(db: DbOrTx, id: number): Promise<AuditView> {
  const [row] = await newestEntries(db, eq(auditLog.id, id));
  if (!row) throw notFound('Audit entry not found');
  return toAuditView(row, true);
}

/** The dashboard's latest entries. */
export async function recentAuditEntries(db: DbOrTx, limit: number): Promise<AuditView[]> {
  return (await newestEntries(db).limit(limit)).map((row) => toAuditView(row));
}

/**
 * The people the log's "Administrator" filter offers, by name: every administrator, and anyone no longer
 * one who has entries (their history stays theirs).
 */
export async function listAuditActors(db: DbOrTx) {
  // Their ids first, from the audit log's actor index and the administrators' index, then only those accounts:
  // an OR over both would read every account.
  const people = union(
    db.select({ id: users.id }).from(users).where(eq(users.userType, USER_TYPE.admin)),
    // Distinct in the branch too: the planner then knows there are a handful, and looks each one up by its key.
    db
      .selectDistinct({ id: sql<number>`${auditLog.actorId}`.as('id') })
      .from(auditLog)
      .where(sql`${auditLog.actorId} is not null`),
  );
  const rows = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email, userType: users.userType })
    .from(users)
    .where(inArray(users.id, people))
    .orderBy(asc(users.fullName), asc(users.email), asc(users.id));
  return rows.map(({ userType, ...person }) => ({ ...person, administrator: userType === USER_TYPE.admin }));
}
export type AuditActor = Awaited<ReturnType<typeof listAuditActors>>[number];
