// Helpers for Worker tests: calls through the real Worker (SELF.fetch) and direct
// database access (inside workerd, through the same Neon driver) for setup and assertions.
import { env, SELF } from 'cloudflare:test';
import type { Pool } from '@neondatabase/serverless';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/neon-serverless';
import * as schema from '../../drizzle/schema';
import { USER_TYPE, users } from '../../drizzle/schema';
import { openDatabase, type Db } from '../../worker/db';
import { registerUser } from '../../worker/services/auth';

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
  let json: any = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: response.status, body: json, headers: response.headers };
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

/**
 * Runs fn with a database handle that counts the statements it sends (BEGIN and COMMIT too), the
 * round trips the benchmark counts at the bridge.
 */
export async function countingStatements<T>(fn: (db: Db) => Promise<T>): Promise<{ result: T; statements: number }> {
  return withDb(async (db) => {
    let statements = 0;
    const counted = drizzle((db as Db & { $client: Pool }).$client, { schema, logger: { logQuery: () => (statements += 1) } });
    const result = await fn(counted);
    return { result, statements };
  });
}

export interface TestAccount {
  id: number;
  email: string;
  password: string;
  accessToken: string;
  refreshToken: string;
}

export async function registerAndLogin(overrides: { fullName?: string; password?: string; referralCode?: string } = {}): Promise<TestAccount> {
  const email = `${unique()}@example.com`;
  const password = overrides.password ?? 'correct-horse-1';
  const registered = await call('auth/register', { body: { fullName: overrides.fullName ?? 'Test User', email, password, userType: 2, referralCode: overrides.referralCode } });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  return login(email, password);
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
  await withDb((db) => registerUser(db, { fullName: 'Test Admin', email, password }, USER_TYPE.admin));
  return login(email, password);
}

export async function setUserStatus(userId: number, status: 'active' | 'suspended') {
  await withDb((db) => db.update(users).set({ status }).where(eq(users.id, userId)));
}
