// Limits that protect the owner: wrong passwords are counted per account and address (or known device), so a
// stranger's guesses never lock the owner out of their own device or address; most phones share a mobile
// carrier's address (carrier-grade NAT), so the address alone is limited only at carrier volume.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits, signInFailures } from '../../../drizzle/schema';
import { AUTH_LIMITS } from '../../../worker/routes/accounts/auth';
import { registerUser } from '../../../worker/services/accounts/auth';
import { forgetQuietSignInFailures, SIGN_IN_LIMITS } from '../../../worker/services/accounts/sign-in-limits';
import { call, countingDatabaseWork, registerAndLogin, type TestAccount, unique, uniqueIp, withDb } from '../../support/api';
import { emailedResetToken, mailsTo } from '../fixtures/mailbox';

const TRY_AGAIN_IN = /^Too many attempts\. Please try again in (\d+) (seconds?|minutes)\.$/;

const newDevice = () => unique('device-cookie-').padEnd(24, 'x');

const signIn = (email: string, password: string, from: { ip?: string; device?: string } = {}) =>
  call('auth/login', { body: { email, password }, ip: from.ip ?? uniqueIp(), headers: from.device ? { cookie: `device=${from.device}` } : {} });

const reset = (token: string, password: string, ip = uniqueIp()) =>
  call('auth/reset-password', {
    body: new URLSearchParams({ password }).toString(),
    token,
    ip,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** Fills a counter's current window, as a busy address would, without hundreds of calls. */
async function fillWindow(key: string, hits: number) {
  await withDb((db) =>
    db
      .insert(rateLimits)
      .values({ key, hits })
      .onConflictDoUpdate({ target: rateLimits.key, set: { hits, windowStart: sql`now()` } }),
  );
}

function waitOf(body: { message: string; error: string }): { amount: number; unit: string } {
  expect(body.error).toBe('Too Many Requests');
  const match = TRY_AGAIN_IN.exec(body.message);
  expect(match, body.message).not.toBeNull();
  return { amount: Number(match![1]), unit: match![2] };
}

const pairKey = (email: string, address: string) => `${email}|ip:${address}`;

const failureRow = (key: string) => withDb(async (db) => (await db.select().from(signInFailures).where(eq(signInFailures.key, key)))[0]);

/** As if the pair's current delay had passed, without waiting for it. */
const delayPassed = (key: string) => withDb((db) => db.update(signInFailures).set({ blockedUntil: sql`now()` }).where(eq(signInFailures.key, key)));

/** As if the pair were in a long delay, so a check right after it cannot race the clock. */
const blockFor = (key: string, seconds: number) =>
  withDb((db) =>
    db
      .update(signInFailures)
      .set({ blockedUntil: sql`now() + make_interval(secs => ${seconds})` })
      .where(eq(signInFailures.key, key)),
  );

async function wrongPasswords(email: string, count: number, from: { ip?: string; device?: string }) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await signIn(email, `wrong-guess-${i}`, from)).status);
  return statuses;
}

/** A device the owner has signed in from, so the account knows it. */
async function ownersDevice(account: TestAccount, ip = uniqueIp()) {
  const device = newDevice();
  expect((await signIn(account.email, account.password, { ip, device })).status).toBe(200);
  return device;
}

describe('wrong passwords', () => {
  it('lets 30 different people sign in from one shared address within a minute', async () => {
    const people = Array.from({ length: 30 }, (_, i) => ({ email: `${unique('cgnat')}@example.com`, password: `shared-carrier-${i}-plum` }));
    await withDb(async (db) => {
      for (const person of people) await registerUser(db, { fullName: 'Carrier Person', ...person });
    });
    const carrierAddress = uniqueIp();
    const statuses: number[] = [];
    for (const person of people) statuses.push((await signIn(person.email, person.password, { ip: carrierAddress })).status);
    expect(statuses).toEqual(people.map(() => 200));
  });

  it("never lets a stranger's 30 wrong passwords from one address stop the owner on another address or on a known device there", async () => {
    const account = await registerAndLogin();
    const strangersAddress = uniqueIp();
    const device = await ownersDevice(account);

    const statuses = await wrongPasswords(account.email, 30, { ip: strangersAddress });
    expect(statuses.slice(0, SIGN_IN_LIMITS.freeFailures + 1)).toEqual(Array(SIGN_IN_LIMITS.freeFailures + 1).fill(401));
    expect(statuses).toContain(429);
    expect(new Set(statuses)).toEqual(new Set([401, 429]));

    expect((await signIn(account.email, account.password)).status).toBe(200);
    // Held in a delay, the stranger's address refuses even the right password without the owner's device...
    await blockFor(pairKey(account.email, strangersAddress), 600);
    const fromThatAddress = await signIn(account.email, account.password, { ip: strangersAddress });
    expect(fromThatAddress.status).toBe(429);
    expect(waitOf(fromThatAddress.body)).toEqual({ amount: 10, unit: 'minutes' });
    // ...but the owner's own browser on that same address signs in.
    expect((await signIn(account.email, account.password, { ip: strangersAddress, device })).status).toBe(200);
  });

  it('makes the guessing address wait twice as long after each further failure, and says when to try again', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    const key = pairKey(account.email, address);
    expect(await wrongPasswords(account.email, SIGN_IN_LIMITS.freeFailures, { ip: address })).toEqual(Array(SIGN_IN_LIMITS.freeFailures).fill(401));
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      await delayPassed(key);
      expect((await signIn(account.email, 'still-wrong', { ip: address })).status).toBe(401);
      const row = await failureRow(key);
      delays.push(Math.round((row.blockedUntil.getTime() - row.lastFailureAt.getTime()) / 1000));
    }
    expect(delays).toEqual([1, 2, 4, 8]);

    const refused = await signIn(account.email, account.password, { ip: address });
    expect(refused.status).toBe(429);
    const { amount, unit } = waitOf(refused.body);
    expect(unit).toMatch(/^seconds?$/);
    expect(amount).toBeGreaterThanOrEqual(1);
    expect(amount).toBeLessThanOrEqual(8);

    // However long the run, the delay stops at 15 minutes.
    await withDb((db) => db.update(signInFailures).set({ failures: 40, blockedUntil: sql`now()` }).where(eq(signInFailures.key, key)));
    expect((await signIn(account.email, 'still-wrong', { ip: address })).status).toBe(401);
    expect(waitOf((await signIn(account.email, account.password, { ip: address })).body)).toEqual({ amount: 15, unit: 'minutes' });
  });

  it('forgets the failures of a pair once its right password is given', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    await wrongPasswords(account.email, SIGN_IN_LIMITS.freeFailures, { ip: address });
    expect((await signIn(account.email, account.password, { ip: address })).status).toBe(200);
    expect(await failureRow(pairKey(account.email, address))).toBeUndefined();
    expect(await wrongPasswords(account.email, SIGN_IN_LIMITS.freeFailures, { ip: address })).toEqual(Array(SIGN_IN_LIMITS.freeFailures).fill(401));
  });

  it('past the ceiling of guesses spread over many addresses, lets only known devices and addresses try', async () => {
    const account = await registerAndLogin();
    const ownersAddress = uniqueIp();
    const device = await ownersDevice(account, ownersAddress);

    const spread: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMITS.accountCeiling; i++) spread.push((await signIn(account.email, `spread-guess-${i}`)).status);
    expect(spread).toEqual(spread.map(() => 401));

    const stranger = await signIn(account.email, account.password);
    expect(stranger.status).toBe(429);
    expect(waitOf(stranger.body).unit).toBe('minutes');
    expect((await signIn(account.email, account.password, { ip: uniqueIp(), device })).status).toBe(200);
    expect((await signIn(account.email, account.password, { ip: ownersAddress })).status).toBe(200);
  });

  it('answers an unknown email as a known one, delays included', async () => {
    const account = await registerAndLogin();
    const unknownEmail = `${unique('nobody')}@example.com`;
    const address = uniqueIp();
    const answers = async (email: string) => {
      const statuses = await wrongPasswords(email, SIGN_IN_LIMITS.freeFailures + 1, { ip: address });
      await blockFor(pairKey(email, address), 30);
      const refused = await signIn(email, 'any-password', { ip: address });
      return { statuses, refused: { status: refused.status, message: refused.body.message.replace(/\d+/, 'N') } };
    };
    expect(await answers(unknownEmail)).toEqual(await answers(account.email));
  });

  it('counts the email in any letter case as one account', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    await wrongPasswords(account.email.toUpperCase(), SIGN_IN_LIMITS.freeFailures + 1, { ip: address });
    await blockFor(pairKey(account.email, address), 30);
    expect((await signIn(account.email, account.password, { ip: address })).status).toBe(429);
  });

  it('counts the attempt with the account read, in one round trip, and writes the session of a right password in one more', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    const device = await ownersDevice(account, address);
    for (const [password, status, httpCalls] of [
      [account.password, 200, 2],
      ['wrong-guess', 401, 1],
    ] as const) {
      const work = await countingDatabaseWork(() => signIn(account.email, password, { ip: address, device }));
      expect(work.result.status).toBe(status);
      expect({ httpCalls: work.httpCalls, webSockets: work.webSockets }, password).toEqual({ httpCalls, webSockets: 0 });
    }
  });

  it('gives a burst of parallel guesses no more tries than guesses one after another, on one address or spread', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    const statusesOf = async (guesses: Promise<{ status: number }>[]) => (await Promise.all(guesses)).map((answer) => answer.status).sort();
    // One try left before a long delay: of twenty at once, one is tried and the rest wait.
    await withDb((db) => db.insert(signInFailures).values({ key: pairKey(account.email, address), failures: 20, blockedUntil: sql`now()` }));
    const onOneAddress = await statusesOf(Array.from({ length: 20 }, (_, i) => signIn(account.email, `parallel-guess-${i}`, { ip: address })));
    expect(onOneAddress).toEqual([401, ...Array(19).fill(429)]);

    // One failure left under the account's ceiling: of twenty strangers at once, one is tried.
    const other = await registerAndLogin();
    // Its own sign-in has counted, and given back, one attempt already.
    await withDb((db) =>
      db
        .update(signInFailures)
        .set({ failures: SIGN_IN_LIMITS.accountCeiling - 1, blockedUntil: sql`now() + interval '1 hour'` })
        .where(eq(signInFailures.key, `${other.email}|account`)),
    );
    const spread = await statusesOf(Array.from({ length: 20 }, (_, i) => signIn(other.email, `spread-guess-${i}`)));
    expect(spread).toEqual([401, ...Array(19).fill(429)]);
  });

  it('forgets, in the cron sweep, the counts that have been quiet for a day', async () => {
    const email = `${unique('quiet')}@example.com`;
    const [quiet, recent] = [pairKey(email, uniqueIp()), pairKey(email, uniqueIp())];
    await withDb(async (db) => {
      await db.insert(signInFailures).values([
        { key: quiet, failures: 9, lastFailureAt: sql`now() - interval '25 hours'`, blockedUntil: sql`now() - interval '24 hours'` },
        { key: recent, failures: 9, blockedUntil: sql`now()` },
      ]);
      await forgetQuietSignInFailures(db);
    });
    expect(await failureRow(quiet)).toBeUndefined();
    expect(await failureRow(recent)).toBeDefined();
  });

  it('limits one address only at carrier-grade volume, and only that address', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    await fillWindow(`login:ip:${address}`, AUTH_LIMITS.perAddress.limit - 1);
    expect((await signIn(account.email, account.password, { ip: address })).status).toBe(200);
    const limited = await signIn(account.email, account.password, { ip: address });
    expect(limited.status).toBe(429);
    waitOf(limited.body);
    expect((await signIn(account.email, account.password)).status).toBe(200);
  });
});

describe('signing up', () => {
  it('lets many people sign up from one address, and limits one email', async () => {
    const address = uniqueIp();
    for (let i = 0; i < 12; i++) {
      const response = await call('auth/register', {
        body: { fullName: 'Carrier Person', email: `${unique('signup')}@example.com`, password: 'mango-harbour-77' },
        ip: address,
      });
      expect(response.status).toBe(201);
    }
    const email = `${unique('again')}@example.com`;
    await fillWindow(`register:email:${email}`, AUTH_LIMITS.perAccount.limit);
    const limited = await call('auth/register', { body: { fullName: 'Again', email, password: 'mango-harbour-77' } });
    expect(limited.status).toBe(429);
    waitOf(limited.body);
  });
});

describe('password reset', () => {
  const forgot = (email: string, ip: string) => call('auth/forgot-password', { body: { email }, ip });
  const resetEmails = async (address: string) => (await mailsTo(address)).filter((mail) => mail.subject === 'Reset your password');

  it('limits each link, even with a good password, whatever the address', async () => {
    const account = await registerAndLogin();
    await forgot(account.email, uniqueIp());
    const token = await emailedResetToken(account.email);
    for (let attempt = 0; attempt < AUTH_LIMITS.perAccount.limit; attempt++) expect((await reset(token, 'short')).status).toBe(400);
    const limited = await reset(token, 'fine-lantern-password-1');
    expect(limited.status).toBe(429);
    waitOf(limited.body);
  });

  it('limits guessed links from one address', async () => {
    const address = uniqueIp();
    expect((await reset(unique('guess'), 'fine-lantern-password-1', address)).status).toBe(401);
    await fillWindow(`reset:ip:${address}`, AUTH_LIMITS.perAddress.limit);
    expect((await reset(unique('guess'), 'fine-lantern-password-1', address)).status).toBe(429);
  });

  it("never lets a stranger's requests hold back the owner's, and mails the owner at most one link a minute", async () => {
    const account = await registerAndLogin();
    const strangersAddress = uniqueIp();
    const generic = (await forgot(`${unique()}@example.com`, uniqueIp())).body;
    for (let i = 0; i < AUTH_LIMITS.resetRequestsPerAccountAndAddress.limit; i++) {
      const answer = await forgot(account.email, strangersAddress);
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(generic);
    }
    const stranger = await forgot(account.email, strangersAddress);
    expect(stranger.status).toBe(429);
    expect(waitOf(stranger.body)).toMatchObject({ unit: 'minutes' });
    expect(await resetEmails(account.email)).toHaveLength(1);

    // The owner is answered as anyone is; the link the stranger asked for, still good, is in their mailbox.
    const ownersAddress = uniqueIp();
    expect(await forgot(account.email, ownersAddress)).toMatchObject({ status: 200, body: generic });
    expect(await resetEmails(account.email)).toHaveLength(1);
    expect((await reset(await emailedResetToken(account.email), 'owners-new-lantern-1')).status).toBe(200);

    // A minute after the last link, the next request mails a new one.
    await withDb((db) =>
      db
        .update(rateLimits)
        .set({ windowStart: sql`now() - interval '61 seconds'` })
        .where(eq(rateLimits.key, `reset-email:${account.email}`)),
    );
    expect(await forgot(account.email, ownersAddress)).toMatchObject({ status: 200, body: generic });
    expect(await resetEmails(account.email)).toHaveLength(2);
  });
});
