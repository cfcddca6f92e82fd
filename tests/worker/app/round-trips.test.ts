// The hot calls reach Postgres in as few round trips as the targets (issue 13): each is one
// HTTP call per statement or batch, and none opens a WebSocket, which costs about four round trips
// at the edge. Counted where the Worker leaves the driver (countingDatabaseWork), through SELF.fetch.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refreshTokens } from '../../../drizzle/schema';
import { sha256Hex } from '../../../worker/lib/crypto';
import { REFRESH_GRACE_SECONDS } from '../../../worker/services/accounts/auth';
import { call, countingDatabaseWork, createAdmin, registerAndLogin, setUserStatus, unique, withDb } from '../../support/api';
import { newLink, placeOrder } from '../fixtures/order-fixtures';
import { paystackFake } from '../fixtures/paystack-fixtures';
import { FAKE, listCallWork, newShop } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser } from '../fixtures/wallet-fixtures';

const oneRoundTrip = { httpCalls: 1, webSockets: 0 };

describe('round trips of the hot calls', () => {
  it('reads the profile and the balance with the session check alone, one HTTP call each', async () => {
    const user = await registerAndLogin();
    for (const path of ['user/getCurrentProfile', 'user/getWalletBalance']) {
      const { result, httpCalls, webSockets } = await countingDatabaseWork(() => call(path, { token: user.accessToken }));
      expect(result.status, path).toBe(200);
      expect({ httpCalls, webSockets }, path).toEqual(oneRoundTrip);
    }
  });

  it('lists a page of services, and a search, with one statement: the catalogue version, the page from the copy', async () => {
    await newShop({ serviceIds: [FAKE.igLikes] });
    for (const query of ['limit=100', 'search=likes&limit=100']) {
      const { result, httpCalls, webSockets } = await listCallWork(`services?${query}`);
      expect(result.status, query).toBe(200);
      expect(result.body.data.length, query).toBeGreaterThan(0);
      expect({ httpCalls, webSockets }, query).toEqual(oneRoundTrip);
    }
  });

  it('answers verify-payment for a settled payment with the session check and the intent read in one batch', async () => {
    const user = await registerAndLogin();
    const started = await call('user/add-fund', { token: user.accessToken, body: { amount: 1000 } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const { reference, checkoutUrl, signature, amount } = started.body;
    await paystackFake('/__complete', { reference, outcome: 'success' });
    expect((await call('user/verify-payment', { token: user.accessToken, body: { checkoutUrl, signature, amount } })).body.data.orderStatus).toBe(2);

    for (const body of [{ checkoutUrl, signature, amount }, { reference }]) {
      const { result, httpCalls, webSockets } = await countingDatabaseWork(() => call('user/verify-payment', { token: user.accessToken, body }));
      expect(result.body).toEqual({ message: 'Wallet credited successfully', data: { orderStatus: 2 } });
      expect({ httpCalls, webSockets }).toEqual(oneRoundTrip);
    }
  });

  it('still refuses verify-payment to a signed-out session and for a forged payload after the batch', async () => {
    const user = await registerAndLogin();
    const started = await call('user/add-fund', { token: user.accessToken, body: { amount: 1000 } });
    const { checkoutUrl, signature, amount } = started.body;
    const forged = await call('user/verify-payment', { token: user.accessToken, body: { checkoutUrl, signature: `${signature}0`, amount } });
    expect(forged).toMatchObject({ status: 400 });
    expect((await call('auth/logout', { token: user.accessToken, method: 'POST' })).status).toBe(200);
    expect(await call('user/verify-payment', { token: user.accessToken, body: { checkoutUrl, signature, amount } })).toMatchObject({ status: 401 });
  });

  it('places an order in one round trip, the placing statement checking the session itself (two when the service was not read lately)', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const user = await fundedUser(10_000_000n);
    const serviceId = shop.serviceIds[FAKE.igLikes];
    for (const [round, httpCalls] of [
      ['service not read yet', 2],
      ['service read lately', 1],
    ] as const) {
      const work = await countingDatabaseWork(() => placeOrder(user, { serviceId, link: newLink(), quantity: 100 }, unique('key')));
      expect(work.result.status, `${round}: ${JSON.stringify(work.result.body)}`).toBe(201);
      expect(work.result.body.data).toMatchObject({ serviceId, status: 'Pending Submission', canCancel: true });
      expect({ httpCalls: work.httpCalls, webSockets: work.webSockets }, round).toEqual({ httpCalls, webSockets: 0 });
    }
  });

  it('places nothing for a session the placing statement finds not live, and says why as the session check does', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const signedOut = await fundedUser(1_000_000n);
    const key = unique('key');
    const placed = await placeOrder(signedOut, { serviceId, link: newLink(), quantity: 100 }, key);
    expect(placed.status).toBe(201);
    expect((await call('auth/logout', { token: signedOut.accessToken, method: 'POST' })).status).toBe(200);
    const balance = await balanceKobo(signedOut.id);
    // A new order, and the earlier order under its key: neither is placed nor shown.
    expect(await placeOrder(signedOut, { serviceId, link: newLink(), quantity: 100 }, unique('key'))).toMatchObject({ status: 401 });
    expect(await placeOrder(signedOut, { serviceId, link: newLink(), quantity: 100 }, key)).toMatchObject({ status: 401 });
    expect(await balanceKobo(signedOut.id)).toBe(balance);

    const suspended = await fundedUser(1_000_000n);
    await setUserStatus(suspended.id, 'suspended');
    expect(await placeOrder(suspended, { serviceId, link: newLink(), quantity: 100 }, unique('key'))).toMatchObject({ status: 401 });
    expect(await balanceKobo(suspended.id)).toBe(1_000_000n);

    const admin = await createAdmin();
    expect(await placeOrder(admin, { serviceId, link: newLink(), quantity: 100 }, unique('key'))).toMatchObject({ status: 403 });
  });

  it('credits a wallet as an administrator in two round trips: the session check, then the one statement', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const { result, httpCalls, webSockets } = await countingDatabaseWork(() =>
      call('user/admin-credit-user-wallet', {
        token: admin.accessToken,
        body: { amount: 1.5, reference: unique('credit'), userId: user.id },
      }),
    );
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect({ httpCalls, webSockets }).toEqual({ httpCalls: 2, webSockets: 0 });
  });

  it('lists accounts, tickets and the bell in two round trips: the session check, then the page and its capped total in one batch', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    for (const [path, token] of [
      ['admin/users?search=example.com', admin.accessToken],
      ['admin/tickets?search=help', admin.accessToken],
      ['user/tickets', user.accessToken],
      ['user/notifications', user.accessToken],
    ] as const) {
      const { result, httpCalls, webSockets } = await countingDatabaseWork(() => call(path, { token }));
      expect(result.status, path).toBe(200);
      expect({ httpCalls, webSockets }, path).toEqual({ httpCalls: 2, webSockets: 0 });
    }
  });

  it('signs in without a WebSocket: the session and its refresh token are written in one batch', async () => {
    const user = await registerAndLogin();
    const { result, webSockets } = await countingDatabaseWork(() => call('auth/login', { body: { email: user.email, password: user.password } }));
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    expect(webSockets).toBe(0);
    const profile = await call('user/getCurrentProfile', { token: result.body.accessToken });
    expect(profile.body.data).toMatchObject({ email: user.email });
    expect((await call('auth/refresh', { body: { refreshToken: result.body.refreshToken } })).status).toBe(200);
  });

  it('refreshes a session in one statement; a retried or replayed token is answered or refused in one batch more', async () => {
    const user = await registerAndLogin();
    const rotated = await countingDatabaseWork(() => call('auth/refresh', { body: { refreshToken: user.refreshToken } }));
    expect(rotated.result.status, JSON.stringify(rotated.result.body)).toBe(200);
    expect({ httpCalls: rotated.httpCalls, webSockets: rotated.webSockets }).toEqual(oneRoundTrip);

    const retried = await countingDatabaseWork(() => call('auth/refresh', { body: { refreshToken: user.refreshToken } }));
    expect(retried.result.body.refreshToken).toBe(rotated.result.body.refreshToken);
    expect({ httpCalls: retried.httpCalls, webSockets: retried.webSockets }).toEqual({ httpCalls: 2, webSockets: 0 });

    // Past the grace window, the same token is a thief's replay.
    const tokenHash = await sha256Hex(user.refreshToken);
    await withDb((db) =>
      db
        .update(refreshTokens)
        .set({ usedAt: sql`now() - make_interval(secs => ${REFRESH_GRACE_SECONDS + 1})` })
        .where(eq(refreshTokens.tokenHash, tokenHash)),
    );
    const replayed = await countingDatabaseWork(() => call('auth/refresh', { body: { refreshToken: user.refreshToken } }));
    expect(replayed.result.status).toBe(401);
    expect({ httpCalls: replayed.httpCalls, webSockets: replayed.webSockets }).toEqual({ httpCalls: 2, webSockets: 0 });
    expect((await call('auth/refresh', { body: { refreshToken: rotated.result.body.refreshToken } })).status).toBe(401);
  });

  it('opens one WebSocket for a call whose service runs a transaction, and only then', async () => {
    const user = await registerAndLogin();
    // Starting a deposit records its intent under a per-payer lock, an interactive transaction.
    const { result, webSockets } = await countingDatabaseWork(() => call('user/add-fund', { token: user.accessToken, body: { amount: 1000 } }));
    expect(result.status).toBe(201);
    expect(webSockets).toBe(1);
  });
});
