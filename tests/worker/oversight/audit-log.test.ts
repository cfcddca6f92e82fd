// GET admin/audit (filtered by administrator, target and dates), GET admin/audit/actors (the
// administrators by name) and GET admin/audit/:id (one entry with its before and after). The database
// is shared: each test makes its own administrators and rows and reads only those.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { services, users } from '../../../drizzle/schema';
import { call, createAdmin, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { FAKE, newShop, rateKoboOf } from '../fixtures/shop-fixtures';

const naira = (kobo: bigint) => `${kobo / 100n}.${String(kobo % 100n).padStart(2, '0')}`;

async function namedAdmin(): Promise<TestAccount & { fullName: string }> {
  const admin = await createAdmin();
  const fullName = unique('Auditor ');
  await withDb((db) => db.update(users).set({ fullName }).where(eq(users.id, admin.id)));
  return { ...admin, fullName };
}

describe('the audit log', () => {
  it('names the provider an entry acts on, from the same query, and keeps the name of one deleted since', async () => {
    const admin = await namedAdmin();
    const shop = await newShop({ serviceIds: [FAKE.igLikes], admin });
    const name = (await call('admin/providers', { token: admin.accessToken })).body.data.find((p: { id: number }) => p.id === shop.providerId).name;
    const imported = await call(`admin/audit?actorId=${admin.id}&targetType=provider&targetId=${shop.providerId}`, { token: admin.accessToken });
    expect(imported.body.data.find((entry: { action: string }) => entry.action === 'service.import')).toMatchObject({ targetProvider: { name } });

    // A provider nothing was bought from, deleted: the log can no longer join it, so the deletion keeps its name.
    const spare = await call('admin/providers', {
      token: admin.accessToken,
      body: { name: unique('spare panel '), apiUrl: 'https://panel.example.com/api/v2', apiKey: 'key', timeoutMs: 2000 },
    });
    expect(spare.status, JSON.stringify(spare.body)).toBe(201);
    expect((await call(`admin/providers/${spare.body.data.id}`, { method: 'DELETE', token: admin.accessToken })).status).toBe(200);
    const deleted = await call(`admin/audit?actorId=${admin.id}&targetType=provider&targetId=${spare.body.data.id}`, { token: admin.accessToken });
    expect(deleted.body.data.find((entry: { action: string }) => entry.action === 'provider.delete')).toMatchObject({
      targetProvider: null,
      details: { name: spare.body.data.name },
    });
  });

  it('lists one administrator’s entries, by target and dates, and names the administrators', async () => {
    const [first, second] = [await namedAdmin(), await namedAdmin()];
    const shop = await newShop({ serviceIds: [FAKE.igLikes], admin: first });
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const before = await rateKoboOf(serviceId);
    expect((await call(`admin/services/${serviceId}`, { method: 'PUT', token: first.accessToken, body: { rate: naira(before + 10_000n) } })).status).toBe(200);
    const customer = await registerAndLogin({ fullName: 'Audited Customer' });
    expect((await call(`admin/users/${customer.id}/suspend`, { method: 'POST', token: second.accessToken })).status).toBe(200);

    const mine = await call(`admin/audit?actorId=${first.id}&limit=100`, { token: first.accessToken });
    expect(mine.status).toBe(200);
    expect(mine.body.data.every((entry: { actor: { id: number } }) => entry.actor.id === first.id)).toBe(true);
    expect(mine.body.data.map((entry: { action: string }) => entry.action)).toContain('service.update');
    expect(mine.body.data.some((entry: { action: string }) => entry.action === 'user.suspend')).toBe(false);

    const theirs = await call(`admin/audit?actorId=${second.id}`, { token: first.accessToken });
    expect(theirs.body).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(theirs.body.data[0]).toMatchObject({
      action: 'user.suspend',
      targetType: 'user',
      targetId: String(customer.id),
      // The user acted on and the administrator, by name.
      targetUser: { fullName: 'Audited Customer', email: customer.email },
      actor: { id: second.id, fullName: second.fullName, email: second.email },
    });

    const byTarget = await call(`admin/audit?targetType=service&targetId=${serviceId}&action=service`, { token: first.accessToken });
    expect(byTarget.body.data.map((entry: { action: string }) => entry.action)).toEqual(['service.update']);

    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await call(`admin/audit?actorId=${second.id}&from=${today}&to=${today}`, { token: first.accessToken })).body.total).toBe(1);
    expect((await call(`admin/audit?actorId=${second.id}&from=${tomorrow}`, { token: first.accessToken })).body.total).toBe(0);
    expect((await call(`admin/audit?actorId=${second.id}&to=2020-01-01`, { token: first.accessToken })).body.total).toBe(0);

    const actors = await call('admin/audit/actors', { token: first.accessToken });
    expect(actors.status).toBe(200);
    for (const admin of [first, second]) {
      expect(actors.body.data).toContainEqual({ id: admin.id, fullName: admin.fullName, email: admin.email, administrator: true });
    }
    expect(actors.body.data.some((person: { id: number }) => person.id === customer.id)).toBe(false);
  });

  it('opens an entry with the before and after of a price edit and of a category edit', async () => {
    const admin = await namedAdmin();
    const shop = await newShop({ serviceIds: [FAKE.igLikes], admin });
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const [service] = await withDb((db) =>
      db.select({ rateKobo: services.rateKobo, costKobo: services.costKobo, categoryId: services.categoryId }).from(services).where(eq(services.id, serviceId)),
    );
    const rateBefore = service.rateKobo;
    const rateAfter = rateBefore + 12_345n;
    const renamed = unique('Audited likes ');
    expect(
      (await call(`admin/services/${serviceId}`, { method: 'PUT', token: admin.accessToken, body: { rate: naira(rateAfter), name: renamed, max: 5000 } }))
        .status,
    ).toBe(200);

    const listed = await call(`admin/audit?actorId=${admin.id}&targetType=service&targetId=${serviceId}`, { token: admin.accessToken });
    const entry = await call(`admin/audit/${listed.body.data[0].id}`, { token: admin.accessToken });
    expect(entry.status).toBe(200);
    expect(entry.body.data).toMatchObject({
      action: 'service.update',
      targetType: 'service',
      targetId: String(serviceId),
      actor: { id: admin.id, fullName: admin.fullName, email: admin.email },
      details: {
        price: {
          before: { rate: naira(rateBefore), cost: naira(service.costKobo) },
          after: { rate: naira(rateAfter), cost: naira(service.costKobo) },
        },
        changes: {
          rate: { from: naira(rateBefore), to: naira(rateAfter) },
          name: { to: renamed },
          max: { to: 5000 },
          priceMode: { from: 'markup', to: 'fixed' },
        },
      },
    });
    // Only what moved is listed as changed.
    expect(Object.keys(entry.body.data.details.changes).sort()).toEqual(['max', 'name', 'priceMode', 'rate']);

    // A category's edit records its fields before and after.
    const categoryName = unique('Audited category ');
    expect(
      (await call(`admin/services/categories/${service.categoryId}`, { method: 'PUT', token: admin.accessToken, body: { name: categoryName } })).status,
    ).toBe(200);
    const category = await call(`admin/audit?actorId=${admin.id}&action=category.update`, { token: admin.accessToken });
    expect(category.body.data[0]).toMatchObject({
      targetType: 'category',
      targetId: String(service.categoryId),
      details: { changes: { name: { to: categoryName } } },
    });
    expect(Object.keys(category.body.data[0].details.changes)).toEqual(['name']);

    // So does a provider's (its key never recorded).
    expect(
      (
        await call(`admin/providers/${shop.providerId}`, {
          method: 'PUT',
          token: admin.accessToken,
          body: { timeoutMs: 5000, apiKey: 'new-secret-key', lowBalanceAlert: '10' },
        })
      ).status,
    ).toBe(200);
    const provider = await call(`admin/audit?actorId=${admin.id}&targetType=provider&targetId=${shop.providerId}&action=provider.update`, {
      token: admin.accessToken,
    });
    expect(provider.body.data[0].details).toMatchObject({
      apiKeyChanged: true,
      changes: { timeoutMs: { from: 2000, to: 5000 }, lowBalanceAlert: { from: null, to: '10.00' } },
    });
    expect(JSON.stringify(provider.body.data[0].details)).not.toContain('new-secret-key');

    expect(await call('admin/audit?targetType=wallet', { token: admin.accessToken })).toMatchObject({ status: 400 });
    expect(await call('admin/audit?from=2024-02-30', { token: admin.accessToken })).toMatchObject({
      status: 400,
      body: { message: 'from must be a date (YYYY-MM-DD)' },
    });
  });
});
