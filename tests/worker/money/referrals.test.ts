// Referrals through the real Worker, Postgres and the Paystack fake: a sign-up through a link ties
// the new user to the referrer, who earns a commission on each of that user's deposits exactly once
// however often the payment is confirmed: held for the operator's hold days, then released into the
// wallet by the cron. Never on the referrer's own deposits, between accounts that paid with one card,
// past the cap per referred account, after a referral is voided, while referrals are off, or for a
// suspended referrer. A refunded deposit takes its commission back, and both people are told.
import { SELF } from 'cloudflare:test';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  catalogueWarnings,
  notifications,
  paymentIntents,
  referralCommissions,
  referrals,
  settings,
  users,
  wallets,
  walletTransactions,
} from '../../../drizzle/schema';
import { afterDepositCredited } from '../../../worker/services/money/deposit-credited';
import { applyLedgerEntry } from '../../../worker/services/money/ledger';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { releaseReferralCommissions } from '../../../worker/services/money/referral-commissions';
import { BASE, call, createAdmin, registerAndLogin, setUserStatus, type TestAccount, withDb } from '../../support/api';
import { deliverPaystackHook, depositByCard, paystackFake, paystackHooksFor } from '../fixtures/paystack-fixtures';

/** The same payment confirmed again: the return page twice more and every webhook sent for it, all at once. */
async function replay(account: TestAccount, reference: string) {
  const hooks = await paystackHooksFor(reference);
  expect(hooks.length).toBeGreaterThan(0);
  await Promise.all([
    call('user/verify-payment', { token: account.accessToken, body: { reference } }),
    call('user/verify-payment', { token: account.accessToken, body: { reference } }),
    ...hooks.flatMap((hook) => [deliverPaystackHook(hook), deliverPaystackHook(hook)]),
  ]);
}

const summaryOf = async (account: TestAccount) => {
  const response = await call('user/referrals', { token: account.accessToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
};
const commissionsOf = (referrerId: number) =>
  withDb((db) =>
    db
      .select()
      .from(walletTransactions)
      .where(and(eq(walletTransactions.userId, referrerId), eq(walletTransactions.sourceKind, 'referral_commission'))),
  );
const setRule = (admin: TestAccount, body: { enabled: boolean; ratePercent: string; holdDays?: number; capPerReferred?: string | null }) =>
  call('admin/referrals/settings', { token: admin.accessToken, method: 'PUT', body });

/** The hold of a referrer's commissions ends (time passing), and the cron's release runs. */
async function holdEnds(referrerId: number) {
  await withDb(async (db) => {
    await db
      .update(referralCommissions)
      .set({ releaseAt: new Date(Date.now() - 1000) })
      .where(and(eq(referralCommissions.referrerId, referrerId), isNull(referralCommissions.releasedAt)));
    await releaseReferralCommissions(db);
  });
}

const toldOf = (userId: number, kinds: string[]) =>
  withDb((db) =>
    db
      .select({ kind: notifications.kind, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), inArray(notifications.kind, kinds as never[])))
      .orderBy(notifications.id),
  );
const walletOf = async (userId: number) =>
  (await withDb((db) => db.select({ balance: wallets.balanceKobo, debt: wallets.debtKobo }).from(wallets).where(eq(wallets.userId, userId))))[0];

afterEach(async () => {
  await withDb((db) => db.delete(settings).where(eq(settings.key, 'referral')));
});

describe('a referral link', () => {
  it('ties a sign-up through it to the referrer, and a code nobody has, or no code at all, ties nothing and never blocks the sign-up', async () => {
    const referrer = await registerAndLogin();
    const { code, link, signUps } = await summaryOf(referrer);
    expect(code).toMatch(/^[A-Z2-9]{8}$/);
    expect(link).toMatch(new RegExp(`/auth/register\\?ref=${code}$`));
    expect(signUps).toBe(0);
    expect((await summaryOf(referrer)).code).toBe(code);

    const friend = await registerAndLogin({ referralCode: code.toLowerCase() });
    const stranger = await registerAndLogin({ referralCode: 'ZZZZZZZZ' });
    const mangled = await registerAndLogin({ referralCode: '<script>' });
    const rows = await withDb((db) => db.select().from(referrals));
    expect(rows.filter((r) => r.referrerId === referrer.id).map((r) => r.referredUserId)).toEqual([friend.id]);
    expect(rows.some((r) => [stranger.id, mangled.id].includes(r.referredUserId))).toBe(false);
    const seen = await summaryOf(referrer);
    expect(seen).toMatchObject({ signUps: 1, depositsCredited: 0, earnings: '0.00', pending: '0.00', ratePercent: '5.00', enabled: true, holdDays: 14 });
    expect(seen.referred).toEqual([expect.objectContaining({ displayName: 'Test U.', deposits: 0, earned: '0.00', voided: false })]);
    // The friend's display name, never any of their email.
    expect(JSON.stringify(seen)).not.toContain(friend.email.split('@')[0]);
  });
});

describe('commissions', () => {
  it('pay 5% of each referred deposit once, however often it is confirmed, held until the hold ends, and nothing on the referrer’s own deposits', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });

    const first = await depositByCard(friend, 1000);
    const second = await depositByCard(friend, 333);
    await replay(friend, first);
    await replay(friend, second);
    const own = await depositByCard(referrer, 2000);
    await replay(referrer, own);

    // Held: pending for the referrer, not in the wallet.
    expect(await commissionsOf(referrer.id)).toEqual([]);
    expect(await summaryOf(referrer)).toMatchObject({ depositsCredited: 2, earnings: '0.00', pending: '66.65' });
    expect((await toldOf(referrer.id, ['referral_earned'])).map((told) => told.body)).toEqual([
      expect.stringMatching(/^A deposit by Test U\. earned you NGN\u00a050\.00\. It is held until \d+ \w+ \d{4}, then added to your wallet\.$/),
      expect.stringMatching(/^A deposit by Test U\. earned you NGN\u00a016\.65\. It is held/),
    ]);
    await withDb((db) => releaseReferralCommissions(db));
    expect(await commissionsOf(referrer.id)).toEqual([]);

    await holdEnds(referrer.id);
    await holdEnds(referrer.id);
    const paid = await commissionsOf(referrer.id);
    expect(paid.map((row) => [row.sourceRef, row.amountKobo]).sort()).toEqual(
      [
        [first, 5_000n],
        [second, 1_665n],
      ].sort(),
    );
    expect(await commissionsOf(friend.id)).toEqual([]);
    expect(await summaryOf(referrer)).toMatchObject({ signUps: 1, depositsCredited: 2, earnings: '66.65', pending: '0.00' });
    expect(await toldOf(referrer.id, ['referral_released'])).toHaveLength(2);
    // The referrer's wallet: their own deposit and the two commissions.
    expect((await call('user/getWalletBalance', { token: referrer.accessToken })).body.walletBalance).toBe(2066.65);
    expect((await withDb((db) => reconcile(db))).ok).toBe(true);
  });

  it('are exact on a deposit past what a 32-bit number holds', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });
    const reference = `big-${friend.id}-${Date.now()}`;
    const amountKobo = 3_000_000_001n;
    // Recorded as the credit path records a settled intent, then credited through the same hook.
    await withDb((db) =>
      db.transaction(async (tx) => {
        const [intent] = await tx
          .insert(paymentIntents)
          .values({ reference, userId: friend.id, provider: 'paystack', amountKobo, status: 'success' })
          .returning();
        await applyLedgerEntry(tx, {
          userId: friend.id,
          direction: 'credit',
          amountKobo,
          source: 'payment',
          sourceRef: reference,
          description: 'test deposit',
        });
        await afterDepositCredited(tx, { intentId: intent.id, userId: friend.id, amountKobo, reference, channel: 'card', provider: 'paystack' });
      }),
    );
    await holdEnds(referrer.id);
    expect((await commissionsOf(referrer.id)).map((row) => row.amountKobo)).toEqual([150_000_000n]);
    expect((await withDb((db) => reconcile(db))).ok).toBe(true);
  });

  it('stop once the referral is voided, while referrals are off, and for a suspended referrer; a new rate applies to later deposits', async () => {
    const admin = await createAdmin();
    const referrer = await registerAndLogin();
    const code = (await summaryOf(referrer)).code;
    const [kept, voided] = await Promise.all([registerAndLogin({ referralCode: code }), registerAndLogin({ referralCode: code })]);

    const refused = await call(`admin/referrals/${voided.id}/void`, { token: admin.accessToken, body: { reason: '' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Please give a reason');
    const voiding = await call(`admin/referrals/${voided.id}/void`, { token: admin.accessToken, body: { reason: 'Second account of the referrer' } });
    expect(voiding.status, JSON.stringify(voiding.body)).toBe(200);
    expect(voiding.body.data).toEqual({ voided: true });
    expect((await call(`admin/referrals/${voided.id}/void`, { token: admin.accessToken, body: { reason: 'again' } })).body.data).toEqual({ voided: false });
    expect((await call(`admin/referrals/${referrer.id}/void`, { token: admin.accessToken, body: { reason: 'not referred' } })).status).toBe(404);
    await depositByCard(voided, 1000);

    expect((await setRule(admin, { enabled: false, ratePercent: '5' })).status).toBe(200);
    await depositByCard(kept, 1000);

    expect((await setRule(admin, { enabled: true, ratePercent: '0' })).status).toBe(400);
    expect((await setRule(admin, { enabled: true, ratePercent: '2.5' })).body.data).toEqual({
      enabled: true,
      ratePercent: '2.50',
      holdDays: 14,
      capPerReferred: null,
    });
    const counted = await depositByCard(kept, 1000);

    await setUserStatus(referrer.id, 'suspended');
    await depositByCard(kept, 1000);
    await setUserStatus(referrer.id, 'active');
    await holdEnds(referrer.id);

    expect((await commissionsOf(referrer.id)).map((row) => [row.sourceRef, row.amountKobo])).toEqual([[counted, 2_500n]]);
    expect(await withDb((db) => db.select().from(referralCommissions).where(eq(referralCommissions.referrerId, referrer.id)))).toHaveLength(1);
    const listed = await call(`admin/referrals?userId=${referrer.id}`, { token: admin.accessToken });
    expect(listed.body.total).toBe(2);
    expect(listed.body.data.find((r: { referred: { id: number } }) => r.referred.id === voided.id)).toMatchObject({
      voidReason: 'Second account of the referrer',
      commissions: 0,
    });
    expect(listed.body.data.find((r: { referred: { id: number } }) => r.referred.id === kept.id)).toMatchObject({
      voidedAt: null,
      commissions: 1,
      paid: '25.00',
    });
    expect((await withDb((db) => reconcile(db))).ok).toBe(true);
  });

  it('are the administrators’ to see and set', async () => {
    const user = await registerAndLogin();
    expect((await call('admin/referrals', { token: user.accessToken })).status).toBe(403);
    expect((await call('admin/referrals/settings', { token: user.accessToken, method: 'PUT', body: { enabled: false, ratePercent: '1' } })).status).toBe(403);
    const admin = await createAdmin();
    expect((await call('admin/referrals/settings', { token: admin.accessToken })).body.data).toEqual({
      enabled: true,
      ratePercent: '5.00',
      holdDays: 14,
      capPerReferred: null,
    });
    expect((await setRule(admin, { enabled: true, ratePercent: '5', holdDays: 91 })).body.message).toBe('Hold must be at most 90 days');
    expect((await setRule(admin, { enabled: true, ratePercent: '5', holdDays: 1.5 })).body.message).toBe('Hold must be a whole number of days');
    expect((await setRule(admin, { enabled: true, ratePercent: '5', capPerReferred: '-3' })).body.message).toBe('Cap must be an amount in naira, like 5000');
    expect((await setRule(admin, { enabled: true, ratePercent: '5', holdDays: 3, capPerReferred: '1500.50' })).body.data).toEqual({
      enabled: true,
      ratePercent: '5.00',
      holdDays: 3,
      capPerReferred: '1500.50',
    });
    // What a save leaves out stays as it was.
    expect((await setRule(admin, { enabled: true, ratePercent: '4' })).body.data).toMatchObject({ holdDays: 3, capPerReferred: '1500.50' });
    expect((await setRule(admin, { enabled: true, ratePercent: '50.01' })).status).toBe(400);
    expect((await setRule(admin, { enabled: true, ratePercent: 'ten' })).body.message).toBe('Commission must be a percentage with at most two decimals');
  });
});

describe('commission that follows its deposit', () => {
  it('is taken back when the deposit is refunded, as debt for what the referrer spent, and both people are told', async () => {
    const admin = await createAdmin();
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });
    const reference = await depositByCard(friend, 20_000);
    await holdEnds(referrer.id);
    expect(await walletOf(referrer.id)).toEqual({ balance: 100_000n, debt: 0n });
    // The referrer spends part of it.
    const spent = await call('admin/wallet/debit', {
      token: admin.accessToken,
      body: { userId: referrer.id, amount: 400, reference: `spent-${referrer.id}`, reason: 'spent' },
    });
    expect(spent.status, JSON.stringify(spent.body)).toBe(200);

    const { webhook } = await paystackFake('/__refund', { reference });
    await Promise.all([deliverPaystackHook(webhook), deliverPaystackHook(webhook)]);

    expect(await walletOf(friend.id)).toEqual({ balance: 0n, debt: 0n });
    expect(await walletOf(referrer.id)).toEqual({ balance: 0n, debt: 40_000n });
    expect(await summaryOf(referrer)).toMatchObject({ earnings: '0.00', pending: '0.00' });
    expect((await toldOf(referrer.id, ['referral_reversed'])).map((told) => told.body)).toEqual([
      'A deposit by Test U. was refunded or disputed, so NGN\u00a01,000.00 of your commission on it was taken from your wallet.',
    ]);
    expect((await toldOf(friend.id, ['deposit_reversed'])).map((told) => told.body)).toEqual([
      expect.stringMatching(
        /^NGN\u00a020,000\.00 of your NGN\u00a020,000\.00 deposit \(.+\) was refunded to your card or account, so it was taken back from your wallet\.$/,
      ),
    ]);
    const report = await withDb((db) => reconcile(db));
    expect(report.unbacked.findings.filter((finding) => finding.reference === reference)).toEqual([]);
    expect(report.ok, JSON.stringify(report)).toBe(true);
  });

  it('held, shrinks with a partial refund and releases only what the deposit still backs', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });
    const reference = await depositByCard(friend, 10_000);
    const { webhook } = await paystackFake('/__refund', { reference, amount: 250_000 });
    await deliverPaystackHook(webhook);
    expect(await summaryOf(referrer)).toMatchObject({ pending: '375.00', earnings: '0.00' });
    await holdEnds(referrer.id);
    expect((await commissionsOf(referrer.id)).map((row) => row.amountKobo)).toEqual([37_500n]);
    expect(await walletOf(referrer.id)).toEqual({ balance: 37_500n, debt: 0n });
    expect((await withDb((db) => reconcile(db))).ok).toBe(true);
  });

  it('is never paid between accounts that paid with the same card, and the administrators are told', async () => {
    const referrer = await registerAndLogin();
    const second = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });
    await depositByCard(referrer, 1000, { card: `card-of-${referrer.id}` });
    const reference = await depositByCard(second, 5000, { card: `card-of-${referrer.id}` });
    await holdEnds(referrer.id);
    expect(await withDb((db) => db.select().from(referralCommissions).where(eq(referralCommissions.referrerId, referrer.id)))).toEqual([]);
    const [warning] = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(
          and(
            eq(catalogueWarnings.kind, 'referral_blocked'),
            eq(
              catalogueWarnings.message,
              `No referral commission for user #${referrer.id} on deposit ${reference} by user #${second.id}: the two accounts share a payment card or bank account.`,
            ),
          ),
        ),
    );
    expect(warning).toBeDefined();
    // Once the two accounts are tied by a card, another card of the second earns nothing either.
    await depositByCard(second, 1000, { card: `card-of-${second.id}` });
    expect(await withDb((db) => db.select().from(referralCommissions).where(eq(referralCommissions.referrerId, referrer.id)))).toEqual([]);
  });

  it('is never paid between accounts made on one browser: its device cookie is each account’s sign-up device', async () => {
    const register = (email: string, cookie?: string) =>
      SELF.fetch(`${BASE}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ fullName: 'Same Browser', email, password: 'Correct-Horse-Battery-9', userType: 2 }),
      });
    const first = await register(`browser-a-${Date.now()}@example.com`);
    expect(first.status).toBe(201);
    const device = /(?:^|;\s*)device=([^;]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(device).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
    const second = await register(`browser-b-${Date.now()}@example.com`, `device=${device}`);
    const ids = [((await first.json()) as { user: { id: number } }).user.id, ((await second.json()) as { user: { id: number } }).user.id];
    const stored = await withDb((db) => db.select({ device: users.signupDevice }).from(users).where(inArray(users.id, ids)));
    expect(stored).toEqual([{ device }, { device }]);

    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });
    await withDb((db) =>
      db
        .update(users)
        .set({ signupDevice: device })
        .where(inArray(users.id, [referrer.id, friend.id])),
    );
    const reference = await depositByCard(friend, 2000);
    expect(await withDb((db) => db.select().from(referralCommissions).where(eq(referralCommissions.referrerId, referrer.id)))).toEqual([]);
    const [warning] = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.kind, 'referral_blocked'), sql`${catalogueWarnings.details}->>'reference' = ${reference}`)),
    );
    expect(warning.message).toContain('share a sign-up device');
  });

  it('stops at the cap per referred account', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });
    const admin = await createAdmin();
    expect((await setRule(admin, { enabled: true, ratePercent: '5', capPerReferred: '80' })).status).toBe(200);
    await depositByCard(friend, 1000);
    await depositByCard(friend, 1000);
    await depositByCard(friend, 1000);
    const earned = await withDb((db) => db.select().from(referralCommissions).where(eq(referralCommissions.referrerId, referrer.id)));
    expect(earned.map((row) => row.commissionKobo).sort()).toEqual([3_000n, 5_000n]);
  });
});
