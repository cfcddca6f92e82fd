// The placing statement's text is built once per isolate for each shape (worker/lib/statement-cache.ts), and the
// shape includes which of the planned service's values are null (checked `is null`, the others `=`). An order planned
// with a copy that is null where the service now has a value, or the other way round, is refused by the statement
// and planned again from a fresh read: placed once, charged once, at the fresh values.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, services } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import { placeOrder } from '../../../worker/services/orders/order-placing';
import { unique, withDb } from '../../support/api';
import { newLink, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, shopSelling } from '../fixtures/shop-fixtures';
import { balanceKobo, ledgerFor } from '../fixtures/wallet-fixtures';

const setLinkKind = (serviceId: number, linkKind: 'url' | null) => withDb((db) => db.update(services).set({ linkKind }).where(eq(services.id, serviceId)));

describe('the placing statement of each shape', () => {
  it('places and charges once an order whose planned copy differs from the service in which values are null', async () => {
    const { serviceId, user, funded } = await shopSelling(FAKE.igLikes);
    const place = (db: Db) => placeOrder(db, env, user.id, { serviceId, link: newLink(), quantity: 1000 }, { idempotencyKey: unique('key') });

    await setLinkKind(serviceId, null);
    const first = await withDb(place);
    // The isolate's copy now says null; the service says url.
    await setLinkKind(serviceId, 'url');
    const second = await withDb(place);
    // And the other way round: the copy says url, the service null.
    await setLinkKind(serviceId, null);
    const third = await withDb(place);

    const placed = await withDb((db) => db.select().from(orders).where(eq(orders.userId, user.id)));
    expect(placed.map((order) => order.id).sort()).toEqual([first.order.id, second.order.id, third.order.id].sort());
    const debits = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order');
    expect(debits.map((entry) => entry.sourceRef).sort()).toEqual(placed.map((order) => String(order.id)).sort());
    const charged = placed.reduce((sum, order) => sum + order.chargeKobo, 0n);
    expect(debits.reduce((sum, entry) => sum + entry.amountKobo, 0n)).toBe(charged);
    expect(await balanceKobo(user.id)).toBe(funded - charged);
    for (const order of placed) await untilSubmitted(order.id);
  });
});
