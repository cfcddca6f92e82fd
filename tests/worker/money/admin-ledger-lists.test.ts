// The administrators' ledger names each row's user in the same query, and the dashboard's "Pending
// payments" has a list behind it: payments started but neither credited nor refused.
import { describe, expect, it } from 'vitest';
import { listAdminTransactions } from '../../../worker/services/money/wallet';
import { call, countingRoundTrips, createAdmin, registerAndLogin, unique } from '../../support/api';
import { exportedCsv } from '../../support/ledger-export';

describe('GET admin/transactions', () => {
  it("names each row's user by full name and email, in one round trip", async () => {
    const admin = await createAdmin();
    const fullName = unique('Ada Obi ');
    const user = await registerAndLogin({ fullName });
    const reference = unique('credit');
    const credited = await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 250, reference, userId: user.id } });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);

    const listed = await call(`admin/transactions?userId=${user.id}`, { token: admin.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ userId: user.id, userFullName: fullName, userEmail: user.email, reference, source: 'admin_credit' }),
    ]);

    const query = { page: 1, limit: 25, userId: user.id };
    const { result, httpCalls, webSockets } = await countingRoundTrips((db) => listAdminTransactions(db, query));
    expect(result.total).toBe(1);
    expect({ httpCalls, webSockets }).toEqual({ httpCalls: 1, webSockets: 0 });

    // The user's own list has no use for names.
    const own = await call('user/transactions', { token: user.accessToken });
    expect(own.body.data[0]).not.toHaveProperty('userEmail');
  });

  it("filters by the user's email address, typed in any case, in one round trip", async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin({ fullName: unique('Chidi Eze ') });
    const reference = unique('credit');
    const credited = await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 300, reference, userId: user.id } });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);

    const listed = await call(`admin/transactions?email=${encodeURIComponent(` ${user.email.toUpperCase()} `)}`, { token: admin.accessToken });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data).toEqual([expect.objectContaining({ userId: user.id, reference })]);
    expect(listed.body.total).toBe(1);

    const nobody = await call(`admin/transactions?email=${encodeURIComponent(unique('nobody-'))}%40example.com`, { token: admin.accessToken });
    expect(nobody.body).toMatchObject({ data: [], total: 0 });
    expect((await call('admin/transactions?email=not-an-address', { token: admin.accessToken })).status).toBe(400);

    const { result, httpCalls, webSockets } = await countingRoundTrips((db) => listAdminTransactions(db, { page: 1, limit: 25, email: user.email }));
    expect(result.total).toBe(1);
    expect({ httpCalls, webSockets }).toEqual({ httpCalls: 1, webSockets: 0 });

    expect(await exportedCsv(admin.accessToken, { email: user.email })).toContain(reference);
  });
});

describe('GET admin/payments/pending', () => {
  it('lists a deposit started and not yet paid, naming its payer, and only to administrators', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin({ fullName: 'Bola Ade' });
    const started = await call('user/add-fund', { token: user.accessToken, body: { amount: 1500 } });
    expect(started.status, JSON.stringify(started.body)).toBe(201);

    const listed = await call('admin/payments/pending?limit=100', { token: admin.accessToken });
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((row: { reference: string }) => row.reference === started.body.reference)).toMatchObject({
      userId: user.id,
      userFullName: 'Bola Ade',
      userEmail: user.email,
      amount: '1500.00',
      provider: 'paystack',
      channel: 'card',
    });
    expect((await call('admin/payments/pending', { token: user.accessToken })).status).toBe(403);
  });
});
