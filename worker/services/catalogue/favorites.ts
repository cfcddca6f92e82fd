// Services a user starred, with what they last ordered of each so "Order again" can fill the form.
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { favorites, orders, providers, serviceCategories, services } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { invalid, notFound } from '../../lib/errors';
import { type ServiceRow, serviceColumns, toServiceView } from './catalogue';

export const MAX_FAVORITES = 200;
export const SERVICE_NOT_FOUND = 'Service not found';
export const TOO_MANY_FAVORITES = `You can keep up to ${MAX_FAVORITES} favorites. Remove one to add another.`;

const onSale = sql<boolean>`${services.enabled} and ${providers.enabled}`;

/** GET user/favorites: newest first, each with the user's last order of it (one query). */
export async function listFavorites(db: Db, userId: number) {
  const lastOrder = db
    .select({ link: orders.link, quantity: orders.quantity, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.serviceId, favorites.serviceId)))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(1)
    .as('last_order');
  const rows = await db
    .select({
      service: serviceColumns,
      onSale,
      starredAt: favorites.createdAt,
      lastOrder: { link: lastOrder.link, quantity: lastOrder.quantity, createdAt: lastOrder.createdAt },
    })
    .from(favorites)
    .innerJoin(services, eq(services.id, favorites.serviceId))
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
    .innerJoin(providers, eq(providers.id, services.providerId))
    .leftJoinLateral(lastOrder, sql`true`)
    .where(eq(favorites.userId, userId))
    .orderBy(desc(favorites.createdAt), desc(favorites.serviceId));
  return rows.map((row) => ({
    service: toServiceView(row.service as ServiceRow),
    available: row.onSale,
    starredAt: row.starredAt.toISOString(),
    lastOrder: row.lastOrder ? { link: row.lastOrder.link, quantity: row.lastOrder.quantity, orderedAt: row.lastOrder.createdAt.toISOString() } : null,
  }));
}

/** The ids alone, for the stars of the services list (which is public and the same for everyone). */
export async function favoriteIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: favorites.serviceId }).from(favorites).where(eq(favorites.userId, userId));
  return rows.map((row) => row.id);
}

/**
 * Stars a service on sale; starring it again changes nothing. The cap is counted in the same
 * statement, so two tabs starring at once cannot pass it by more than what is already in flight.
 */
export async function addFavorite(db: Db, userId: number, serviceId: number): Promise<void> {
  const { rows: inserted } = await db.execute(sql`
    insert into ${favorites} (user_id, service_id)
    select ${userId}, s.id from ${services} s join ${providers} p on p.id = s.provider_id
    where s.id = ${serviceId} and s.enabled and p.enabled
      and (select count(*) from ${favorites} where user_id = ${userId}) < ${MAX_FAVORITES}
    on conflict do nothing
    returning service_id`);
  if (inserted.length > 0) return;
  const [[existing], [sale], [{ total }]] = await Promise.all([
    db
      .select({ id: favorites.serviceId })
      .from(favorites)
      .where(and(eq(favorites.userId, userId), eq(favorites.serviceId, serviceId))),
    db.select({ onSale }).from(services).innerJoin(providers, eq(providers.id, services.providerId)).where(eq(services.id, serviceId)),
    db.select({ total: count() }).from(favorites).where(eq(favorites.userId, userId)),
  ]);
  if (existing) return;
  if (!sale?.onSale) throw notFound(SERVICE_NOT_FOUND);
  if (total >= MAX_FAVORITES) throw invalid(TOO_MANY_FAVORITES);
}

/** Unstars; a service that was not starred is already unstarred. */
export async function removeFavorite(db: Db, userId: number, serviceId: number): Promise<void> {
  await db.delete(favorites).where(and(eq(favorites.userId, userId), eq(favorites.serviceId, serviceId)));
}
