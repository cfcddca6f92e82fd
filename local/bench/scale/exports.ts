// The Transactions screen's "Export CSV" as the bench runs it: the whole ledger's file and the heavy reseller's, each
// written on the admin-jobs queue (POST admin/transactions/exports, then the export read until it is done) before a
// phase's measured calls, so "admin transactions export ... (its file)" downloads a file the size the volume makes.
import { callApi } from '../shop-client';

interface LedgerExport {
  id: number;
  state: 'queued' | 'running' | 'done' | 'failed';
  rows: number | null;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

const POLL_MS = 500;

/** The export once its file is written, and how long the queue took from the ask; throws if it failed or took over `timeoutMs`. */
export async function writtenExport(shopUrl: string, token: string, filters: Record<string, unknown>, timeoutMs: number) {
  const { data: started } = await callApi<{ data: LedgerExport }>(shopUrl, 'POST', 'admin/transactions/exports', { token, body: filters });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data: found } = await callApi<{ data: LedgerExport }>(shopUrl, 'GET', `admin/transactions/exports/${started.id}`, { token });
    if (found.state === 'failed') throw new Error(`the export failed: ${found.error}`);
    if (found.state === 'done')
      return { id: found.id, rows: found.rows ?? 0, seconds: (Date.parse(found.finishedAt ?? '') - Date.parse(found.createdAt)) / 1000 };
    if (Date.now() > deadline) throw new Error(`the export was still ${found.state} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
