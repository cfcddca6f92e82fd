// "Check everything" runs the full reconciliation on the admin-jobs queue, not in the request: starting it answers at
// once, the screen reads the run's state until it is done with its report, and one run is under way at a time.
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { settings } from '../../../drizzle/schema';
import type { Env } from '../../../worker/env';
import { consumeAdminJobs } from '../../../worker/services/money/admin-jobs';
import { type FullReconciliationRun, startFullReconciliation } from '../../../worker/services/money/reconciliation-full-run';
import { call, createAdmin, registerAndLogin, withDb } from '../../support/api';

const KEY = 'reconciliation_full_run';
const savedRun = async () => (await withDb((db) => db.select().from(settings).where(eq(settings.key, KEY))))[0]?.value as FullReconciliationRun | undefined;
/** Until no run is queued or running (none ever started counts): each test starts from there. */
const untilOver = (token: string) =>
  expect
    .poll(async () => (await call('admin/reconciliation/full', { token })).body.data?.state ?? 'none', { timeout: 60_000, interval: 100 })
    .toMatch(/^(done|failed|none)$/);

describe('the full reconciliation on demand', () => {
  it('answers at once with the run queued, then shows it done with the report of every row', async () => {
    const admin = await createAdmin();
    await untilOver(admin.accessToken);
    const started = await call('admin/reconciliation/full', { method: 'POST', token: admin.accessToken });
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ requestedBy: admin.id, report: null });
    expect(['queued', 'running', 'done']).toContain(started.body.data.state);

    await untilOver(admin.accessToken);
    const read = await call('admin/reconciliation/full', { token: admin.accessToken });
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject({
      state: 'done',
      requestedAt: started.body.data.requestedAt,
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      error: null,
      report: { scope: 'full', since: null, ok: expect.any(Boolean), walletsChecked: expect.any(Number) },
    });
    expect(read.body.data.report.walletsChecked).toBeGreaterThan(0);
  });

  it('starts one run when two administrators start it at once, and a new one once it is over', async () => {
    const [first, second] = [await createAdmin(), await createAdmin()];
    await untilOver(first.accessToken);
    const both = await Promise.all([first, second].map((admin) => call('admin/reconciliation/full', { method: 'POST', token: admin.accessToken })));
    expect(both.map((answer) => answer.status)).toEqual([202, 202]);
    expect(both[0].body.data.requestedAt).toBe(both[1].body.data.requestedAt);
    await untilOver(first.accessToken);

    const again = await call('admin/reconciliation/full', { method: 'POST', token: second.accessToken });
    expect(again.body.data.requestedAt > both[0].body.data.requestedAt).toBe(true);
    await untilOver(second.accessToken);
  });

  it('replaces a run lost 20 minutes ago (its Worker stopped) instead of waiting on it forever', async () => {
    const admin = await createAdmin();
    await untilOver(admin.accessToken);
    const lost = {
      state: 'running',
      requestedAt: '2026-01-01T00:00:00.000Z',
      requestedBy: admin.id,
      startedAt: null,
      finishedAt: null,
      report: null,
      error: null,
    };
    await withDb((db) =>
      db.execute(sql`
        insert into settings (key, value, updated_at) values (${KEY}, ${JSON.stringify(lost)}::jsonb, now() - interval '21 minutes')
        on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at`),
    );
    const started = await call('admin/reconciliation/full', { method: 'POST', token: admin.accessToken });
    expect(started.body.data.requestedAt).not.toBe(lost.requestedAt);
    await untilOver(admin.accessToken);
  });

  it('runs a message once: delivered again after its run, it changes nothing', async () => {
    const admin = await createAdmin();
    await untilOver(admin.accessToken);
    await call('admin/reconciliation/full', { method: 'POST', token: admin.accessToken });
    await untilOver(admin.accessToken);
    const done = await savedRun();
    let acked = 0;
    const message = { body: { kind: 'full-reconciliation', requestedAt: done!.requestedAt }, ack: () => (acked += 1), retry: () => undefined };
    await consumeAdminJobs({ queue: 'admin-jobs', messages: [message] } as unknown as MessageBatch<unknown>, env);
    expect(acked).toBe(1);
    expect(await savedRun()).toEqual(done);
  });

  it('says so when the queue refuses the run, and the next start queues a new one', async () => {
    const admin = await createAdmin();
    await untilOver(admin.accessToken);
    const queueDown = { ...env, ADMIN_JOBS: { send: () => Promise.reject(new Error('queue unavailable')) } } as unknown as Env;
    await expect(withDb((db) => startFullReconciliation(db, queueDown, admin.id))).rejects.toThrow('queue unavailable');
    expect(await savedRun()).toMatchObject({ state: 'failed', error: 'The check could not be queued; start it again.', requestedBy: admin.id });

    const again = await call('admin/reconciliation/full', { method: 'POST', token: admin.accessToken });
    expect(again.body.data.state).not.toBe('failed');
    await untilOver(admin.accessToken);
    expect(await savedRun()).toMatchObject({ state: 'done', requestedAt: again.body.data.requestedAt });
  });

  it('is for administrators alone', async () => {
    const user = await registerAndLogin();
    expect((await call('admin/reconciliation/full', { method: 'POST', token: user.accessToken })).status).toBe(403);
    expect((await call('admin/reconciliation/full', { token: user.accessToken })).status).toBe(403);
    expect((await call('admin/reconciliation/full', { method: 'POST' })).status).toBe(401);
  });
});
