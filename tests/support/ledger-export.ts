// The Transactions screen's "Export CSV" as an administrator does it: the export started, followed until the queue has
// written its file, then the file downloaded.
import { expect } from 'vitest';
import { call } from './api';

/** The export's state until it is no longer queued or running. */
export async function exportOver(token: string, exportId: number): Promise<string> {
  let state = '';
  await expect
    .poll(
      async () => {
        state = (await call(`admin/transactions/exports/${exportId}`, { token })).body.data.state;
        return state;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toMatch(/^(done|failed)$/);
  return state;
}

/** The id of an export of these filters, once its file is written. */
export async function writtenExport(token: string, filters: Record<string, unknown> = {}): Promise<number> {
  const started = await call('admin/transactions/exports', { method: 'POST', token, body: filters });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(await exportOver(token, started.body.data.id)).toBe('done');
  return started.body.data.id;
}

/** The CSV text of the ledger rows these filters pick. */
export async function exportedCsv(token: string, filters: Record<string, unknown> = {}): Promise<string> {
  const file = await call(`admin/transactions/exports/${await writtenExport(token, filters)}/file`, { token });
  expect(file.status).toBe(200);
  return String(file.body);
}
