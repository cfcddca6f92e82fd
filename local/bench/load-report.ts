// `npm run load`'s report: latency and statuses per kind of traffic, the errors (what the issue wants at zero: no
// connection error or timeout, no 5xx, no 503 in particular, no reseller refusal), then the books' checks.
import type { Result } from 'autocannon';
import type { Check } from './load-books';
import { connectionsOf, type Kind, type Tally } from './load-settings';

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 0);

export interface Run {
  kind: Kind;
  result: Result;
}

const statusCount = (result: Result, test: (status: number) => boolean) =>
  Object.entries(result.statusCodeStats)
    .filter(([status]) => test(Number(status)))
    .reduce((total, [, { count }]) => total + count, 0);

/** Prints the table; answers whether anything counts as an error. */
export function printTraffic(runs: Run[], serverErrors: Tally, refusals: Tally): boolean {
  const rows = runs.map(({ kind, result }) => [
    kind,
    String(connectionsOf(kind)),
    String(result.requests.total),
    result.requests.average.toFixed(0),
    ms(result.latency.p50),
    ms(result.latency.p99),
    Object.entries(result.statusCodeStats)
      .map(([status, { count }]) => `${status}×${count}`)
      .join(' '),
    String(statusCount(result, (status) => status >= 500)),
    String(statusCount(result, (status) => status === 503)),
    String(result.errors + result.timeouts),
  ]);
  const headers = ['traffic', 'connections', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'statuses', '5xx', '503', 'errors'];
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 || column === 6 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(line(headers));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));

  const connectionErrors = runs.reduce((total, { result }) => total + result.errors + result.timeouts, 0);
  const fiveHundreds = runs.reduce((total, { result }) => total + statusCount(result, (status) => status >= 500), 0);
  const unavailable = runs.reduce((total, { result }) => total + statusCount(result, (status) => status === 503), 0);
  const refused = [...refusals.values()].reduce((total, n) => total + n, 0);
  console.log(
    `\nErrors: ${connectionErrors} connection errors and timeouts, ${fiveHundreds} server errors (5xx), ${unavailable} of them 503; ${refused} reseller API refusals.`,
  );
  if (serverErrors.size > 0) {
    // Not money discrepancies (the checks are), but worth reading: a 503 is the shop asking to retry.
    console.log('Server errors:');
    for (const [error, count] of [...serverErrors].sort((a, b) => b[1] - a[1])) console.log(`  ${count}× ${error}`);
  }
  if (refusals.size > 0) {
    console.log('Reseller API refusals (HTTP 200 {"error"}; 429s are in the statuses):');
    for (const [refusal, count] of [...refusals].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${count}× ${refusal}`);
  }
  return connectionErrors + fiveHundreds + refused > 0;
}

export function printChecks(checks: Check[]): void {
  for (const check of checks) {
    console.log(`${check.problems.length === 0 ? 'ok  ' : 'FAIL'}  ${check.name}`);
    for (const problem of check.problems.slice(0, 20)) console.log(`        ${problem}`);
    if (check.problems.length > 20) console.log(`        ... and ${check.problems.length - 20} more`);
  }
}
