// The books checked as an administrator's "Check everything" does: the full reconciliation started on the Worker's
// admin-jobs queue (POST admin/reconciliation/full), then its run read until it is over. Before a phase's measured
// calls, so "admin reconciliation, everything" reads a report the size the volume makes.
import { callApi } from '../shop-client';

interface FullRun {
  state: 'queued' | 'running' | 'done' | 'failed';
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  report: (Record<string, unknown> & { ok: boolean; unbacked: { findings: unknown[] } }) | null;
}

const POLL_MS = 1000;

/** The run once it is over, and how long the queue took to run it; throws after `timeoutMs`. */
export async function fullCheck(shopUrl: string, token: string, timeoutMs: number): Promise<{ run: FullRun; jobSeconds: number | null }> {
  await callApi(shopUrl, 'POST', 'admin/reconciliation/full', { token });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data: run } = await callApi<{ data: FullRun }>(shopUrl, 'GET', 'admin/reconciliation/full', { token });
    if (run.state === 'done' || run.state === 'failed') {
      const jobSeconds = run.startedAt && run.finishedAt ? (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000 : null;
      return { run, jobSeconds };
    }
    if (Date.now() > deadline) throw new Error(`the full reconciliation was still ${run.state} after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** What a report that is not clean found, a line per check. */
export function findingsSummary(report: NonNullable<FullRun['report']>): string {
  const summary = Object.entries(report)
    .filter(([, value]) => Array.isArray(value) && value.length > 0)
    .map(([key, value]) => `${key}: ${(value as unknown[]).length} (first ${JSON.stringify((value as unknown[])[0])})`);
  if (report.unbacked.findings.length) summary.push(`unbacked: ${report.unbacked.findings.length} (first ${JSON.stringify(report.unbacked.findings[0])})`);
  return summary.join('; ');
}
