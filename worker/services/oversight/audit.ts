// The audit log: who did what to which record, and when. Writers record their row with recordAudit,
// passing the transaction of the change it records, so the row and the change commit together.
import { and, count, desc, eq, like, or, type SQL } from 'drizzle-orm';
import { auditLog, users } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import { notFound } from '../../lib/errors';
import type { AuditAction, AuditQuery } from '../../schemas/admin';

export type AuditTargetType = 'category' | 'exchange_rate' | 'order' | 'provider' | 'service' | 'settings' | 'ticket' | 'user';

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

const auditColumns = {
  entry: auditLog,
  actorName: users.fullName,
  actorEmail: users.email,
};

interface AuditRow {
  entry: typeof auditLog.$inferSelect;
  actorName: string | null;
  actorEmail: string | null;
}

/** Price changes a listed entry shows; a repricing of the whole catalogue lists thousands, read in full one entry at a time. */
const LISTED_CHANGES = 50;

function listedDetails(details: unknown): unknown {
  const changes = (details as { changes?: unknown } | null)?.changes;
  if (!Array.isArray(changes) || changes.length <= LISTED_CHANGES) return details;
  return { ...(details as object), changes: changes.slice(0, LISTED_CHANGES) };
}

export function toAuditView({ entry, actorName, actorEmail }: AuditRow, full = false) {
  return {
    id: entry.id,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: full ? entry.details : listedDetails(entry.details),
    // The actor's row may be gone (deleted accounts keep their history with no name).
    actor: entry.actorId === null ? null : { id: entry.actorId, fullName: actorName, email: actorEmail },
    created_at: entry.createdAt.toISOString(),
  };
}
export type AuditView = ReturnType<typeof toAuditView>;

function auditFilter(query: Pick<AuditQuery, 'action' | 'actorId'>): SQL | undefined {
  return and(
    query.action ? or(eq(auditLog.action, query.action), like(auditLog.action, `${query.action.replace(/_/g, '\\_')}.%`)) : undefined,
    query.actorId ? eq(auditLog.actorId, query.actorId) : undefined,
  );
}

/** Entries with their actor's name, newest first. */
function newestEntries(db: DbOrTx, where?: SQL) {
  return db
    .select(auditColumns)
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id));
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
