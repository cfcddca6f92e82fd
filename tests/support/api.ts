// Helpers for Worker tests: calls through the real Worker (SELF.fetch) and direct
// database access (inside workerd, through the same Neon driver) for setup and assertions.
import { env, SELF } from 'cloudflare:test';
import { neonConfig } from '@neondatabase/serverless';
import { and, asc, eq, TransactionRollbackError } from 'drizzle-orm';
import type { PgTransactionConfig } from 'drizzle-orm/pg-core';
import { auditLog, users } from '../../drizzle/schema';
import { USER_TYPE } from '../../vocabulary';
import worker from '../../worker';
import { type Db, type DbOrTx, openDatabase } from '../../worker/db';
import { registerUser } from '../../worker/services/accounts/auth';

export const BASE = 'http://shop.test/api/v1';

let counter = 0;
/** A unique value per call, so tests never depend on each other's data or order. */
export function unique(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
}

export function uniqueIp(): string {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export async function call(path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'cf-connecting-ip': options.ip ?? uniqueIp(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await SELF.fetch(`${BASE}/${path.replace(/^\//, '')}`, { method: options.method ?? (body ? 'POST' : 'GET'), headers, body });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the tests read each answer field by field (res.body.data.id); a field they misread fails their expect()
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, body: json, headers: response.headers };
}

/** An error answer without its request id, which differs on every answer: for comparing two refusals. */
export function withoutRequestId(body: { requestId?: string }) {
  const { requestId: _unique, ...rest } = body;
  return rest;
}

/** Runs fn with a database handle and closes it afterwards. */
export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const { db, close } = openDatabase(env);
  try {
    return await fn(db);
  } finally {
    await close();
  }
}

/** Runs fn in a transaction that is always rolled back, so no other test file sees what it plants (or fails on it). */
export async function rolledBack(fn: (tx: DbOrTx) => Promise<void>, config?: PgTransactionConfig): Promise<void> {
  await withDb((db) =>
    db
      .transaction(async (tx) => {
        await fn(tx);
        tx.rollback();
      }, config)
      .catch((error) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      }),
  );
}

/**
 * The queue's deliveries, held while database work is counted: the consumer runs in this isolate, so a submission
 * running meanwhile (an order placed by an earlier call) would be counted as the counted call's. A delivery that arrives
 * during a count waits for its end; a count starts once the deliveries already running are done.
 */
const deliveries = { running: new Set<Promise<unknown>>(), held: null as Promise<void> | null };
const consume = worker.queue;
worker.queue = async (batch, workerEnv) => {
  while (deliveries.held) await deliveries.held;
  const running = consume(batch, workerEnv);
  deliveries.running.add(running);
  try {
    return await running;
  } finally {
    deliveries.running.delete(running);
  }
};

/**
 * Database work done in this isolate while fn runs, counted where the driver leaves it: HTTP calls
 * (one round trip each: a statement, or a batch as one transaction) and WebSockets opened (a
 * transaction's Pool connection, about four round trips at the edge). The Worker under SELF.fetch
 * runs in this isolate too, so a call's own work is counted; tests in a file run one at a time, and
 * the queue's deliveries wait (above).
 */
export async function countingDatabaseWork<T>(fn: () => Promise<T>): Promise<{ result: T; httpCalls: number; webSockets: number }> {
  let release = () => {};
  deliveries.held = new Promise((resolve) => {
    release = resolve;
  });
  await Promise.allSettled([...deliveries.running]);
  const saved = { fetchFunction: neonConfig.fetchFunction, webSocketConstructor: neonConfig.webSocketConstructor };
  let httpCalls = 0;
  let webSockets = 0;
  neonConfig.fetchFunction = (...args: Parameters<typeof fetch>) => {
    httpCalls += 1;
    return fetch(...args);
  };
  // The driver calls it with `new`; a function that returns an object makes `new` give that object: the real socket.
  neonConfig.webSocketConstructor = function countedWebSocket(url: string) {
    webSockets += 1;
    return new WebSocket(url);
  } as unknown as typeof WebSocket;
  try {
    const result = await fn();
    return { result, httpCalls, webSockets };
  } finally {
    neonConfig.fetchFunction = saved.fetchFunction;
    neonConfig.webSocketConstructor = saved.webSocketConstructor;
    deliveries.held = null;
    release();
  }
}

/** Runs fn with a database handle of its own and counts its HTTP calls and WebSockets (countingDatabaseWork). */
export const countingRoundTrips = <T>(fn: (db: Db) => Promise<T>) => countingDatabaseWork(() => withDb(fn));

/** The audit log's entries that match every field given (who did what to what), in the order they were written. */
export function auditEntries(match: { actorId?: number; action?: string; targetType?: string; targetId?: string | number }) {
  const { actorId, action, targetType, targetId } = match;
  return withDb((db) =>
    db
      .select()
      .from(auditLog)
      .where(
        and(
          actorId === undefined ? undefined : eq(auditLog.actorId, actorId),
          action === undefined ? undefined : eq(auditLog.action, action),
          targetType === undefined ? undefined : eq(auditLog.targetType, targetType),
          targetId === undefined ? undefined : eq(auditLog.targetId, String(targetId)),
        ),
      )
      .orderBy(asc(auditLog.id)),
  );
}

export interface TestAccount {
  id: number;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

/**
 * A customer who registered and (unless `verified: false`) confirmed their address, as most have: the
 * confirmation link itself is exercised by the tests of verified addresses, so the rest mark it in the table.
 */
export async function registerAndLogin(
  overrides: { fullName?: string; password?: string; referralCode?: string; verified?: boolean } = {},
): Promise<TestAccount> {
  const email = `${unique()}@example.com`;
  const password = overrides.password ?? 'correct-horse-1';
  const registered = await call('auth/register', {
    body: { fullName: overrides.fullName ?? 'Test User', email, password, userType: 2, referralCode: overrides.referralCode },
  });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  if (overrides.verified !== false) await markEmailVerified(registered.body.user.id);
  return login(email, password);
}

export async function markEmailVerified(userId: number) {
  await withDb((db) => db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, userId)));
}

export async function login(email: string, password: string): Promise<TestAccount> {
  const response = await call('auth/login', { body: { email, password } });
  if (response.status !== 200) throw new Error(`login failed: ${JSON.stringify(response.body)}`);
  return { id: response.body.user.id, email, password, accessToken: response.body.accessToken, refreshToken: response.body.refreshToken };
}

/** Administrators are never created through the public API; tests make them as the seed does. */
export async function createAdmin(): Promise<TestAccount> {
  const email = `${unique('admin')}@example.com`;
  const password = 'admin-password-1';
  const admin = await withDb((db) => registerUser(db, { fullName: 'Test Admin', email, password }, USER_TYPE.admin));
  await markEmailVerified(admin.id);
  return login(email, password);
}

export async function setUserStatus(userId: number, status: 'active' | 'suspended') {
  await withDb((db) => db.update(users).set({ status }).where(eq(users.id, userId)));
}
