// Neon's SQL-over-HTTP endpoint in front of local Postgres, so the Worker's `neon()` /
// `drizzle-orm/neon-http` code runs locally exactly as against Neon (neonConfig.fetchEndpoint points
// here). It follows Neon's proxy (proxy/src/serverless/sql_over_http.rs): POST /sql with
// `{query, params}` or `{queries: [...]}` (one transaction), the `Neon-*` headers, answers of raw
// Postgres text with the fields' type ids, and Postgres errors as 400 with their fields, which the
// driver raises as a NeonDbError. A pool per connection string keeps Postgres connections open, so
// each call costs one round trip, as on Neon.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import pg from 'pg';

export interface NeonHttpEndpoint {
  /** Value for the Worker's DB_HTTP_ENDPOINT binding (neonConfig.fetchEndpoint), e.g. "http://127.0.0.1:5490/sql". */
  url: string;
  /** What was asked of it so far. */
  traffic(): HttpTraffic;
  /**
   * Cuts the connection of every call in flight, as a network blip would: the caller gets no answer,
   * though its statements may still commit, as on Neon. Returns how many were cut.
   */
  dropConnections(): number;
  close(): Promise<void>;
}

export interface HttpTraffic {
  /** HTTP calls: one database round trip each. */
  calls: number;
  /** Statements run, a batch counting each of its own. */
  statements: number;
}

/** Neon's defaults for the largest request and answer (HttpConfig's max_request/response_size_bytes). */
const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
const MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

const ISOLATION_LEVELS: Record<string, string> = {
  Serializable: 'SERIALIZABLE',
  RepeatableRead: 'REPEATABLE READ',
  ReadCommitted: 'READ COMMITTED',
  ReadUncommitted: 'READ UNCOMMITTED',
};

/** Every column as Postgres' text: the driver parses it with its own type parsers. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

/** The Postgres error fields Neon forwards, in its order; absent ones are null. */
const ERROR_FIELDS = [
  'code',
  'detail',
  'hint',
  'position',
  'internalPosition',
  'internalQuery',
  'severity',
  'where',
  'table',
  'column',
  'schema',
  'dataType',
  'constraint',
  'file',
  'line',
  'routine',
] as const;

interface QueryData {
  query: string;
  params: Array<string | null>;
  arrayMode?: boolean;
}

interface Headers {
  arrayMode: boolean;
  isolationLevel?: string;
  readOnly: boolean;
  deferrable: boolean;
}

/** A failure Neon answers itself, before or around Postgres. */
class EndpointError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

// Neon's json_to_pg_text: parameters reach Postgres as text; arrays become array literals.
function paramToText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return arrayElementToText(value);
  return JSON.stringify(value);
}

function arrayElementToText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) return `{${value.map(arrayElementToText).join(',')}}`;
  if (typeof value === 'object') return JSON.stringify(JSON.stringify(value));
  return JSON.stringify(value);
}

function queryData(value: unknown): QueryData {
  const { query, params = [], arrayMode } = (value ?? {}) as { query?: unknown; params?: unknown; arrayMode?: unknown };
  if (typeof query !== 'string' || !Array.isArray(params) || (arrayMode !== undefined && typeof arrayMode !== 'boolean')) {
    throw new EndpointError(400, 'data did not match any variant of untagged enum Payload');
  }
  return { query, params: params.map(paramToText), arrayMode };
}

function parsePayload(body: string): QueryData | QueryData[] {
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch (error) {
    throw new EndpointError(400, `could not parse the request body as JSON: ${(error as Error).message}`);
  }
  const { queries } = (payload ?? {}) as { queries?: unknown };
  if (typeof (payload as { query?: unknown })?.query !== 'string' && Array.isArray(queries)) return queries.map(queryData);
  return queryData(payload);
}

function parseHeaders(request: http.IncomingMessage): Headers {
  const level = request.headers['neon-batch-isolation-level'];
  if (level !== undefined && !Object.hasOwn(ISOLATION_LEVELS, String(level))) throw new EndpointError(400, 'invalid isolation level');
  // Neon is strict: anything but exactly "true" is false.
  if (request.headers['neon-raw-text-output'] !== 'true') {
    // Neon would turn the text into JSON numbers, booleans and arrays; @neondatabase/serverless never asks for that.
    throw new EndpointError(400, 'this local endpoint answers raw text only: send Neon-Raw-Text-Output: true, as @neondatabase/serverless does');
  }
  return {
    arrayMode: request.headers['neon-array-mode'] === 'true',
    isolationLevel: level === undefined ? undefined : String(level),
    readOnly: request.headers['neon-batch-read-only'] === 'true',
    deferrable: request.headers['neon-batch-deferrable'] === 'true',
  };
}

async function runQuery(client: pg.PoolClient, data: QueryData, headers: Headers) {
  const arrayMode = data.arrayMode ?? headers.arrayMode;
  // Extended protocol even without parameters, as Neon's query_raw_txt: one statement per query.
  const config = { text: data.query, values: data.params, rowMode: 'array' as const, types: RAW_TEXT, queryMode: 'extended' };
  const result = await client.query<unknown[]>(config);
  const names = result.fields.map((field) => field.name);
  return {
    rowAsArray: arrayMode,
    fields: result.fields.map((field) => ({
      name: field.name,
      dataTypeID: field.dataTypeID,
      tableID: field.tableID,
      columnID: field.columnID,
      dataTypeSize: field.dataTypeSize,
      dataTypeModifier: field.dataTypeModifier,
      format: 'text',
    })),
    rows: arrayMode ? result.rows : result.rows.map((row) => Object.fromEntries(row.map((value, i) => [names[i], value]))),
    command: result.command ?? '',
    rowCount: result.rowCount,
  };
}

function beginStatement(headers: Headers): string {
  const modes = [
    headers.isolationLevel && `ISOLATION LEVEL ${ISOLATION_LEVELS[headers.isolationLevel]}`,
    headers.readOnly && 'READ ONLY',
    headers.deferrable && 'DEFERRABLE',
  ].filter(Boolean);
  return `BEGIN ${modes.join(', ')}`.trim();
}

/**
 * Runs one call on a pooled connection. As on Neon, the connection goes back to the pool only when
 * idle and sound: not after a failed single statement, a failed BEGIN or COMMIT, or a failed ROLLBACK.
 */
async function execute(pool: pg.Pool, payload: QueryData | QueryData[], headers: Headers) {
  const client = await pool.connect();
  let sound = false;
  try {
    if (!Array.isArray(payload)) {
      const result = await runQuery(client, payload, headers);
      sound = true;
      return result;
    }
    await client.query(beginStatement(headers));
    const results = [];
    try {
      for (const query of payload) results.push(await runQuery(client, query, headers));
    } catch (error) {
      sound = await client.query('ROLLBACK').then(
        () => true,
        () => false,
      );
      throw error;
    }
    await client.query('COMMIT');
    sound = true;
    return { results };
  } finally {
    client.release(!sound);
  }
}

/**
 * Neon's error answer: the message and every Postgres error field (null when absent; code and
 * severity empty when the failure is not Postgres'). A Postgres error is the caller's (400),
 * anything else the server's.
 */
function errorAnswer(error: unknown): { status: number; body: Record<string, unknown> } {
  const fromPostgres = error instanceof pg.DatabaseError;
  const source = (fromPostgres ? error : {}) as unknown as Record<string, unknown>;
  const body: Record<string, unknown> = { message: error instanceof Error ? error.message : String(error) };
  for (const field of ERROR_FIELDS) body[field] = source[field] ?? null;
  if (!fromPostgres) Object.assign(body, { code: '', severity: '' });
  return { status: error instanceof EndpointError ? error.status : fromPostgres ? 400 : 500, body };
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        reject(new EndpointError(413, `request is too large (max is ${MAX_REQUEST_BYTES} bytes)`));
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startNeonHttp(options: {
  port: number;
  /** The only Postgres it connects to, whatever host the connection string names (the port must match). */
  allowedTarget: { host: string; port: number };
  /** Milliseconds added to the request's and to the answer's trip: the bench's edge-to-region distance. */
  latencyMs?: number;
}): Promise<NeonHttpEndpoint> {
  const latency = options.latencyMs ?? 0;
  const traffic: HttpTraffic = { calls: 0, statements: 0 };
  const pools = new Map<string, pg.Pool>();

  const poolFor = (connectionString: string | string[] | undefined): pg.Pool => {
    if (typeof connectionString !== 'string') throw new EndpointError(400, 'missing Neon-Connection-String header');
    const existing = pools.get(connectionString);
    if (existing) return existing;
    let url: URL;
    try {
      url = new URL(connectionString);
    } catch {
      throw new EndpointError(400, 'invalid Neon-Connection-String header');
    }
    if (Number(url.port || 5432) !== options.allowedTarget.port)
      throw new EndpointError(400, 'connection string names a database this endpoint does not serve');
    const pool = new pg.Pool({
      host: options.allowedTarget.host,
      port: options.allowedTarget.port,
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      database: decodeURIComponent(url.pathname.slice(1)),
      application_name: url.searchParams.get('application_name') ?? undefined,
      max: 20,
    });
    // An idle connection Postgres closed (a restart, a terminated backend) must not crash the stack.
    pool.on('error', () => {});
    pools.set(connectionString, pool);
    return pool;
  };

  const inFlight = new Set<Socket>();
  const delay = () => (latency > 0 ? new Promise((resolve) => setTimeout(resolve, latency)) : Promise.resolve());

  const server = http.createServer(async (request, response) => {
    let status = 200;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
    let body: unknown;
    inFlight.add(request.socket);
    response.once('close', () => inFlight.delete(request.socket));
    try {
      if (request.method !== 'POST' || new URL(request.url ?? '/', 'http://endpoint').pathname !== '/sql') throw new EndpointError(404, 'not found: POST /sql');
      const text = await readBody(request);
      await delay();
      traffic.calls += 1;
      const parsed = parseHeaders(request);
      const payload = parsePayload(text);
      traffic.statements += Array.isArray(payload) ? payload.length : 1;
      const pool = poolFor(request.headers['neon-connection-string']);
      body = await execute(pool, payload, parsed);
      if (Array.isArray(payload)) {
        if (parsed.readOnly) headers['neon-batch-read-only'] = 'true';
        if (parsed.deferrable) headers['neon-batch-deferrable'] = 'true';
        if (parsed.isolationLevel) headers['neon-batch-isolation-level'] = parsed.isolationLevel;
      }
    } catch (error) {
      ({ status, body } = errorAnswer(error));
    }
    let json = JSON.stringify(body);
    if (status === 200 && Buffer.byteLength(json) > MAX_RESPONSE_BYTES) {
      status = 507;
      json = JSON.stringify(errorAnswer(new EndpointError(507, `response is too large (max is ${MAX_RESPONSE_BYTES} bytes)`)).body);
    }
    await delay();
    if (!response.destroyed) response.writeHead(status, headers).end(json);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sql`,
    traffic: () => ({ ...traffic }),
    dropConnections: () => {
      const cut = [...inFlight];
      for (const socket of cut) socket.destroy();
      inFlight.clear();
      return cut.length;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...pools.values()].map((pool) => pool.end()));
    },
  };
}
