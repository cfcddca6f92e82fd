// POST user/add-fund keeps at most five deposits waiting per payer in half an hour, saying what to
// do about it, even when the requests arrive all at once.
import { eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { paymentIntents } from '../../../drizzle/schema';
import { PENDING_DEPOSITS_CAP } from '../../../worker/services/money/payments';
import { call, registerAndLogin, type TestAccount, withDb } from '../../support/api';

const TOO_MANY = 'You have 5 payments waiting. Finish or cancel one, or wait 30 minutes.';
const paystack = inject('paystackUrl');
const completeCheckout = (reference: string, outcome: 'success' | 'failed') =>
  fetch(`${paystack}/__complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference, outcome }) });

const addFund = (account: TestAccount) => call('user/add-fund', { token: account.accessToken, body: { amount: 1000 } });
const intentsOf = (userId: number) => withDb((db) => db.select().from(paymentIntents).where(eq(paymentIntents.userId, userId)));

describe('deposits waiting per payer', () => {
  it('refuses a sixth waiting deposit with what to do, and counts only the waiting and recent ones', async () => {
    expect(PENDING_DEPOSITS_CAP).toBe(5);
    const user = await registerAndLogin();
    const started: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await addFund(user);
      expect(response.status).toBe(201);
      started.push(response.body.reference);
    }
    const sixth = await addFund(user);
    expect(sixth).toMatchObject({ status: 429, body: { message: TOO_MANY, error: 'Too Many Requests' } });
    expect(await intentsOf(user.id)).toHaveLength(5);

    // One paid and confirmed no longer waits.
    await completeCheckout(started[0], 'success');
    expect((await call('user/verify-payment', { token: user.accessToken, body: { reference: started[0] } })).body.data.orderStatus).toBe(2);
    expect((await addFund(user)).status).toBe(201);
    expect((await addFund(user)).status).toBe(429);

    // One started more than 30 minutes ago no longer counts.
    await withDb((db) =>
      db
        .update(paymentIntents)
        .set({ createdAt: new Date(Date.now() - 31 * 60_000) })
        .where(eq(paymentIntents.reference, started[1])),
    );
    expect((await addFund(user)).status).toBe(201);
  });

  it('holds when the requests arrive at once', async () => {
    const user = await registerAndLogin();
    const statuses = await Promise.all(Array.from({ length: 12 }, () => addFund(user).then((response) => response.status)));
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    expect(await intentsOf(user.id)).toHaveLength(5);
  });

  it('is per payer', async () => {
    const [first, second] = [await registerAndLogin(), await registerAndLogin()];
    for (let i = 0; i < 5; i++) expect((await addFund(first)).status).toBe(201);
    expect((await addFund(first)).status).toBe(429);
    expect((await addFund(second)).status).toBe(201);
  });
});
