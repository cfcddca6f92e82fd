// The Transactions screen's "Export CSV": a year's ledger is 50,000 rows, over a second to write, so the file is
// written on the admin-jobs queue rather than in a request. Starting it is one statement and a message; the screen
// reads the export's state until it is done, then downloads the file, kept gzipped in R2 (a file store, where Postgres
// would send its megabytes through every statement) and forgotten with its export a day later.
import { inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ledgerExports } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import { ADMIN_JOB_LOST_AFTER_MINUTES, type Env } from '../../env';
import { log } from '../../lib/log';
import { type AdminTransactionExportInput, adminTransactionExportSchema } from '../../schemas/wallet';
import { exportTransactionsCsv } from './ledger-export';

/** A file is for the administrator who asked for it that day; a new export writes it again. */
const LEDGER_EXPORT_KEPT = sql`interval '1 day'`;

export interface LedgerExport {
  id: number;
  state: 'queued' | 'running' | 'done' | 'failed';
  filters: AdminTransactionExportInput;
  /** Rows in the file, once it is written. */
  rows: number | null;
  createdAt: string;
  finishedAt: string | null;
  /** Why it failed, in words. */
  error: string | null;
}

export const ledgerExportMessage = z.object({ kind: z.literal('ledger-export'), exportId: z.number().int().positive() });

const lost = sql`state in ('queued', 'running') and created_at < now() - make_interval(mins => ${ADMIN_JOB_LOST_AFTER_MINUTES})`;

/** An export as the screen reads it: one lost with its Worker reads failed, with why. */
const exportView = sql`
  id::int as "id",
  case when ${lost} then 'failed' else state end as "state",
  filters as "filters", row_count as "rows",
  to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "createdAt",
  to_char(finished_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "finishedAt",
  case when ${lost} then 'The export stopped before the file was written; start it again.' else error end as "error"`;

/** Queues the file of the ledger rows these filters pick; the screen follows it by its id. */
export async function startLedgerExport(db: DbOrTx, env: Env, adminId: number, filters: AdminTransactionExportInput): Promise<LedgerExport> {
  const { rows } = await db.execute<LedgerExport & Record<string, unknown>>(sql`
    insert into ledger_exports (requested_by, filters) values (${adminId}, ${JSON.stringify(filters)}::jsonb)
    returning ${exportView}`);
  const created = rows[0];
  try {
    await env.ADMIN_JOBS.send({ kind: 'ledger-export', exportId: created.id });
  } catch (error) {
    await fail(db, created.id, 'The export could not be queued; start it again.').catch(() => undefined);
    throw error;
  }
  return created;
}

/** The export, without its file; null when there is none by that id (or it was forgotten). */
export async function ledgerExport(db: DbOrTx, exportId: number): Promise<LedgerExport | null> {
  const { rows } = await db.execute<LedgerExport & Record<string, unknown>>(sql`select ${exportView} from ledger_exports where id = ${exportId}`);
  return rows[0] ?? null;
}

const fileKey = (exportId: number) => `ledger-exports/${exportId}.csv.gz`;

/** The written file, gzipped, as a stream; null until the export is done (the file is stored before the export reads done). */
export async function ledgerExportFile(files: R2Bucket, exportId: number): Promise<ReadableStream | null> {
  return (await files.get(fileKey(exportId)))?.body ?? null;
}

/**
 * The queue's job: writes the file of a queued export, once. Only a queued export starts, so a message delivered again
 * does nothing; a file that fails to be written leaves the export failed with why, not half a file.
 */
export async function runLedgerExport(db: DbOrTx, files: R2Bucket, exportId: number): Promise<void> {
  const { rows: started } = await db.execute<{ filters: unknown }>(sql`
    update ledger_exports set state = 'running', started_at = now()
    where id = ${exportId} and state = 'queued' and not (${lost})
    returning filters`);
  if (started.length === 0) return;
  try {
    const filters = adminTransactionExportSchema.parse(started[0].filters);
    let rows = 0;
    const csv = await exportTransactionsCsv(db, filters, { onPage: (count) => (rows += count) });
    // Typed for any BufferSource in, which the text's bytes are.
    const gzip = new CompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array<ArrayBuffer>>;
    // Whole before it is stored: R2 takes a stream only of a length known in advance.
    await files.put(fileKey(exportId), await new Response(csv.pipeThrough(gzip)).arrayBuffer());
    await db.execute(sql`
      update ledger_exports set state = 'done', row_count = ${rows}, finished_at = now()
      where id = ${exportId} and state = 'running'`);
  } catch (error) {
    log.error('ledger export failed', { exportId, error: error instanceof Error ? error.message : String(error) });
    await fail(db, exportId, 'The file could not be written; start the export again.');
  }
}

/** Ends an export that has not ended yet as failed, with why. */
function fail(db: DbOrTx, exportId: number, why: string) {
  return db.execute(sql`
    update ledger_exports set state = 'failed', error = ${why}, finished_at = now()
    where id = ${exportId} and state in ('queued', 'running')`);
}

/** Exports forgotten per cron run at most: R2 deletes up to a thousand files in one call. */
export const FORGET_EXPORTS_PER_RUN = 1000;

/**
 * Cron: forgets the exports asked for over a day ago, and their files, oldest first. The files go first, so an export
 * whose file could not be deleted is still there for the next run to try again.
 */
export async function forgetOldLedgerExports(db: DbOrTx, files: R2Bucket, limit = FORGET_EXPORTS_PER_RUN): Promise<{ forgotten: number }> {
  const old = await db
    .select({ id: ledgerExports.id })
    .from(ledgerExports)
    .where(lt(ledgerExports.createdAt, sql`now() - ${LEDGER_EXPORT_KEPT}`))
    .orderBy(ledgerExports.createdAt)
    .limit(limit);
  if (old.length === 0) return { forgotten: 0 };
  const ids = old.map((row) => row.id);
  await files.delete(ids.map(fileKey));
  const forgotten = await db.delete(ledgerExports).where(inArray(ledgerExports.id, ids)).returning({ id: ledgerExports.id });
  return { forgotten: forgotten.length };
}
