// The plans of the hot statements, at full volume: each call is run once more through the Worker's own app in
// this process (worker/app.ts, the same handlers and queries, on the stack's SQL-over-HTTP endpoint), every
// statement it sends is caught on its way out (the Neon driver's fetchFunction), and each read is EXPLAIN
// (ANALYZE, BUFFERS)ed with its parameters straight in Postgres, inside a transaction that is rolled back.
import { neonConfig } from '@neondatabase/serverless';
import pg from 'pg';
import { app } from '../../../worker/app';
import type { Env } from '../../../worker/env';
import type { RunningStack } from '../../stack/stack';

export interface StatementPlan {
  sql: string;
  params: unknown[];
  executionMs: number | null;
  /** What in the plan costs at volume: sequential scans of many rows, sorts spilled to disk, window totals, OFFSET, rows filtered away. */
  findings: string[];
  plan: string;
}

export interface CallPlans {
  name: string;
  path: string;
  status: number;
  statements: StatementPlan[];
  error?: string;
}

/** An EXPLAIN ANALYZE that runs longer is cut off (the finding then says so). */
const EXPLAIN_TIMEOUT_S = Number(process.env.SCALE_EXPLAIN_TIMEOUT_S ?? 60);

interface Captured {
  query: string;
  params: unknown[];
}

function workerEnv(stack: RunningStack): Env {
  return {
    DATABASE_URL: stack.databaseUrl,
    DB_WS_PROXY: stack.dbWsProxy,
    DB_HTTP_ENDPOINT: stack.dbHttpEndpoint,
    APP_URL: stack.url,
    ENVIRONMENT: 'development',
    JWT_SECRET: stack.secrets.JWT_SECRET,
    ENCRYPTION_KEY: stack.secrets.ENCRYPTION_KEY,
    PAYSTACK_SECRET_KEY: stack.secrets.PAYSTACK_SECRET_KEY,
    PAYSTACK_BASE_URL: stack.fakes.paystackUrl,
    FLUTTERWAVE_SECRET_KEY: stack.secrets.FLUTTERWAVE_SECRET_KEY,
    FLUTTERWAVE_SECRET_HASH: stack.secrets.FLUTTERWAVE_SECRET_HASH,
    FLUTTERWAVE_BASE_URL: stack.fakes.flutterwaveUrl,
  } as unknown as Env;
}

/** The notable parts of a text plan. */
export function planFindings(sql: string, params: unknown[], plan: string): string[] {
  const findings: string[] = [];
  for (const match of plan.matchAll(/(Parallel )?Seq Scan on (\w+)[^\n]*actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)/g)) {
    const rows = Number(match[4]) * Number(match[5]);
    if (rows >= 10_000 || Number(match[3]) > 50) findings.push(`seq scan on ${match[2]} (${rows} rows, ${match[3]} ms)`);
  }
  for (const match of plan.matchAll(/Rows Removed by Filter: (\d+)/g)) if (Number(match[1]) >= 10_000) findings.push(`${match[1]} rows removed by filter`);
  if (/Sort Method: external/.test(plan)) findings.push('sort spilled to disk (external merge)');
  for (const match of plan.matchAll(/Sort Method: top-N heapsort[^\n]*\n?/g)) void match;
  if (/WindowAgg/.test(plan) && /count\(\*\) over \(\)/i.test(sql)) findings.push('count(*) over () (the total counts every matching row)');
  else if (/count\(/i.test(sql) && /Aggregate/.test(plan)) {
    const agg = /Aggregate[^\n]*actual time=[\d.]+\.\.([\d.]+) rows=\d+/.exec(plan);
    if (agg && Number(agg[1]) > 50) findings.push(`aggregate over many rows (${agg[1]} ms)`);
  }
  const offset = /\boffset\s+\$(\d+)/i.exec(sql);
  if (offset) {
    const value = Number(params[Number(offset[1]) - 1]);
    if (value > 0) findings.push(`OFFSET ${value}`);
  } else if (/\boffset\s+(\d+)/i.test(sql) && Number(/\boffset\s+(\d+)/i.exec(sql)?.[1]) > 0) findings.push(`OFFSET ${/\boffset\s+(\d+)/i.exec(sql)?.[1]}`);
  const temp = /temp read=(\d+)/.exec(plan);
  if (temp && Number(temp[1]) > 0) findings.push(`temp files (${temp[1]} blocks read)`);
  return [...new Set(findings)];
}

/** Runs each call once through the app in this process and EXPLAINs every read it sent. */
export async function explainCalls(
  stack: RunningStack,
  calls: Array<{ name: string; path: string; headers: () => Promise<Record<string, string>> }>,
  log: (line: string) => void,
): Promise<CallPlans[]> {
  const env = workerEnv(stack);
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  await client.query(`set statement_timeout = '${EXPLAIN_TIMEOUT_S}s'`);
  const previous = neonConfig.fetchFunction;
  let captured: Captured[] = [];
  neonConfig.fetchFunction = async (url: string, init: RequestInit) => {
    try {
      const body = JSON.parse(String(init.body));
      if (Array.isArray(body.queries)) captured.push(...body.queries);
      else if (typeof body.query === 'string') captured.push(body);
    } catch {
      // not a statement
    }
    return fetch(url, init);
  };
  const out: CallPlans[] = [];
  try {
    for (const call of calls) {
      captured = [];
      log(`  explaining ${call.name}`);
      const waits: Promise<unknown>[] = [];
      const ctx = { waitUntil: (p: Promise<unknown>) => void waits.push(p), passThroughOnException() {}, props: {} };
      let status = 0;
      const headers = await call.headers();
      // The Worker's request log lines, which would go to this terminal, are left out.
      const print = console.log;
      console.log = () => {};
      try {
        const response = await app.fetch(new Request(`${stack.url}${call.path}`, { headers }), env, ctx as never);
        status = response.status;
        await response.arrayBuffer();
        await Promise.allSettled(waits);
      } catch (error) {
        out.push({ name: call.name, path: call.path, status, statements: [], error: String(error) });
        continue;
      } finally {
        console.log = print;
      }
      const seen = new Set<string>();
      const statements: StatementPlan[] = [];
      for (const { query, params } of captured) {
        if (!/^[\s(]*(select|with)\b/i.test(query) || /\b(insert|update|delete)\b/i.test(query.replace(/'[^']*'/g, ''))) continue;
        if (seen.has(query)) continue;
        seen.add(query);
        try {
          await client.query('begin');
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, format text) ${query}`, params as unknown[]);
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          const time = /Execution Time: ([\d.]+) ms/.exec(plan);
          statements.push({ sql: query, params, executionMs: time ? Number(time[1]) : null, findings: planFindings(query, params, plan), plan });
        } catch (error) {
          statements.push({ sql: query, params, executionMs: null, findings: [`could not EXPLAIN: ${String(error).slice(0, 200)}`], plan: '' });
        } finally {
          await client.query('rollback');
        }
      }
      statements.sort((x, y) => (y.executionMs ?? 0) - (x.executionMs ?? 0));
      out.push({ name: call.name, path: call.path, status, statements });
    }
  } finally {
    neonConfig.fetchFunction = previous;
    await client.end();
  }
  return out;
}
