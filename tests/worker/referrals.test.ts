// Referrals through the real Worker, Postgres and the Paystack fake: a sign-up through a link ties
// the new user to the referrer, whose wallet gets the commission on each of that user's deposits
// exactly once however often the payment is confirmed, never on the referrer's own deposits, not
// after a referral is voided, while referrals are off, or for a suspended referrer.
import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { paymentIntents, referralCommissions, referrals, settings, walletTransactions } from '../../drizzle/schema';
import { afterDepositCredited } from '../../worker/services/deposit-credited';
import { applyLedgerEntry } from '../../worker/services/ledger';
import { reconcile } from '../../worker/services/wallet';
import { call, createAdmin, registerAndLogin, setUserStatus, type TestAccount, withDb } from '../support/api';
import { deliverPaystackHook, depositByCard, paystackHooksFor } from './paystack-fixtures';

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
const setRule = (admin: TestAccount, body: { enabled: boolean; ratePercent: string }) =>
  call('admin/referrals/settings', { token: admin.accessToken, method: 'PUT', body });

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
    expect(seen).toMatchObject({ signUps: 1, depositsCredited: 0, earnings: '0.00', ratePercent: '5.00', enabled: true });
    expect(seen.referred).toEqual([expect.objectContaining({ deposits: 0, earned: '0.00', voided: false })]);
    // Only the username of the referred user, never their email.
    expect(JSON.stringify(seen)).not.toContain(friend.email);
  });
});

describe('commissions', () => {
  it('pay 5% of each referred deposit once, however often it is confirmed, and nothing on the referrer’s own deposits', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: (await summaryOf(referrer)).code });

    const first = await depositByCard(friend, 1000);
    const second = await depositByCard(friend, 333);
    await replay(friend, first);
    await replay(friend, second);
    const own = await depositByCard(referrer, 2000);
    await replay(referrer, own);

    const paid = await commissionsOf(referrer.id);
    expect(paid.map((row) => [row.sourceRef, row.amountKobo]).sort()).toEqual(
      [
        [first, 5_000n],
        [second, 1_665n],
      ].sort(),
    );
    expect(await commissionsOf(friend.id)).toEqual([]);
    expect(await summaryOf(referrer)).toMatchObject({ signUps: 1, depositsCredited: 2, earnings: '66.65' });
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
    expect((await setRule(admin, { enabled: true, ratePercent: '2.5' })).body.data).toEqual({ enabled: true, ratePercent: '2.50' });
    const counted = await depositByCard(kept, 1000);

    await setUserStatus(referrer.id, 'suspended');
    await depositByCard(kept, 1000);

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
    expect((await call('admin/referrals/settings', { token: admin.accessToken })).body.data).toEqual({ enabled: true, ratePercent: '5.00' });
    expect((await setRule(admin, { enabled: true, ratePercent: '50.01' })).status).toBe(400);
    expect((await setRule(admin, { enabled: true, ratePercent: 'ten' })).body.message).toBe('Commission must be a percentage with at most two decimals');
  });
});
