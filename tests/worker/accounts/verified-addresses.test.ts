// Verified addresses: registration emails a link that proves the mailbox, used through POST auth/verify-email
// as the /verify-email page does; a new one can be asked for, sparingly. Until the address is confirmed the
// account cannot make or rotate reseller API keys, earn referral commission or trigger it for its referrer.
import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, emailOutbox, emailVerifications, referralCommissions, users } from '../../../drizzle/schema';
import { sha256Hex } from '../../../worker/lib/crypto';
import { EMAIL_UNVERIFIED_FOR_KEYS } from '../../../worker/services/accounts/api-keys';
import { EMAIL_ALREADY_CONFIRMED, EMAIL_LINK_INVALID, EMAIL_TAKEN_MEANWHILE } from '../../../worker/services/accounts/email-verification';
import { startDeposit } from '../../../worker/services/money/payments';
import { referralCodeOf } from '../../../worker/services/money/referrals';
import { call, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { emailedConfirmationToken, mailsTo } from '../fixtures/mailbox';
import { verifyAsPayer } from '../fixtures/payment-fixtures';
import { paystackFake } from '../fixtures/paystack-fixtures';
import { withCommissionsReleasedAtOnce } from '../fixtures/reversal-fixtures';

const confirm = (token: unknown) => call('auth/verify-email', { body: { token } });
const resend = (account: TestAccount) => call('auth/resend-verification', { method: 'POST', token: account.accessToken });
const profileOf = async (account: TestAccount) => (await call('user/getCurrentProfile', { token: account.accessToken })).body.data;
const createKey = (account: TestAccount, name = 'Panel tool') => call('user/api-keys', { token: account.accessToken, body: { name } });

describe('registration', () => {
  it('emails a confirmation link; using it confirms the address, once', async () => {
    const account = await registerAndLogin({ verified: false, fullName: 'Amaka Obi' });
    expect(await profileOf(account)).toMatchObject({ emailVerified: false });
    const login = await call('auth/login', { body: { email: account.email, password: account.password } });
    expect(login.body.user.emailVerified).toBe(false);

    const [mail] = await mailsTo(account.email);
    expect(mail.subject).toBe('Confirm your email address');
    expect(mail.text).toContain('Hello Amaka Obi,');
    expect(mail.text).toMatch(/\/verify-email\?token=\S+/);
    const token = await emailedConfirmationToken(account.email);
    // The outbox and the table keep only the token's hash.
    const [kept] = await withDb((db) => db.select({ body: emailOutbox.body }).from(emailOutbox).where(eq(emailOutbox.toAddress, account.email)));
    expect(kept.body).not.toContain(encodeURIComponent(token));
    const [row] = await withDb((db) => db.select().from(emailVerifications).where(eq(emailVerifications.userId, account.id)));
    expect(row.tokenHash).toBe(await sha256Hex(token));
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(48 * 3600_000);

    expect(await confirm(token)).toMatchObject({ status: 200, body: { message: 'Email address confirmed' } });
    expect(await profileOf(account)).toMatchObject({ emailVerified: true });
    expect(await confirm(token)).toMatchObject({ status: 400, body: { message: EMAIL_LINK_INVALID, error: 'Bad Request' } });
  });

  it('refuses unknown, expired and malformed tokens with a message a person can act on', async () => {
    const account = await registerAndLogin({ verified: false });
    await withDb((db) =>
      db
        .update(emailVerifications)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(emailVerifications.userId, account.id)),
    );
    expect(await confirm(await emailedConfirmationToken(account.email))).toMatchObject({ status: 400, body: { message: EMAIL_LINK_INVALID } });
    expect(await confirm('not-a-token-we-ever-sent')).toMatchObject({ status: 400, body: { message: EMAIL_LINK_INVALID } });
    expect(await confirm(undefined)).toMatchObject({ status: 400, body: { message: 'token is required' } });
    expect(await confirm('x'.repeat(201))).toMatchObject({ status: 400, body: { message: 'token must be at most 200 characters' } });
    expect(await profileOf(account)).toMatchObject({ emailVerified: false });
  });

  it('confirms once however many times the link is used at once', async () => {
    const account = await registerAndLogin({ verified: false });
    const token = await emailedConfirmationToken(account.email);
    const statuses = (await Promise.all(Array.from({ length: 5 }, () => confirm(token)))).map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400]);
  });
});

describe('a link to another address', () => {
  /** A link as a change of address would send it: to `email`, for the account. */
  async function linkTo(userId: number, email: string): Promise<string> {
    const token = unique('link');
    await withDb(async (db) =>
      db.insert(emailVerifications).values({ tokenHash: await sha256Hex(token), userId, email, expiresAt: new Date(Date.now() + 3600_000) }),
    );
    return token;
  }

  it('moves the account to the address it was sent to, or, if another account took that address meanwhile, refuses and stays usable', async () => {
    const account = await registerAndLogin();
    const other = await registerAndLogin();
    const taken = await linkTo(account.id, other.email);
    expect(await confirm(taken)).toMatchObject({ status: 409, body: { message: EMAIL_TAKEN_MEANWHILE } });
    const [unused] = await withDb((db) =>
      db.select({ usedAt: emailVerifications.usedAt }).from(emailVerifications).where(eq(emailVerifications.email, other.email)),
    );
    expect(unused.usedAt).toBeNull();

    const moved = `${unique('moved')}@example.com`;
    expect((await confirm(await linkTo(account.id, moved))).status).toBe(200);
    expect(await profileOf(await loginAs(moved, account.password))).toMatchObject({ id: account.id, email: moved, emailVerified: true });
    // Confirming spent the account's other outstanding link.
    expect((await confirm(taken)).status).toBe(400);
  });
});

async function loginAs(email: string, password: string): Promise<TestAccount> {
  const response = await call('auth/login', { body: { email, password } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { id: response.body.user.id, email, password, accessToken: response.body.accessToken, refreshToken: response.body.refreshToken };
}

describe('POST auth/resend-verification', () => {
  it('sends a new link at most once a minute, saying when to try again, and the newest link confirms', async () => {
    const account = await registerAndLogin({ verified: false });
    const first = await emailedConfirmationToken(account.email);
    expect(await resend(account)).toMatchObject({ status: 200, body: { message: `We emailed a new confirmation link to ${account.email}.` } });
    const again = await resend(account);
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
    expect(await mailsTo(account.email)).toHaveLength(2);

    const newest = await emailedConfirmationToken(account.email);
    expect(newest).not.toBe(first);
    expect((await confirm(newest)).status).toBe(200);
    expect((await confirm(first)).status).toBe(400);
  });

  it('refuses once the address is confirmed, and without a session', async () => {
    const account = await registerAndLogin();
    expect(await resend(account)).toMatchObject({ status: 409, body: { message: EMAIL_ALREADY_CONFIRMED, error: 'Conflict' } });
    expect((await call('auth/resend-verification', { method: 'POST' })).status).toBe(401);
  });
});

describe('reseller API keys', () => {
  const refusal = { status: 403, body: { message: EMAIL_UNVERIFIED_FOR_KEYS, error: 'Forbidden', code: 'email_unverified' } };

  it('cannot be created before the address is confirmed, and can be after', async () => {
    const account = await registerAndLogin({ verified: false });
    expect(await createKey(account)).toMatchObject(refusal);
    expect((await call('user/api-keys', { token: account.accessToken })).body.data).toEqual([]);
    expect((await confirm(await emailedConfirmationToken(account.email))).status).toBe(200);
    expect((await createKey(account)).status).toBe(201);
  });

  it('cannot be rotated by an account whose address was never confirmed (one from before confirmation existed) until it confirms', async () => {
    const account = await registerAndLogin();
    const key = (await createKey(account)).body.data;
    await withDb((db) => db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, account.id)));
    const rotate = () => call(`user/api-keys/${key.id}/rotate`, { method: 'POST', token: account.accessToken });
    expect(await rotate()).toMatchObject(refusal);
    expect((await resend(account)).status).toBe(200);
    expect((await confirm(await emailedConfirmationToken(account.email))).status).toBe(200);
    expect((await rotate()).status).toBe(200);
  });
});

describe('referral commission', () => {
  /** A real card deposit through the sandbox Paystack, confirmed while commissions are 5% and released at once. */
  async function deposit(payer: TestAccount, naira: number): Promise<string> {
    const { reference } = await withDb((db) => startDeposit(db, env, payer, String(naira)));
    await paystackFake('/__complete', { reference, outcome: 'success' });
    expect(await withCommissionsReleasedAtOnce((tx) => verifyAsPayer(tx, env, payer.id, { reference }))).toBe(2);
    return reference;
  }
  const commissionsOf = (referrerId: number) => withDb((db) => db.select().from(referralCommissions).where(eq(referralCommissions.referrerId, referrerId)));
  const warningAbout = async (reference: string) =>
    (
      await withDb((db) =>
        db
          .select({ message: catalogueWarnings.message })
          .from(catalogueWarnings)
          .where(and(eq(catalogueWarnings.kind, 'referral_blocked'), sql`${catalogueWarnings.details}->>'reference' = ${reference}`)),
      )
    ).map((warning) => warning.message);

  it('is not earned by a referrer whose address is unconfirmed, and the administrators are told why; confirmed, the next deposit earns', async () => {
    const referrer = await registerAndLogin({ verified: false });
    const friend = await registerAndLogin({ referralCode: await withDb((db) => referralCodeOf(db, referrer.id)) });
    const blocked = await deposit(friend, 2000);
    expect(await commissionsOf(referrer.id)).toEqual([]);
    expect(await warningAbout(blocked)).toEqual([
      `No referral commission for user #${referrer.id} on deposit ${blocked} by user #${friend.id}: the referrer has not confirmed their email address.`,
    ]);

    expect((await confirm(await emailedConfirmationToken(referrer.email))).status).toBe(200);
    await deposit(friend, 2000);
    expect((await commissionsOf(referrer.id)).map((row) => row.commissionKobo)).toEqual([10_000n]);
  });

  it('is not triggered by a referred customer whose address is unconfirmed', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ verified: false, referralCode: await withDb((db) => referralCodeOf(db, referrer.id)) });
    const blocked = await deposit(friend, 2000);
    expect(await commissionsOf(referrer.id)).toEqual([]);
    expect(await warningAbout(blocked)).toEqual([
      `No referral commission for user #${referrer.id} on deposit ${blocked} by user #${friend.id}: the depositor has not confirmed their email address.`,
    ]);
  });
});
