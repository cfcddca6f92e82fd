// The administrators' ledger as a CSV file, read a page at a time (ledger-export-jobs.ts writes it on the admin-jobs
// queue): a year of a busy shop's ledger in one statement would be an answer past the SQL-over-HTTP endpoint's 10 MB,
// and its whole text held in the Worker's memory rather than gzipped as it is read.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { users, walletTransactions } from '../../../drizzle/schema';
import { TRANSACTION_TYPE } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import type { AdminTransactionExportInput } from '../../schemas/wallet';
import { newestFirst, transactionFilter } from './wallet';

/** The most rows one export writes. */
export const EXPORT_ROW_LIMIT = 50_000;
/** Rows per statement: about 2 MB of answer, a fifth of the endpoint's 10 MB, so descriptions five times as long still fit. */
export const EXPORT_PAGE_ROWS = 10_000;

const HEADER = ['id', 'user_id', 'email', 'type', 'amount_ngn', 'balance_after_ngn', 'source', 'reference', 'description', 'created_at'];

/** Quoted, with spreadsheet formulas defused. */
function cell(value: string | number): string {
  const text = String(value);
  return `"${(/^[=+\-@\t\r]/.test(text) ? `'${text}` : text).replace(/"/g, '""')}"`;
}

/**
 * The rows after `afterId` in the export's order (newest first). The keyset is read back from the row itself: a
 * timestamp through a JavaScript Date would lose its microseconds and skip or repeat rows at a page's edge.
 */
function exportPage(db: DbOrTx, where: SQL | undefined, afterId: number | null, rows: number) {
  const after =
    afterId === null
      ? undefined
      : sql`(${walletTransactions.createdAt}, ${walletTransactions.id}) < (select created_at, id from ${walletTransactions} where id = ${afterId})`;
  return db
    .select({ row: walletTransactions, email: users.email })
    .from(walletTransactions)
    .innerJoin(users, eq(users.id, walletTransactions.userId))
    .where(and(where, after))
    .orderBy(...newestFirst)
    .limit(rows);
}

type ExportRow = Awaited<ReturnType<typeof exportPage>>[number];

const csvLine = ({ row, email }: ExportRow) =>
  [
    row.id,
    row.userId,
    email,
    row.transactionType === TRANSACTION_TYPE.deposit ? 'deposit' : 'withdrawal',
    koboToNaira(row.amountKobo),
    koboToNaira(row.balanceAfterKobo),
    row.sourceKind,
    row.sourceRef,
    row.description,
    row.createdAt.toISOString(),
  ]
    .map(cell)
    .join(',');

/**
 * CSV of the filtered ledger, newest first, at most EXPORT_ROW_LIMIT rows. The first page is read before the answer
 * starts, so a failure there is an ordinary error answer; a later page's failure breaks the download off rather than
 * end it as if it were whole. Each next page is asked for as soon as the one before arrives, while that one is written
 * out. A row written meanwhile is newer than the first page and so not in the file (but for one whose transaction
 * began before the first page was read).
 */
export async function exportTransactionsCsv(
  db: DbOrTx,
  query: AdminTransactionExportInput,
  { pageRows = EXPORT_PAGE_ROWS, onPage }: { pageRows?: number; onPage?: (rows: number) => void } = {},
): Promise<ReadableStream<Uint8Array>> {
  const where = transactionFilter(query);
  const encoder = new TextEncoder();
  const pageAfter = (afterId: number | null, written: number) => exportPage(db, where, afterId, Math.min(pageRows, EXPORT_ROW_LIMIT - written));
  let coming = Promise.resolve(await pageAfter(null, 0));
  let written = 0;
  let lines = [HEADER.join(',')];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const page = await coming;
      written += page.length;
      onPage?.(page.length);
      const more = page.length === pageRows && written < EXPORT_ROW_LIMIT;
      if (more) {
        coming = pageAfter(page[page.length - 1].row.id, written);
        // Handled where it is awaited; this keeps a download given up meanwhile from leaving a rejection unheard.
        coming.catch(() => undefined);
      }
      lines.push(...page.map(csvLine));
      if (lines.length > 0) controller.enqueue(encoder.encode(`${lines.join('\r\n')}\r\n`));
      lines = [];
      if (!more) controller.close();
    },
  });
}
