// The dashboard's Money list against the sandbox Paystack, its webhooks delivered through the Worker: an open
// dispute with its customer, amount and the deadline Paystack gave, until it is resolved; a lost chargeback
// with the debt it left, until a deposit settles it; a refunded deposit whose referral commission was taken
// back, with the referrer's debt; and the Deposits figure, net of refunds and chargebacks, bank transfers apart.
// Files run side by side on one database: each test reads the list of its own users
// (GET admin/dashboard/money?userId=), and the dashboard's own list only for what sorts first.
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { paymentIntents, paymentReversals, settings, walletTransactions } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import { koboToNaira } from '../../../worker/lib/decimal';
import { type MoneyAlert, moneyAlerts, sayWhen } from '../../../worker/services/money/money-alerts';
import { startDeposit } from '../../../worker/services/money/payments';
import { referralCodeOf } from '../../../worker/services/money/referrals';
import { call, createAdmin, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { verifyAsPayer } from '../fixtures/payment-fixtures';
import { deliverPaystackHook, depositByCard, type PaystackHook, paystackFake, paystackHooksFor } from '../fixtures/paystack-fixtures';
import { withCommissionsReleasedAtOnce } from '../fixtures/reversal-fixtures';

async function moneyOf(admin: TestAccount, userId: number): Promise<{ total: number; items: MoneyAlert[] }> {
  const response = await call(`admin/dashboard/money?userId=${userId}`, { token: admin.accessToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data;
}

async function deliver(hook: Pick<PaystackHook, 'body' | 'signature'>) {
  expect(await deliverPaystackHook(hook)).toBe('Webhook processed');
}

/** An administrator's correction: money the user spent, as far as the wallet can tell. */
async function spend(admin: TestAccount, userId: number, naira: number) {
  const debited = await call('admin/wallet/debit', {
    token: admin.accessToken,
    body: { userId, amount: naira, reference: unique('spent'), reason: 'spent before the reversal' },
  });
  expect(debited.status, JSON.stringify(debited.body)).toBe(200);
}

const userPage = (userId: number) => ({ to: '/admin/manage-user', label: 'Open user', userId });

describe('an open dispute', () => {
  it('is listed with its customer, amount and Paystack’s deadline until it is resolved', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = await depositByCard(user, 5000);
    const { dispute, webhook } = await paystackFake('/__dispute', { reference });
    await deliver(webhook);

    // The deadline as Paystack's dispute object states it (dueAt), kept with the dispute.
    const dueAt: string = JSON.parse(webhook.body).data.dueAt;
    expect(Date.parse(dueAt)).toBeGreaterThan(Date.now());
    const [stored] = await withDb((db) =>
      db
        .select()
        .from(paymentReversals)
        .where(eq(paymentReversals.eventKey, `dispute:${dispute.id}`)),
    );
    expect(stored.dueAt?.toISOString()).toBe(dueAt);

    const { total, items } = await moneyOf(admin, user.id);
    expect(total).toBe(1);
    expect(items).toEqual([
      {
        id: `dispute:${stored.id}`,
        kind: 'dispute_open',
        title: 'Open dispute of NGN\u00a05,000.00 at Paystack',
        detail: `${user.email} disputes their NGN\u00a05,000.00 card deposit ${reference}, opened ${sayWhen(stored.createdAt)}; the disputed money is held back from their wallet until it is resolved.`,
        amount: '5000.00',
        nextStep: `Answer at Paystack with evidence of the orders delivered before ${sayWhen(dueAt)}, or accept it.`,
        link: userPage(user.id),
        user: { id: user.id, email: user.email },
        provider: 'paystack',
        reference,
        createdAt: stored.createdAt.toISOString(),
        dueAt,
      },
    ]);

    // Overdue, it comes first in the dashboard's list and says so (no other file's dispute is due in 2001).
    await withDb((db) =>
      db
        .update(paymentReversals)
        .set({ dueAt: new Date('2001-01-01T09:00:00Z') })
        .where(eq(paymentReversals.id, stored.id)),
    );
    const { money } = (await call('admin/dashboard', { token: admin.accessToken })).body.data;
    expect(money.total).toBeGreaterThanOrEqual(1);
    expect(money.items[0]).toMatchObject({
      id: `dispute:${stored.id}`,
      dueAt: '2001-01-01T09:00:00.000Z',
      nextStep: 'The deadline (1 Jan 2001, 09:00 UTC) has passed: check at Paystack whether the dispute was accepted for you, and answer if it still can be.',
    });

    // Resolved in the shop's favour: nothing left to do.
    await deliver((await paystackFake('/__dispute/resolve', { id: dispute.id, resolution: 'declined' })).webhook);
    expect(await moneyOf(admin, user.id)).toEqual({ total: 0, items: [] });
    const after = (await call('admin/dashboard', { token: admin.accessToken })).body.data.money.items as MoneyAlert[];
    expect(after.map((alert) => alert.id)).not.toContain(`dispute:${stored.id}`);
  });

  it('once lost after the money was spent, becomes the debt it left, until a deposit settles it', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = await depositByCard(user, 5000);
    await spend(admin, user.id, 3000);
    const { dispute, webhook } = await paystackFake('/__dispute', { reference });
    await deliver(webhook);
    const [open] = (await moneyOf(admin, user.id)).items;
    expect(open).toMatchObject({ kind: 'dispute_open', amount: '5000.00', user: { id: user.id } });
    expect(open.detail).toMatch(/held back from their wallet until it is resolved, and they owe NGN\u00a03,000\.00\.$/);

    await deliver((await paystackFake('/__dispute/resolve', { id: dispute.id, resolution: 'merchant-accepted' })).webhook);
    const [reversal] = await withDb((db) =>
      db
        .select()
        .from(paymentReversals)
        .where(eq(paymentReversals.eventKey, `dispute:${dispute.id}`)),
    );
    expect((await moneyOf(admin, user.id)).items).toEqual([
      {
        id: `debt:${reversal.id}`,
        kind: 'chargeback_debt',
        title: `Chargeback lost: ${user.email} owes NGN\u00a03,000.00`,
        detail: `Paystack took back NGN\u00a05,000.00 of the NGN\u00a05,000.00 card deposit ${reference} after it was spent: NGN\u00a02,000.00 came out of the balance and NGN\u00a03,000.00 became debt.`,
        amount: '5000.00',
        nextStep:
          'Their orders are refused until a deposit settles the NGN\u00a03,000.00 first. Ask them to pay it, or suspend the account if the payment was fraud.',
        link: userPage(user.id),
        user: { id: user.id, email: user.email },
        provider: 'paystack',
        reference,
        createdAt: reversal.resolvedAt?.toISOString(),
        dueAt: null,
      },
    ]);

    // The next deposit pays the debt first; nothing is owed, nothing listed.
    await depositByCard(user, 3000);
    expect(await moneyOf(admin, user.id)).toEqual({ total: 0, items: [] });
  });
});

describe('a refunded deposit that paid a referral commission', () => {
  it('lists the commission taken back with the referrer and the debt they owe, for the referrer and the payer alike', async () => {
    const admin = await createAdmin();
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin({ referralCode: await withDb((db) => referralCodeOf(db, referrer.id)) });
    // The friend's ₦20,000 deposit, credited while commissions are released at once: ₦1,000 to the referrer.
    const { reference } = await withDb((db) => startDeposit(db, env, friend, '20000'));
    await paystackFake('/__complete', { reference, outcome: 'success' });
    expect(await withCommissionsReleasedAtOnce((tx) => verifyAsPayer(tx, env, friend.id, { reference }))).toBe(2);
    await spend(admin, referrer.id, 400);

    await deliver((await paystackFake('/__refund', { reference })).webhook);
    const [intent] = await withDb((db) => db.select().from(paymentIntents).where(eq(paymentIntents.reference, reference)));
    const expected = {
      id: `commission:${intent.id}`,
      kind: 'commission_reversed',
      title: `Commission taken back from ${referrer.email}`,
      detail: `${friend.email}'s deposit ${reference} was refunded, so NGN\u00a01,000.00 of the NGN\u00a01,000.00 commission it paid was taken back, NGN\u00a0400.00 of it as debt (already spent).`,
      amount: '1000.00',
      nextStep: `${referrer.email} owes NGN\u00a0400.00: their orders are refused until credits settle it. If the two accounts look like one person, void the referral.`,
      link: userPage(referrer.id),
      user: { id: referrer.id, email: referrer.email },
      provider: 'paystack',
      reference,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      dueAt: null,
    };
    expect(await moneyOf(admin, referrer.id)).toEqual({ total: 1, items: [expected] });
    // The friend kept nothing of the deposit and owes nothing: only the commission is about them.
    expect(await moneyOf(admin, friend.id)).toEqual({ total: 1, items: [expected] });
  });
});

describe('the dashboard’s Deposits figure', () => {
  it('is what the shop kept of card and bank-transfer deposits, net of refunds, with bank transfers and administrators’ credits apart', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const card = await depositByCard(user, 10_000);
    const account = await call('user/dedicated-account', { token: user.accessToken, body: {} });
    expect(account.status, JSON.stringify(account.body)).toBe(200);
    const { reference: transfer } = await paystackFake('/__transfer', { accountNumber: account.body.data.accountNumber, amount: 500_000 });
    const [transferHook] = await paystackHooksFor(transfer);
    await deliver(transferHook);
    await deliver((await paystackFake('/__refund', { reference: card, amount: 250_000 })).webhook);
    const credited = await call('user/admin-credit-user-wallet', {
      token: admin.accessToken,
      body: { amount: '100.25', reference: unique('dash-credit'), userId: user.id },
    });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);

    // This user's payments move to a month no other test writes to, so the bucket is theirs alone.
    const now = new Date();
    const then = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 9, 20, 12));
    const bucket = `${then.toISOString().slice(0, 7)}-01`;
    const intents = await withDb(async (db) => {
      await db.update(walletTransactions).set({ createdAt: then }).where(eq(walletTransactions.userId, user.id));
      return db.update(paymentIntents).set({ settledAt: then }).where(eq(paymentIntents.userId, user.id)).returning();
    });
    expect(intents.map((intent) => [intent.channel, intent.status, intent.reversedKobo]).sort()).toEqual([
      ['bank_transfer', 'success', 0n],
      ['card', 'success', 250_000n],
    ]);

    const dashboard = (await call('admin/dashboard?period=month', { token: admin.accessToken })).body.data;
    expect(dashboard.series.find((row: { bucket: string }) => row.bucket === bucket)).toMatchObject({
      // ₦10,000 by card less its ₦2,500 refund, ₦5,000 by bank transfer, and the administrator's ₦100.25.
      deposits: koboToNaira(1_000_000n - 250_000n + 500_000n + 10_025n),
      bankTransfers: '5000.00',
      depositsReversed: '2500.00',
      adminCredits: '100.25',
    });
    expect(Object.keys(dashboard.totals)).toEqual(expect.arrayContaining(['deposits', 'bankTransfers', 'depositsReversed', 'adminCredits']));
  });
});

/** Runs fn in a transaction that is rolled back: the shop's settings other files read stay as they were. */
async function inRolledBack(fn: (tx: Db) => Promise<void>) {
  await withDb((db) =>
    db
      .transaction(async (tx) => {
        await fn(tx as unknown as Db);
        tx.rollback();
      })
      .catch((error) => {
        if (!String(error).includes('Rollback')) throw error;
      }),
  );
}

const setSetting = (tx: Db, key: string, value: Record<string, unknown>) =>
  tx
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value: sql`${settings.value} || ${JSON.stringify(value)}::jsonb` } });

describe('the books and the payment keys', () => {
  it('lists the last hourly reconciliation when it was not clean, and the card provider refusing the shop, after open disputes', async () => {
    await inRolledBack(async (tx) => {
      const shopWide = async () => (await moneyAlerts(tx)).items.filter((alert) => alert.kind === 'reconciliation' || alert.kind === 'payment_refusals');
      await setSetting(tx, 'payment', { provider: 'paystack' });
      await tx.delete(settings).where(eq(settings.key, 'payment_health'));
      await setSetting(tx, 'reconciliation', { startedAt: '2026-03-06T09:00:00.000Z' });
      // A run under way has no verdict yet; a clean one needs nobody.
      expect(await shopWide()).toEqual([]);
      await setSetting(tx, 'reconciliation', { checkedAt: '2026-03-06T09:30:00.000Z', ok: true, findings: 0, unbacked: '0.00' });
      expect(await shopWide()).toEqual([]);

      await setSetting(tx, 'reconciliation', { checkedAt: '2026-03-06T09:30:00.000Z', ok: false, findings: 3, unbacked: '59500.00' });
      await setSetting(tx, 'payment_health', {
        paystack: { verifiedAt: '2026-03-05T08:00:00.000Z', refusals: { count: 2, lastError: 'Invalid key', lastAt: '2026-03-06T10:15:00.000Z' } },
        flutterwave: { refusals: { count: 9, lastError: 'not the provider in use', lastAt: '2026-03-06T10:15:00.000Z' } },
      });
      const { items } = await moneyAlerts(tx);
      expect(await shopWide()).toEqual([
        {
          id: 'refusals:paystack',
          kind: 'payment_refusals',
          title: "Paystack is refusing the shop's key",
          detail: "Paystack refused the shop's calls 2 times since its key was last verified; the last at 6 Mar 2026, 10:15 UTC: “Invalid key”.",
          amount: null,
          nextStep: 'Card deposits fail while this lasts: check the secret key in Payment settings and save it to have it verified.',
          link: { to: '/admin/payment-settings', label: 'Open Payment settings', userId: null },
          user: null,
          provider: 'paystack',
          reference: null,
          createdAt: '2026-03-06T10:15:00.000Z',
          dueAt: null,
        },
        {
          id: 'reconciliation:2026-03-06T09:30:00.000Z',
          kind: 'reconciliation',
          title: 'The books are not clean',
          detail: 'The hourly reconciliation of 6 Mar 2026, 09:30 UTC found 3 problems; NGN\u00a059,500.00 of credit has nothing behind it.',
          amount: '59500.00',
          nextStep: 'Open Reconciliation, run it again, and resolve each finding by its user and cause.',
          link: { to: '/admin/reconciliation', label: 'Open Reconciliation', userId: null },
          user: null,
          provider: null,
          reference: null,
          createdAt: '2026-03-06T09:30:00.000Z',
          dueAt: null,
        },
      ]);
      // Open disputes first, then these two, then the newest of the rest.
      const kinds = items.map((alert) => alert.kind);
      const firstShopWide = kinds.indexOf('payment_refusals');
      expect(kinds.slice(0, firstShopWide).every((kind) => kind === 'dispute_open')).toBe(true);
      expect(kinds[firstShopWide + 1]).toBe('reconciliation');
      expect(kinds.slice(firstShopWide + 2).every((kind) => kind === 'chargeback_debt' || kind === 'commission_reversed')).toBe(true);
      // About one user, the shop's books and keys are left out.
      expect((await moneyAlerts(tx, { userId: 2_147_483_647 })).items).toEqual([]);
    });
  });

  it('is for administrators, and checks its filter', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    expect((await call('admin/dashboard/money', { token: user.accessToken })).status).toBe(403);
    expect(await call('admin/dashboard/money?userId=abc', { token: admin.accessToken })).toMatchObject({
      status: 400,
      body: { message: 'userId must be a positive number' },
    });
    expect((await call('admin/dashboard/money?userId=0', { token: admin.accessToken })).status).toBe(400);
    const all = await call('admin/dashboard/money', { token: admin.accessToken });
    expect(all.status).toBe(200);
    expect(all.body.data.total).toBeGreaterThanOrEqual(all.body.data.items.length);
  });
});
