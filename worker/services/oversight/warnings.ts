// Warnings for the administrators: what the automatic rules met and left to a person (a repriced or
// switched-off service, a provider answer not understood, money that needs a look). Read and acknowledged on the dashboard.
import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { catalogueWarnings } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { notFound } from '../../lib/errors';
import type { WarningListQuery } from '../../schemas/catalogue';

type WarningKind = (typeof catalogueWarnings.$inferInsert)['kind'];

export interface WarningInput {
  kind: WarningKind;
  message: string;
  providerId?: number | null;
  serviceId?: number | null;
  orderId?: number | null;
  details?: Record<string, unknown>;
}

export async function recordWarning(db: DbOrTx, warning: WarningInput): Promise<void> {
  await db.insert(catalogueWarnings).values({ ...warning, details: warning.details ?? {} });
}

/** What a warning recorded once is one of: its kind, provider and order, as catalogue_warnings_once_unread_key reads them. */
const ONCE_KEY = sql.raw('(kind, coalesce(provider_id, 0), coalesce(order_id, 0)) where recorded_once and acknowledged_at is null');

/**
 * Records a warning unless one of the same kind for the same provider and order (if it names them) is
 * still unread: for alerts that repeat every run. Runs that race to record the same one record it once:
 * the unique index of unread warnings recorded once turns the later inserts into nothing.
 */
export async function recordWarningOnce(db: DbOrTx, warning: WarningInput): Promise<void> {
  const providerId = warning.providerId ?? null;
  const orderId = warning.orderId ?? null;
  await db.execute(sql`
    insert into ${catalogueWarnings} (kind, provider_id, order_id, message, details, recorded_once)
    select ${warning.kind}, ${providerId}::int, ${orderId}::int, ${warning.message}, ${JSON.stringify(warning.details ?? {})}::jsonb, true
    where not exists (
      select 1 from ${catalogueWarnings}
      where kind = ${warning.kind} and provider_id is not distinct from ${providerId}::int and order_id is not distinct from ${orderId}::int
        and acknowledged_at is null
    )
    on conflict ${ONCE_KEY} do nothing`);
}

/** Rows per INSERT: well under Postgres's 65,535 bind parameters at six a row, and a statement of bounded size. */
const WARNINGS_PER_STATEMENT = 1000;

const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / WARNINGS_PER_STATEMENT) }, (_, at) =>
    items.slice(at * WARNINGS_PER_STATEMENT, (at + 1) * WARNINGS_PER_STATEMENT),
  );

/** recordWarning for many: one INSERT per WARNINGS_PER_STATEMENT, so a catalogue repriced wholesale costs a few round trips, not thousands. */
export async function recordWarnings(db: DbOrTx, warnings: WarningInput[]): Promise<void> {
  for (const chunk of chunks(warnings)) {
    await db.insert(catalogueWarnings).values(chunk.map((warning) => ({ ...warning, details: warning.details ?? {} })));
  }
}

/**
 * recordWarningOnce for many, set-based: each is recorded unless one of the same kind for the same provider and order is
 * still unread (or racing in), and the same one twice in the batch is recorded once (the first). One statement per
 * WARNINGS_PER_STATEMENT.
 */
export async function recordWarningsOnce(db: DbOrTx, warnings: Array<WarningInput & { providerId: number }>): Promise<void> {
  for (const chunk of chunks(warnings)) {
    const rows = chunk.map((warning, position) => ({
      position,
      kind: warning.kind,
      provider_id: warning.providerId,
      order_id: warning.orderId ?? null,
      message: warning.message,
      details: warning.details ?? {},
    }));
    // distinct on keeps the first of a batch's duplicates (by position); nulls count as equal there, as `is not distinct from` below.
    await db.execute(sql`
      insert into ${catalogueWarnings} (kind, provider_id, order_id, message, details, recorded_once)
      select distinct on (w.kind, w.provider_id, w.order_id) w.kind, w.provider_id, w.order_id, w.message, w.details, true
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as w(position int, kind text, provider_id int, order_id int, message text, details jsonb)
      where not exists (
        select 1 from ${catalogueWarnings} c
        where c.kind = w.kind and c.provider_id = w.provider_id and c.order_id is not distinct from w.order_id and c.acknowledged_at is null
      )
      order by w.kind, w.provider_id, w.order_id, w.position
      on conflict ${ONCE_KEY} do nothing`);
  }
}

export async function listWarnings(db: Db, query: WarningListQuery) {
  const where = and(
    query.kind ? eq(catalogueWarnings.kind, query.kind) : undefined,
    query.acknowledged === undefined ? undefined : query.acknowledged ? isNotNull(catalogueWarnings.acknowledgedAt) : isNull(catalogueWarnings.acknowledgedAt),
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(catalogueWarnings)
      .where(where)
      .orderBy(desc(catalogueWarnings.createdAt), desc(catalogueWarnings.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(catalogueWarnings).where(where),
  ]);
  return {
    data: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      providerId: row.providerId,
      serviceId: row.serviceId,
      orderId: row.orderId,
      message: row.message,
      details: row.details,
      created_at: row.createdAt.toISOString(),
      acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    })),
    total,
  };
}

export async function acknowledgeWarning(db: Db, actorId: number, id: number): Promise<void> {
  const [row] = await db
    .update(catalogueWarnings)
    .set({ acknowledgedAt: sql`coalesce(${catalogueWarnings.acknowledgedAt}, now())`, acknowledgedBy: actorId })
    .where(eq(catalogueWarnings.id, id))
    .returning({ id: catalogueWarnings.id });
  if (!row) throw notFound('Warning not found');
}
