// "Export CSV" writes the file on the admin-jobs queue, not in the request: starting it answers at once, the screen
// reads the export until it is done, then downloads a file that is the filtered ledger, once and whole or not at all.
import { env, SELF } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerExports } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import { ADMIN_JOB_LOST_AFTER_MINUTES, type Env } from '../../../worker/env';
import { scheduledJobs } from '../../../worker/scheduled';
import { consumeAdminJobs } from '../../../worker/services/money/admin-jobs';
import { forgetOldLedgerExports, runLedgerExport, startLedgerExport } from '../../../worker/services/money/ledger-export-jobs';
import { BASE, call, createAdmin, registerAndLogin, unique, withDb } from '../../support/api';
import { exportedCsv, exportOver, writtenExport } from '../../support/ledger-export';

const HEADER = 'id,user_id,email,type,amount_ngn,balance_after_ngn,source,reference,description,created_at';

async function creditedUser(admin: { accessToken: string }, amounts: number[]) {
  const user = await registerAndLogin();
  for (const amount of amounts) {
    const credited = await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount, reference: unique('exp'), userId: user.id } });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);
  }
  return user;
}

const savedExport = async (id: number) => (await withDb((db) => db.select().from(ledgerExports).where(eq(ledgerExports.id, id))))[0];

describe('the ledger export on the admin-jobs queue', () => {
  it('answers at once with the export queued, then reads done with its rows, and its file is the filtered ledger', async () => {
    const admin = await createAdmin();
    const user = await creditedUser(admin, [100, 250.5]);
    const started = await call('admin/transactions/exports', { method: 'POST', token: admin.accessToken, body: { userId: user.id, type: 1 } });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body).toMatchObject({ message: 'The export is being prepared', data: { filters: { userId: user.id, type: 1 }, rows: null, error: null } });
    expect(['queued', 'running', 'done']).toContain(started.body.data.state);

    const id = started.body.data.id;
    expect(await exportOver(admin.accessToken, id)).toBe('done');
    const read = await call(`admin/transactions/exports/${id}`, { token: admin.accessToken });
    expect(read.body.data).toMatchObject({ id, state: 'done', rows: 2, error: null });
    expect(Date.parse(read.body.data.finishedAt)).toBeGreaterThanOrEqual(Date.parse(read.body.data.createdAt));

    const file = await call(`admin/transactions/exports/${id}/file`, { token: admin.accessToken });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename="transactions.csv"');
    const lines = String(file.body).trimEnd().split('\r\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"250.50"');
    expect(lines[2]).toContain('"100.00"');
    expect(lines.every((line) => line === HEADER || line.includes(`"${user.email}"`))).toBe(true);
  });

  it('sends the file gzipped to a client that takes gzip, the same text unpacked', async () => {
    const admin = await createAdmin();
    const user = await creditedUser(admin, [42]);
    const exportId = await writtenExport(admin.accessToken, { userId: user.id });
    const text = String((await call(`admin/transactions/exports/${exportId}/file`, { token: admin.accessToken })).body);
    const gzipped = await SELF.fetch(`${BASE}/admin/transactions/exports/${exportId}/file`, {
      headers: { authorization: `Bearer ${admin.accessToken}`, 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    // fetch unpacks it as a browser does: packed twice, it would read as gzip's bytes rather than the text.
    expect(await gzipped.text()).toBe(text);
    expect(text.split('\r\n')[1]).toContain('"42.00"');
  });

  it('writes a header alone for filters that pick no row', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    expect(await exportedCsv(admin.accessToken, { userId: user.id })).toBe(`${HEADER}\r\n`);
  });

  it('refuses bad filters, a file not yet written and an export that does not exist, and everyone but administrators', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const bad = await call('admin/transactions/exports', { method: 'POST', token: admin.accessToken, body: { type: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('type must be 1 (deposit) or 2 (withdrawal)');
    expect((await call('admin/transactions/exports/99999999', { token: admin.accessToken })).status).toBe(404);
    expect((await call('admin/transactions/exports/abc', { token: admin.accessToken })).status).toBe(400);
    const [queued] = await withDb((db) => db.insert(ledgerExports).values({ filters: {}, requestedBy: admin.id }).returning({ id: ledgerExports.id }));
    const early = await call(`admin/transactions/exports/${queued.id}/file`, { token: admin.accessToken });
    expect(early.status).toBe(404);
    expect(early.body.message).toBe('The file is not ready');
    expect((await call('admin/transactions/exports', { method: 'POST', token: user.accessToken, body: {} })).status).toBe(403);
    expect((await call(`admin/transactions/exports/${queued.id}`, { token: user.accessToken })).status).toBe(403);
    expect((await call('admin/transactions/exports', { method: 'POST', body: {} })).status).toBe(401);
  });

  it('sends a written file to a live administrator session alone', async () => {
    const admin = await createAdmin();
    const other = await createAdmin();
    const user = await creditedUser(admin, [7]);
    const path = `admin/transactions/exports/${await writtenExport(admin.accessToken, { userId: user.id })}/file`;
    const refused = async (token?: string) => {
      const answer = await call(path, { token });
      return [answer.status, answer.body.message];
    };

    expect(await refused(user.accessToken)).toEqual([403, expect.any(String)]);
    expect(await refused()).toEqual([401, expect.any(String)]);
    expect(await refused('not-a-token')).toEqual([401, expect.any(String)]);
    // Any administrator may download it; one signed out may not, with the file there all along.
    expect((await call(path, { token: other.accessToken })).status).toBe(200);
    expect((await call('auth/logout', { method: 'POST', token: other.accessToken })).status).toBe(200);
    expect(await refused(other.accessToken)).toEqual([401, expect.any(String)]);
    expect((await call(path, { token: admin.accessToken })).status).toBe(200);
    expect((await call('admin/transactions/exports/abc/file', { token: admin.accessToken })).status).toBe(400);
  });

  it('writes a file once: its message delivered again after the file was written changes nothing', async () => {
    const admin = await createAdmin();
    const user = await creditedUser(admin, [7]);
    await exportedCsv(admin.accessToken, { userId: user.id });
    const [done] = await withDb((db) =>
      db
        .select()
        .from(ledgerExports)
        .where(sql`${ledgerExports.filters}->>'userId' = ${String(user.id)}`),
    );
    await creditedUser(admin, [8]);
    let acked = 0;
    const message = { body: { kind: 'ledger-export', exportId: done.id }, ack: () => (acked += 1), retry: () => undefined };
    await consumeAdminJobs({ queue: 'admin-jobs', messages: [message] } as unknown as MessageBatch<unknown>, env);
    expect(acked).toBe(1);
    expect(await savedExport(done.id)).toEqual(done);
  });

  it('writes a file once when its message is delivered twice at the same moment', async () => {
    const admin = await createAdmin();
    const user = await creditedUser(admin, [9, 10]);
    const [queued] = await withDb((db) =>
      db
        .insert(ledgerExports)
        .values({ filters: { userId: user.id }, requestedBy: admin.id })
        .returning({ id: ledgerExports.id }),
    );
    const started: string[] = [];
    // The job uses put alone: a bucket that notes each file it is asked to store.
    const watched = {
      put: (...args: Parameters<R2Bucket['put']>) => {
        started.push(args[0]);
        return env.EXPORT_FILES.put(...args);
      },
    } as R2Bucket;
    await Promise.all([withDb((db) => runLedgerExport(db, watched, queued.id)), withDb((db) => runLedgerExport(db, watched, queued.id))]);
    expect(started).toEqual([`ledger-exports/${queued.id}.csv.gz`]);
    expect(await savedExport(queued.id)).toMatchObject({ state: 'done', rowCount: 2 });
    const file = await call(`admin/transactions/exports/${queued.id}/file`, { token: admin.accessToken });
    expect(String(file.body).trimEnd().split('\r\n')).toHaveLength(3);
  });

  it('acknowledges and drops a message it cannot read, and runs the next one', async () => {
    const admin = await createAdmin();
    const [queued] = await withDb((db) => db.insert(ledgerExports).values({ filters: {}, requestedBy: admin.id }).returning({ id: ledgerExports.id }));
    const acked: string[] = [];
    const messages = [
      { body: { kind: 'ledger-export', exportId: 'one' }, ack: () => acked.push('unreadable'), retry: () => undefined },
      { body: { kind: 'ledger-export', exportId: queued.id }, ack: () => acked.push('export'), retry: () => undefined },
    ];
    await consumeAdminJobs({ queue: 'admin-jobs', messages } as unknown as MessageBatch<unknown>, env);
    expect(acked).toEqual(['unreadable', 'export']);
    expect((await savedExport(queued.id)).state).toBe('done');
  });

  it('reads an export lost with its Worker as failed with why, and its message arriving later writes nothing', async () => {
    const admin = await createAdmin();
    const [lost] = await withDb((db) =>
      db
        .insert(ledgerExports)
        .values({ filters: {}, requestedBy: admin.id, createdAt: sql`now() - make_interval(mins => ${ADMIN_JOB_LOST_AFTER_MINUTES + 1})` })
        .returning({ id: ledgerExports.id }),
    );
    const read = await call(`admin/transactions/exports/${lost.id}`, { token: admin.accessToken });
    expect(read.body.data).toMatchObject({ state: 'failed', error: 'The export stopped before the file was written; start it again.' });
    await withDb((db) => runLedgerExport(db, env.EXPORT_FILES, lost.id));
    expect(await savedExport(lost.id)).toMatchObject({ state: 'queued' });
    expect(await env.EXPORT_FILES.head(`ledger-exports/${lost.id}.csv.gz`)).toBeNull();
  });

  it('says so when the queue refuses the export', async () => {
    const admin = await createAdmin();
    const queueDown = { ...env, ADMIN_JOBS: { send: () => Promise.reject(new Error('queue unavailable')) } } as unknown as Env;
    const marker = unique('refused');
    await expect(withDb((db) => startLedgerExport(db, queueDown, admin.id, { search: marker }))).rejects.toThrow('queue unavailable');
    const [refused] = await withDb((db) => db.select().from(ledgerExports).where(sql`${ledgerExports.filters}->>'search' = ${marker}`));
    expect(refused).toMatchObject({ state: 'failed', error: 'The export could not be queued; start it again.' });
  });

  it('leaves an export failed with why, and no file, when the ledger cannot be read', async () => {
    const admin = await createAdmin();
    const [queued] = await withDb((db) => db.insert(ledgerExports).values({ filters: {}, requestedBy: admin.id }).returning({ id: ledgerExports.id }));
    await withDb((db) => {
      const readsFail = new Proxy(db, {
        get: (target, key, receiver) =>
          key === 'select'
            ? () => {
                throw new Error('connection lost');
              }
            : Reflect.get(target, key, receiver),
      }) as Db;
      return runLedgerExport(readsFail, env.EXPORT_FILES, queued.id);
    });
    const read = await call(`admin/transactions/exports/${queued.id}`, { token: admin.accessToken });
    expect(read.body.data).toMatchObject({ state: 'failed', rows: null, error: 'The file could not be written; start the export again.' });
    expect(await env.EXPORT_FILES.head(`ledger-exports/${queued.id}.csv.gz`)).toBeNull();
    const file = await call(`admin/transactions/exports/${queued.id}/file`, { token: admin.accessToken });
    expect([file.status, file.body.message]).toEqual([404, 'The file could not be written; start the export again.']);
  });

  it('forgets an export and its file a day after it was asked for, whatever its state, and keeps a younger one', async () => {
    const admin = await createAdmin();
    const marker = unique('aged');
    const planted = await withDb((db) =>
      db
        .insert(ledgerExports)
        .values([
          { filters: { search: marker }, requestedBy: admin.id, state: 'done', createdAt: sql`now() - interval '25 hours'` },
          { filters: { search: marker }, requestedBy: admin.id, state: 'failed', createdAt: sql`now() - interval '2 days'` },
          { filters: { search: marker }, requestedBy: admin.id, state: 'done', createdAt: sql`now() - interval '23 hours'` },
        ])
        .returning({ id: ledgerExports.id }),
    );
    for (const { id } of planted) await env.EXPORT_FILES.put(`ledger-exports/${id}.csv.gz`, 'file');
    expect(Object.keys(scheduledJobs)).toContain('forgetOldLedgerExports');
    // Every export over a day old in the shared database goes, this test's among them.
    for (let run = 0; run < 20 && (await withDb((db) => forgetOldLedgerExports(db, env.EXPORT_FILES, 2))).forgotten > 0; run += 1);
    const kept = await withDb((db) => db.select({ id: ledgerExports.id }).from(ledgerExports).where(sql`${ledgerExports.filters}->>'search' = ${marker}`));
    expect(kept.map((row) => row.id)).toEqual([planted[2].id]);
    const files = await Promise.all(planted.map(({ id }) => env.EXPORT_FILES.head(`ledger-exports/${id}.csv.gz`)));
    expect(files.map((file) => file !== null)).toEqual([false, false, true]);
    const forgotten = await call(`admin/transactions/exports/${planted[0].id}/file`, { token: admin.accessToken });
    expect([forgotten.status, forgotten.body.message]).toEqual([404, 'Export not found']);
  });
});
