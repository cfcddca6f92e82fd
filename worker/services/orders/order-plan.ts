// Checking an order against its service: the fields each service type needs, the link (a URL on
// the platform or, for services sold by username, an account), the quantity and its range, and
// the price. Also reading the service an order is planned with, and the conditions under which
// the placing statement (orders.ts) may still use that plan.
import { and, eq, inArray, Param, type SQL, sql } from 'drizzle-orm';
import type { PgSelectQueryBuilder } from 'drizzle-orm/pg-core';
import { providers, serviceCategories, services } from '../../../drizzle/schema';
import { orderTypeRule, type RequiredField } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { ceilDiv } from '../../lib/decimal';
import { invalid } from '../../lib/errors';
import type { SmmAddOrderInput } from '../../providers/smm/types';

import {
  type CreateOrderData,
  DEFAULT_SUBSCRIPTION_POSTS,
  LINK_INVALID,
  LINK_REQUIRED,
  platformLinkMessage,
  QUANTITY_INVALID,
  SERVICE_UNAVAILABLE,
  SUBSCRIPTION_DELAYS,
  USERNAME_INVALID,
} from '../../schemas/orders';
import { accountLink, appUriLink, linkKindOf, PLATFORMS } from '../catalogue';

/** What is sent to the provider's `add` besides the service id. */
export type ProviderFields = Omit<SmmAddOrderInput, 'service'>;

const MAX_DELIVERABLE = 2_147_483_647;
/** Postgres bigint: a charge times the units it covers must fit, so the refund arithmetic on it cannot overflow. */
const MAX_BIGINT = 9_223_372_036_854_775_807n;

const FIELD_NAMES: Record<RequiredField, string> = {
  comments: 'Comments',
  username: 'Username',
  usernames: 'Usernames',
  hashtags: 'Hashtags',
  hashtag: 'Hashtag',
  media: 'Media',
  answerNumber: 'Answer number',
};

/**
 * What an order is planned with: planOrder reads nothing else of the service, and the placing
 * statement checks every one of these is still the same (unchangedSince).
 */
const orderableColumns = {
  id: services.id,
  name: services.name,
  type: services.type,
  category: serviceCategories.name,
  platform: serviceCategories.platform,
  linkKind: services.linkKind,
  providerId: services.providerId,
  providerServiceId: services.providerServiceId,
  rateKobo: services.rateKobo,
  costKobo: services.costKobo,
  min: services.min,
  max: services.max,
  dripfeed: services.dripfeed,
};
type Value<TColumn extends { _: { data: unknown; notNull: boolean } }> = TColumn['_']['notNull'] extends true
  ? TColumn['_']['data']
  : TColumn['_']['data'] | null;
export type OrderableService = { [Key in keyof typeof orderableColumns]: Value<(typeof orderableColumns)[Key]> };

export interface OrderPlan {
  service: OrderableService;
  link: string;
  quantity: number;
  deliverable: number;
  providerFields: ProviderFields;
  chargeKobo: bigint;
  costKobo: bigint;
}

export const serviceIdOf = (serviceId: number | string): number | null =>
  typeof serviceId === 'number' ? serviceId : /^\d{1,9}$/.test(serviceId) ? Number(serviceId) : null;

/** Joins a query on services to the category and provider an order checks (platform; both on sale). */
export const withCategoryAndProvider = <TQuery extends PgSelectQueryBuilder>(query: TQuery) =>
  query.innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId)).innerJoin(providers, eq(providers.id, services.providerId));
const ON_SALE = and(eq(services.enabled, true), eq(providers.enabled, true));
const onSale = (serviceIds: number | number[]) => and(typeof serviceIds === 'number' ? eq(services.id, serviceIds) : inArray(services.id, serviceIds), ON_SALE);

const ORDERABLE_KEYS = Object.keys(orderableColumns) as Array<keyof OrderableService>;

/** The planned service's values that are null: the placing statement checks them with `is null`, the others with `=`. */
export const nullValuesOf = (service: OrderableService): Array<keyof OrderableService> => ORDERABLE_KEYS.filter((key) => service[key] === null);

/** The placeholder of a planned service's value in the placing statement, filled by plannedServiceValues. */
export const plannedServiceValue = (key: keyof OrderableService) => sql.placeholder(`service.${key}`);

export const plannedServiceValues = (service: OrderableService): Record<string, unknown> =>
  Object.fromEntries(ORDERABLE_KEYS.map((key) => [`service.${key}`, service[key]]));

/**
 * The service still has every value the order was planned with (plannedServiceValues; `nullValues` are null), and
 * is on sale. Written with placeholders, each encoded by its column, so one text serves every order of that shape.
 */
export function unchangedSince(nullValues: ReadonlyArray<keyof OrderableService>): SQL {
  const sameValues = ORDERABLE_KEYS.map((key) => {
    const column = orderableColumns[key];
    return nullValues.includes(key) ? sql`${column} is null` : eq(column, new Param(plannedServiceValue(key), column));
  });
  return and(ON_SALE, ...sameValues)!;
}

/**
 * Orderable services this isolate read lately. An order is planned with the copy here and the
 * placing statement re-checks every value it was planned with, so the usual order needs no read
 * of its own: a copy that is out of date costs a read and a retry, never a wrong charge, and an
 * order the copy would refuse is judged again on a fresh read.
 */
const recentlyRead = new Map<number, OrderableService>();
const RECENTLY_READ_LIMIT = 1000;

export const recentlyReadService = (id: number | null) => (id === null ? undefined : recentlyRead.get(id));

function remember(row: OrderableService): void {
  if (recentlyRead.size >= RECENTLY_READ_LIMIT) recentlyRead.delete(recentlyRead.keys().next().value!);
  recentlyRead.set(row.id, row);
}

/** The read of one service on sale, as a query a route can send in a batch; `rememberServices` keeps what it found. */
export const orderableServiceQuery = (db: DbOrTx, id: number) =>
  withCategoryAndProvider(db.select(orderableColumns).from(services).$dynamic()).where(onSale(id));

export const rememberServices = (rows: OrderableService[]): void => rows.forEach(remember);

export async function readOrderableService(db: DbOrTx, id: number | null): Promise<OrderableService> {
  const [row] = id === null ? [] : await orderableServiceQuery(db, id);
  if (!row) {
    if (id !== null) recentlyRead.delete(id);
    throw invalid(SERVICE_UNAVAILABLE);
  }
  remember(row);
  return row;
}

/** The services among `ids` that are on sale, read in one query; the others are simply absent. */
export async function readOrderableServices(db: DbOrTx, ids: readonly number[]): Promise<Map<number, OrderableService>> {
  const rows = ids.length === 0 ? [] : await withCategoryAndProvider(db.select(orderableColumns).from(services).$dynamic()).where(onSale([...new Set(ids)]));
  for (const id of ids) recentlyRead.delete(id);
  rows.forEach(remember);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * What a mass-order line (service, link and quantity, nothing else) costs at the service's price:
 * the figure the batch's total is agreed on before its lines are checked. Null for a type that
 * needs fields a line cannot give (planOrder refuses such a line anyway). The SPA's mass order
 * form computes the same.
 */
export function massLineChargeKobo(service: Pick<OrderableService, 'type' | 'rateKobo'>, quantity: number): bigint | null {
  const rule = orderTypeRule(service.type);
  if (rule.required.length > 0 || (rule.quantity !== 'input' && rule.quantity !== 'package')) return null;
  // A package line is one package (planOrder refuses any other quantity), charged its rate.
  return ceilDiv(service.rateKobo * BigInt(rule.quantity === 'package' ? 1000 : quantity), 1000n);
}

const lines = (text: string | undefined) =>
  (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');

/** Users paste links without the scheme; a bare host gets https://. */
const withScheme = (link: string) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link}`);

/**
 * The link as stored and sent: a URL on the service's platform, or for a service sold by
 * username also a username (`name`, `@name`), which becomes the account's profile link
 * (link-kinds.ts says why). An app's own address (`spotify:artist:ID`) is read as its web link;
 * other text with a slash or a scheme is always read as a URL.
 */
function checkLink(typed: string | undefined, service: OrderableService): string {
  if (!typed) throw invalid(LINK_REQUIRED);
  const raw = appUriLink(typed) ?? typed;
  const byUsername = linkKindOf(service) === 'username';
  if (byUsername && !/[/:]/.test(raw)) {
    const account = accountLink(service.platform, raw);
    if (!account) throw invalid(USERNAME_INVALID);
    return account;
  }
  const link = withScheme(raw);
  const url = URL.parse(link);
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname.includes('.')) throw invalid(byUsername ? USERNAME_INVALID : LINK_INVALID);
  const hosts = PLATFORMS.find((candidate) => candidate.name === service.platform)?.hosts;
  const host = url.hostname.toLowerCase();
  if (hosts && !hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))) {
    throw invalid(platformLinkMessage(service.platform, byUsername));
  }
  return link;
}

function checkRange(quantity: number, service: OrderableService, name = 'quantity'): void {
  if (quantity < service.min) throw invalid(`Minimum ${name} is ${service.min.toLocaleString('en-US')}`);
  if (quantity > service.max) throw invalid(`Maximum ${name} is ${service.max.toLocaleString('en-US')}`);
}

/** Validates an order against its service and prices it: ceil(rate × units / 1000) kobo, rate being per 1000 (per package for packages). */
export function planOrder(service: OrderableService, input: CreateOrderData): OrderPlan {
  const rule = orderTypeRule(service.type);
  for (const field of rule.required) {
    if (!input[field]) throw invalid(`${FIELD_NAMES[field]} is required`);
  }
  if (input.answerNumber !== undefined && !/^\d{1,9}$/.test(input.answerNumber)) throw invalid('Answer number must be a whole number');
  const fields: ProviderFields = {
    comments: input.comments,
    username: input.username,
    usernames: input.usernames,
    hashtags: input.hashtags,
    hashtag: input.hashtag,
    media: input.media,
    answerNumber: input.answerNumber === undefined ? undefined : Number(input.answerNumber),
  };

  let link: string;
  let quantity: number;
  let deliverable: number;
  /** Units the rate (per 1000) applies to. */
  let billedUnits: number;
  if (rule.quantity === 'subscription') {
    if (input.min === undefined) throw invalid('min is required for subscriptions');
    if (input.max === undefined) throw invalid('max is required for subscriptions');
    if (input.min > input.max) throw invalid('min cannot be more than max');
    checkRange(input.min, service, 'min');
    checkRange(input.max, service, 'max');
    // Subscriptions are paid up front for every post they may cover (future and old), so the count is bounded even when not given.
    const posts = input.posts ?? DEFAULT_SUBSCRIPTION_POSTS;
    if (posts < 1) throw invalid('posts must be at least 1');
    const delay = input.delay ?? 0;
    if (!SUBSCRIPTION_DELAYS.includes(delay)) throw invalid(`delay must be one of ${SUBSCRIPTION_DELAYS.join(', ')} minutes`);
    if (input.expiry !== undefined && !/^\d{2}\/\d{2}\/\d{4}$/.test(input.expiry)) throw invalid('expiry must be a date as dd/mm/yyyy');
    // People type the account with or without @: the provider gets the bare name, and the order's link names it once as @name.
    const username = input.username!.trim().replace(/^@+/, '');
    if (!username) throw invalid('Username is required');
    Object.assign(fields, { username, min: input.min, max: input.max, posts, oldPosts: input.oldPosts, delay, expiry: input.expiry });
    link = input.link ? checkLink(input.link, service) : `@${username}`;
    quantity = input.max;
    deliverable = input.max * (posts + (input.oldPosts ?? 0));
    billedUnits = deliverable;
  } else {
    link = checkLink(input.link, service);
    fields.link = link;
    if (rule.quantity === 'comments' || rule.quantity === 'usernames') {
      quantity = lines(input[rule.quantity]).length;
      checkRange(quantity, service);
      billedUnits = quantity;
    } else if (rule.quantity === 'package') {
      // The protocol's `add` for a package takes no quantity (service and link only): the provider
      // delivers one package per order. So an order is one package, and is charged for one.
      if (input.quantity !== undefined && input.quantity !== 1)
        throw invalid('This service is sold by the package: each order is one package, so leave the quantity out or send 1');
      quantity = 1;
      billedUnits = 1000;
    } else {
      if (input.quantity === undefined) throw invalid(QUANTITY_INVALID);
      quantity = input.quantity;
      checkRange(quantity, service);
      fields.quantity = quantity;
      billedUnits = quantity;
    }
    deliverable = quantity;
    if (input.runs !== undefined || input.interval !== undefined) {
      if (!service.dripfeed) throw invalid('Drip-feed is not available for this service');
      if (rule.quantity !== 'input') throw invalid('Drip-feed is only available for services ordered by quantity');
      if (input.runs === undefined) throw invalid('Runs are required for drip-feed');
      if (input.interval === undefined) throw invalid('Interval is required for drip-feed');
      Object.assign(fields, { runs: input.runs, interval: input.interval });
      deliverable = quantity * input.runs;
      billedUnits = deliverable;
    }
  }
  if (deliverable > MAX_DELIVERABLE) throw invalid('This order is too large');
  const chargeKobo = ceilDiv(service.rateKobo * BigInt(billedUnits), 1000n);
  if (chargeKobo * BigInt(deliverable) > MAX_BIGINT) throw invalid('This order is too large');
  return {
    service,
    link,
    quantity,
    deliverable,
    providerFields: Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as ProviderFields,
    chargeKobo,
    costKobo: ceilDiv(service.costKobo * BigInt(billedUnits), 1000n),
  };
}
