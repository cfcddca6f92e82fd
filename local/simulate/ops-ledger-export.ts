// An administrator's "Export CSV" of the ledger, on the admin-jobs queue, while money keeps moving: the file is the
// administrators' copy of the books, so each of its rows must be the ledger's row as it is, with nothing left out.

import { TRANSACTION_TYPE } from '../../vocabulary';
import { parseCsv } from '../../worker/lib/csv';
import { koboToNaira } from '../../worker/lib/decimal';
import { expect, type Sim, sleep, tally } from './world';

/** How long an export may take on the simulator's small shop before it counts as stuck. */
const EXPORT_WAIT_MS = 60_000;
/**
 * A ledger row written this long before the export was asked for is in its file. A younger one may not be: its
 * transaction may have begun before the file's first page was read and ended after (ledger-export.ts).
 */
const SETTLED_BEFORE_MS = 10_000;

interface LedgerRow {
  id: string;
  user_id: number;
  transaction_type: number;
  amount_kobo: string;
  balance_after_kobo: string;
  source_kind: string;
  source_ref: string;
  created_at: Date;
}

/** The file's columns of a ledger row, as the export writes them (its email and description aside). */
const asFileWrites = (row: LedgerRow) => [
  row.id,
  String(row.user_id),
  row.transaction_type === TRANSACTION_TYPE.deposit ? 'deposit' : 'withdrawal',
  koboToNaira(BigInt(row.amount_kobo)),
  koboToNaira(BigInt(row.balance_after_kobo)),
  row.source_kind,
  row.source_ref,
  row.created_at.toISOString(),
];
const COLUMNS = [0, 1, 3, 4, 5, 6, 7, 9];

/**
 * An administrator exports one user's ledger (now and then the whole shop's) and downloads the file once the queue has
 * written it. The export ends done, or failed with why (a connection cut under it); it is never left under way. A done
 * file holds no row the ledger lacks, each row exactly as the ledger has it, newest first, and every row written well
 * before the export was asked for.
 */
export async function ledgerExport(sim: Sim): Promise<string> {
  const user = sim.rng.chance(0.8) ? sim.rng.pick(sim.world.users) : null;
  tally(sim, user ? 'ledger export (one user)' : 'ledger export (the shop)');
  const started = await sim.admin.api('admin/transactions/exports', { body: user ? { userId: user.id } : {} });
  if (!expect(sim, 'POST admin/transactions/exports', started, [202]) || started.kind !== 'answered' || started.status !== 202)
    return 'ledger export: not started';
  const { id, createdAt } = started.body.data as { id: number; createdAt: string };
  const deadline = Date.now() + EXPORT_WAIT_MS;
  let state: { state?: string; rows?: number | null; error?: string | null } | undefined;
  while (Date.now() < deadline) {
    const answer = await sim.admin.api(`admin/transactions/exports/${id}`);
    if (answer.kind === 'answered' && answer.status === 200) {
      state = answer.body?.data ?? undefined;
      if (state?.state === 'done' || state?.state === 'failed') break;
    }
    await sleep(100);
  }
  if (state?.state === 'failed') {
    if (!state.error) throw new Error(`ledger export ${id}: failed without saying why`);
    return `ledger export: failed (${state.error})`;
  }
  if (state?.state !== 'done') throw new Error(`ledger export ${id}: still ${state?.state ?? 'unread'} after ${EXPORT_WAIT_MS / 1000} s`);

  const file = await sim.admin.api(`admin/transactions/exports/${id}/file`);
  if (file.kind !== 'answered' || file.status !== 200) throw new Error(`ledger export ${id}: its file did not download (${file.kind})`);
  const lines = parseCsv(file.text).slice(1);
  const { rows: ledger } = await sim.pg.query<LedgerRow>(
    `select id::text, user_id, transaction_type, amount_kobo::text, balance_after_kobo::text, source_kind, source_ref, created_at
     from wallet_transactions where $1::int is null or user_id = $1 order by created_at desc, id desc`,
    [user?.id ?? null],
  );
  const byId = new Map(ledger.map((row) => [row.id, row]));
  const problems: string[] = [];
  if (lines.length !== state.rows) problems.push(`${lines.length} rows in the file, ${state.rows} said`);
  for (const { fields } of lines) {
    const row = byId.get(fields[0]);
    const written = COLUMNS.map((column) => fields[column]);
    if (!row) problems.push(`row ${fields[0]} is in no ledger`);
    else if (written.join(',') !== asFileWrites(row).join(','))
      problems.push(`row ${fields[0]} reads ${written.join(',')}, the ledger ${asFileWrites(row).join(',')}`);
  }
  const inFile = lines.map(({ fields }) => fields[0]);
  const inFileIds = new Set(inFile);
  const ledgerOrder = ledger.map((row) => row.id).filter((rowId) => inFileIds.has(rowId));
  if (inFile.join(',') !== ledgerOrder.join(',')) problems.push('the rows are not newest first');
  const settled = Date.parse(createdAt) - SETTLED_BEFORE_MS;
  const left = ledger.filter((row) => row.created_at.getTime() < settled && !inFileIds.has(row.id));
  if (left.length > 0) problems.push(`rows ${left.map((row) => row.id).join(', ')} left out`);
  if (problems.length > 0) throw new Error(`ledger export ${id}${user ? ` of user ${user.id}` : ''}: ${problems.slice(0, 5).join('; ')}`);
  return `ledger export${user ? ` of user ${user.id}` : ''}: ${lines.length} rows, each as the ledger has it`;
}
