// Sign-in limits that fit how customers reach us: most phones share a mobile carrier's address
// (carrier-grade NAT), so limits are tight per account and generous per address.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../../drizzle/schema';
import { AUTH_LIMITS } from '../../worker/routes/auth';
import { registerUser } from '../../worker/services/auth';
import { call, registerAndLogin, unique, uniqueIp, withDb } from '../support/api';
import { emailedResetToken } from './mailbox';

const TRY_AGAIN_IN_SECONDS = /^Too many attempts\. Please try again in (\d+) seconds?\.$/;

const signIn = (email: string, password: string, ip = uniqueIp()) => call('auth/login', { body: { email, password }, ip });
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

function secondsToWait(body: { message: string; error: string }): number {
  expect(body.error).toBe('Too Many Requests');
  const match = TRY_AGAIN_IN_SECONDS.exec(body.message);
  expect(match, body.message).not.toBeNull();
  return Number(match![1]);
}

describe('signing in', () => {
  it('lets 30 different people sign in from one shared address within a minute', async () => {
    const people = Array.from({ length: 30 }, (_, i) => ({ email: `${unique('cgnat')}@example.com`, password: `shared-carrier-${i}-plum` }));
    await withDb(async (db) => {
      for (const person of people) await registerUser(db, { fullName: 'Carrier Person', ...person });
    });
    const carrierAddress = uniqueIp();
    const statuses: number[] = [];
    for (const person of people) statuses.push((await signIn(person.email, person.password, carrierAddress)).status);
    expect(statuses).toEqual(people.map(() => 200));
  });

  it('stops 30 wrong passwords for one account, says when to try again, and refuses the right password meanwhile', async () => {
    const account = await registerAndLogin();
    const responses = [];
    // From many addresses, as a spread-out guesser would: the account's own limit still holds.
    for (let i = 0; i < 30; i++) responses.push(await signIn(account.email, `wrong-guess-${i}`));
    const allowed = AUTH_LIMITS.perAccount.limit;
    expect(responses.slice(0, allowed).map((r) => r.status)).toEqual(Array(allowed).fill(401));
    expect(responses.slice(allowed).map((r) => r.status)).toEqual(Array(30 - allowed).fill(429));
    const wait = secondsToWait(responses.at(-1)!.body);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);

    const rightPassword = await signIn(account.email, account.password);
    expect(rightPassword.status).toBe(429);
    secondsToWait(rightPassword.body);
  });

  it('never limits the right password on many devices, and counts guesses afresh after each sign-in', async () => {
    const account = await registerAndLogin();
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_LIMITS.perAccount.limit + 5; i++) statuses.push((await signIn(account.email, account.password)).status);
    expect(statuses).toEqual(statuses.map(() => 200));

    for (let i = 0; i < AUTH_LIMITS.perAccount.limit - 1; i++) expect((await signIn(account.email, `wrong-guess-${i}`)).status).toBe(401);
    expect((await signIn(account.email, account.password)).status).toBe(200);
    for (let i = 0; i < AUTH_LIMITS.perAccount.limit; i++) expect((await signIn(account.email, `wrong-again-${i}`)).status).toBe(401);
    expect((await signIn(account.email, account.password)).status).toBe(429);
  });

  it('counts the email in any letter case as one account', async () => {
    const account = await registerAndLogin();
    await fillWindow(`login:email:${account.email}`, AUTH_LIMITS.perAccount.limit);
    expect((await signIn(account.email.toUpperCase(), account.password)).status).toBe(429);
  });

  it('opens again once the window has passed', async () => {
    const account = await registerAndLogin();
    await fillWindow(`login:email:${account.email}`, AUTH_LIMITS.perAccount.limit);
    expect((await signIn(account.email, account.password)).status).toBe(429);
    await withDb((db) =>
      db
        .update(rateLimits)
        .set({ windowStart: sql`now() - interval '61 seconds'` })
        .where(eq(rateLimits.key, `login:email:${account.email}`)),
    );
    expect((await signIn(account.email, account.password)).status).toBe(200);
  });

  it('limits one address only at carrier-grade volume, and only that address', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    await fillWindow(`login:ip:${address}`, AUTH_LIMITS.perAddress.limit - 1);
    expect((await signIn(account.email, account.password, address)).status).toBe(200);
    const limited = await signIn(account.email, account.password, address);
    expect(limited.status).toBe(429);
    secondsToWait(limited.body);
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
    secondsToWait(limited.body);
  });
});

describe('password reset', () => {
  it('limits each link, even with a good password, whatever the address', async () => {
    const account = await registerAndLogin();
    await call('auth/forgot-password', { body: { email: account.email } });
    const token = await emailedResetToken(account.email);
    for (let attempt = 0; attempt < AUTH_LIMITS.perAccount.limit; attempt++) expect((await reset(token, 'short')).status).toBe(400);
    const limited = await reset(token, 'fine-lantern-password-1');
    expect(limited.status).toBe(429);
    secondsToWait(limited.body);
  });

  it('limits guessed links from one address', async () => {
    const address = uniqueIp();
    expect((await reset(unique('guess'), 'fine-lantern-password-1', address)).status).toBe(401);
    await fillWindow(`reset:ip:${address}`, AUTH_LIMITS.perAddress.limit);
    expect((await reset(unique('guess'), 'fine-lantern-password-1', address)).status).toBe(429);
  });

  it('sends a few reset emails to one mailbox, then says in minutes when to ask again', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    for (let i = 0; i < AUTH_LIMITS.resetEmailsPerAccount.limit; i++) {
      expect((await call('auth/forgot-password', { body: { email: account.email }, ip: address })).status).toBe(200);
    }
    const limited = await call('auth/forgot-password', { body: { email: account.email } });
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many attempts\. Please try again in 1[45] minutes\.$/);
    // Other people behind the same address are not held back by it.
    expect((await call('auth/forgot-password', { body: { email: `${unique()}@example.com` }, ip: address })).status).toBe(200);
  });
});
