// Data that ages (issue 30, part 3): the cron's retention job forgets only what has expired, a bounded amount per run.
// The database is shared: each test plants its own rows (old ones moved into the past in the database, never waited for)
// and asserts on those alone.
import { inArray, like, type SQL, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, emailOutbox, emailVerifications, notifications, passwordResets, rateLimits, refreshTokens, sessions, users } from '../../../drizzle/schema';
import { scheduledJobs } from '../../../worker/scheduled';
import { forgetAgedData, runRetention } from '../../../worker/services/oversight';
import { unique, withDb } from '../../support/api';

const ago = (interval: string): SQL => sql.raw(`now() - interval '${interval}'`);
const ahead = (interval: string): SQL => sql.raw(`now() + interval '${interval}'`);

async function newUser(): Promise<number> {
  const name = unique('ret');
  const [row] = await withDb((db) =>
    db
      .insert(users)
      .values({ fullName: 'Retention Test', email: `${name}@example.com`, username: name, passwordHash: 'x' })
      .returning({ id: users.id }),
  );
  return row.id;
}

async function newSession(userId: number, made: SQL, expires: SQL, revoked: SQL | null = null): Promise<string> {
  const [row] = await withDb((db) =>
    db
      .insert(sessions)
      .values({ userId, createdAt: made, expiresAt: expires, revokedAt: revoked, device: unique('dev') })
      .returning({ id: sessions.id }),
  );
  return row.id;
}

async function newRefreshToken(sessionId: string, made: SQL): Promise<string> {
  const tokenHash = unique('rt');
  await withDb((db) => db.insert(refreshTokens).values({ tokenHash, sessionId, createdAt: made, usedAt: made }));
  return tokenHash;
}

const left = {
  sessions: (ids: string[]) => withDb((db) => db.select({ id: sessions.id }).from(sessions).where(inArray(sessions.id, ids))).then((r) => r.map((x) => x.id)),
  refreshTokens: (hashes: string[]) =>
    withDb((db) => db.select({ id: refreshTokens.tokenHash }).from(refreshTokens).where(inArray(refreshTokens.tokenHash, hashes))).then((r) =>
      r.map((x) => x.id),
    ),
};

describe('retention', () => {
  it('forgets rate-limit windows that ended, and keeps those that may still count', async () => {
    const prefix = unique('retention-rl');
    await withDb((db) =>
      db.insert(rateLimits).values([
        { key: `${prefix}:ended`, windowStart: ago('3 days'), hits: 9 },
        // A day-long window that started 47 hours ago ended a day ago, but is still inside the two-day margin.
        { key: `${prefix}:margin`, windowStart: ago('47 hours'), hits: 9 },
        { key: `${prefix}:current`, windowStart: ago('10 seconds'), hits: 1 },
      ]),
    );
    const counts = await withDb((db) => forgetAgedData(db));
    expect(counts.rateLimits).toBeGreaterThanOrEqual(1);
    const kept = await withDb((db) =>
      db
        .select({ key: rateLimits.key })
        .from(rateLimits)
        .where(like(rateLimits.key, `${prefix}:%`)),
    );
    expect(kept.map((row) => row.key).sort()).toEqual([`${prefix}:current`, `${prefix}:margin`]);
  });

  it('forgets ended sessions and their refresh tokens, but never a live session or an account newest one', async () => {
    const [a, b, c] = [await newUser(), await newUser(), await newUser()];
    // a: an old sign-in long over, and a live one.
    const aOld = await newSession(a, ago('130 days'), ago('100 days'));
    const aOldToken = await newRefreshToken(aOld, ago('130 days'));
    const aLive = await newSession(a, ago('1 hour'), ahead('30 days'));
    const aLiveToken = await newRefreshToken(aLive, ago('1 hour'));
    const aLiveUsedToken = await newRefreshToken(aLive, ago('50 minutes'));
    // b: one sign-in long over: the account's newest, kept (so its next sign-in is not taken for a first); its token goes.
    const bOnly = await newSession(b, ago('130 days'), ago('100 days'));
    const bOnlyToken = await newRefreshToken(bOnly, ago('130 days'));
    // c: an ended session still within the 90 days (kept, its tokens gone), one just ended (tokens kept a week),
    // one revoked but not yet expired (kept with its tokens), and a revoked one long past (gone).
    const cEnded = await newSession(c, ago('100 days'), ago('70 days'));
    const cEndedToken = await newRefreshToken(cEnded, ago('100 days'));
    const cJustEnded = await newSession(c, ago('33 days'), ago('3 days'));
    const cJustEndedToken = await newRefreshToken(cJustEnded, ago('33 days'));
    const cRevoked = await newSession(c, ago('10 days'), ahead('20 days'), ago('9 days'));
    const cRevokedToken = await newRefreshToken(cRevoked, ago('10 days'));
    const cRevokedLongAgo = await newSession(c, ago('200 days'), ago('170 days'), ago('199 days'));

    await withDb((db) => forgetAgedData(db));

    expect((await left.sessions([aOld, aLive, bOnly, cEnded, cJustEnded, cRevoked, cRevokedLongAgo])).sort()).toEqual(
      [aLive, bOnly, cEnded, cJustEnded, cRevoked].sort(),
    );
    expect((await left.refreshTokens([aOldToken, aLiveToken, aLiveUsedToken, bOnlyToken, cEndedToken, cJustEndedToken, cRevokedToken])).sort()).toEqual(
      [aLiveToken, aLiveUsedToken, cJustEndedToken, cRevokedToken].sort(),
    );
  });

  it('forgets reset, invitation and confirmation links a week after they expired', async () => {
    const user = await newUser();
    const [gone, margin, valid] = [unique('pr'), unique('pr'), unique('pr')];
    await withDb((db) =>
      db.batch([
        db.insert(passwordResets).values([
          { tokenHash: `${gone}:reset`, userId: user, createdAt: ago('9 days'), expiresAt: ago('8 days') },
          { tokenHash: `${margin}:reset`, userId: user, purpose: 'promote', createdAt: ago('9 days'), expiresAt: ago('6 days') },
          { tokenHash: `${valid}:reset`, userId: user, expiresAt: ahead('30 minutes') },
        ]),
        db.insert(emailVerifications).values([
          { tokenHash: `${gone}:verify`, userId: user, email: 'a@example.com', createdAt: ago('10 days'), expiresAt: ago('8 days'), usedAt: ago('9 days') },
          { tokenHash: `${margin}:verify`, userId: user, email: 'a@example.com', createdAt: ago('8 days'), expiresAt: ago('6 days') },
          { tokenHash: `${valid}:verify`, userId: user, email: 'a@example.com', expiresAt: ahead('48 hours') },
        ]),
      ]),
    );
    await withDb((db) => forgetAgedData(db));
    const [resets, verifications] = await withDb((db) =>
      db.batch([
        db.select({ hash: passwordResets.tokenHash }).from(passwordResets).where(sql`${passwordResets.userId} = ${user}`),
        db.select({ hash: emailVerifications.tokenHash }).from(emailVerifications).where(sql`${emailVerifications.userId} = ${user}`),
      ]),
    );
    expect(resets.map((row) => row.hash).sort()).toEqual([`${margin}:reset`, `${valid}:reset`].sort());
    expect(verifications.map((row) => row.hash).sort()).toEqual([`${margin}:verify`, `${valid}:verify`].sort());
  });

  it('forgets read notifications after 90 days, never unread ones or any still to be emailed', async () => {
    const userId = await newUser();
    const row = (name: string, created: string, read: string | null, emailState: 'pending' | 'sent' | 'skipped' = 'sent') => ({
      userId,
      kind: 'order_completed' as const,
      eventKey: unique(name),
      title: name,
      body: name,
      createdAt: ago(created),
      readAt: read === null ? null : ago(read),
      emailState,
    });
    await withDb((db) =>
      db
        .insert(notifications)
        .values([
          row('old-read', '91 days', '90 days'),
          row('old-read-skipped', '200 days', '1 day', 'skipped'),
          row('old-unread', '200 days', null),
          row('old-read-unsent', '200 days', '100 days', 'pending'),
          row('recent-read', '89 days', '88 days'),
        ]),
    );
    await withDb((db) => forgetAgedData(db));
    const kept = await withDb((db) => db.select({ title: notifications.title }).from(notifications).where(sql`${notifications.userId} = ${userId}`));
    expect(kept.map((r) => r.title).sort()).toEqual(['old-read-unsent', 'old-unread', 'recent-read']);
  });

  it('forgets mail sent more than 30 days ago, never mail not sent', async () => {
    const to = `${unique('retention-mail')}@example.com`;
    await withDb((db) =>
      db.insert(emailOutbox).values([
        { toAddress: to, subject: 'sent long ago', body: '.', createdAt: ago('31 days'), sentAt: ago('31 days') },
        { toAddress: to, subject: 'sent lately', body: '.', createdAt: ago('29 days'), sentAt: ago('29 days') },
        { toAddress: to, subject: 'never sent', body: '.', createdAt: ago('200 days'), sentAt: null },
      ]),
    );
    await withDb((db) => forgetAgedData(db));
    const kept = await withDb((db) => db.select({ subject: emailOutbox.subject }).from(emailOutbox).where(sql`${emailOutbox.toAddress} = ${to}`));
    expect(kept.map((r) => r.subject).sort()).toEqual(['never sent', 'sent lately']);
  });

  it('keeps the audit log however old', async () => {
    const action = unique('retention.audit');
    await withDb((db) => db.insert(auditLog).values({ action, targetType: 'settings', createdAt: ago('3650 days') }));
    await withDb((db) => forgetAgedData(db));
    const kept = await withDb((db) => db.select({ id: auditLog.id }).from(auditLog).where(sql`${auditLog.action} = ${action}`));
    expect(kept).toHaveLength(1);
  });

  it('deletes at most its bound per table in one run, and the next run goes on where it stopped', async () => {
    const prefix = unique('retention-batch');
    // Older than anything else planted, so they are first in line.
    await withDb((db) => db.insert(rateLimits).values(Array.from({ length: 12 }, (_, i) => ({ key: `${prefix}:${i}`, windowStart: ago(`${4000 + i} days`) }))));
    const mine = () =>
      withDb((db) =>
        db
          .select({ key: rateLimits.key })
          .from(rateLimits)
          .where(like(rateLimits.key, `${prefix}:%`)),
      ).then((r) => r.length);
    const bounds = { batchSize: 5, maxBatches: 2 };

    const first = await withDb((db) => forgetAgedData(db, bounds));
    // At least 12 rows were due, so the run stopped at its bound, not before.
    expect(first.rateLimits).toBe(10);
    for (const count of Object.values(first)) expect(count).toBeLessThanOrEqual(10);
    expect(await mine()).toBeGreaterThanOrEqual(2);

    for (let run = 0; run < 20 && (await mine()) > 0; run += 1) {
      const next = await withDb((db) => forgetAgedData(db, bounds));
      for (const count of Object.values(next)) expect(count).toBeLessThanOrEqual(10);
    }
    expect(await mine()).toBe(0);
  });

  it('is a cron job that does the work at most once every 10 minutes', async () => {
    expect(Object.keys(scheduledJobs)).toContain('runRetention');
    await withDb((db) => runRetention(db));
    expect(await withDb((db) => runRetention(db))).toEqual({ ran: false });
  });
});
