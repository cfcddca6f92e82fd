// What the simulator orders: the shop's services on sale (the demo catalogue imported from the
// sandbox panel, local/fakes/smm-catalogue.ts) and, for one of them, a valid order of its type with
// a link or username no other order has, written both as /api/v1 JSON and as /api/v2 form fields.
import type pg from 'pg';
import { fresh, type Sim } from './world';

export interface SimService {
  id: number;
  name: string;
  type: string;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
  dripfeed: boolean;
  platform: string;
}

/** The kinds of order the simulator places, each a way the shop counts delivery and refunds. */
export type OrderShape = 'default' | 'drip-feed' | 'package' | 'custom comments' | 'subscription' | 'mentions and others';

export interface OrderRequest {
  service: SimService;
  shape: OrderShape;
  /** POST user/orders body. */
  v1: Record<string, unknown>;
  /** /api/v2 `add` fields (without key and action). */
  v2: Record<string, string>;
}

/** A host of each platform the demo catalogue has (worker/services/catalogue/catalogue.ts PLATFORMS). */
const HOSTS: Record<string, string> = {
  Instagram: 'instagram.com',
  TikTok: 'tiktok.com',
  YouTube: 'youtube.com',
  X: 'x.com',
  Facebook: 'facebook.com',
  Telegram: 't.me',
  Spotify: 'spotify.com',
};
const SUBSCRIPTION_DELAYS = [0, 5, 10, 30, 60];

export async function readServices(client: pg.Client): Promise<SimService[]> {
  const { rows } = await client.query<SimService>(`
    select s.id, s.name, s.type, s.min, s.max, s.refill, s.cancel, s.dripfeed, c.platform
    from services s join service_categories c on c.id = s.category_id join providers p on p.id = s.provider_id
    where s.enabled and p.enabled
    order by s.id`);
  if (rows.length === 0) throw new Error('the shop has no service on sale: the demo catalogue did not import');
  return rows;
}

function shapeOf(service: SimService): OrderShape {
  switch (service.type.toLowerCase()) {
    case 'default':
      return 'default';
    case 'package':
      return 'package';
    case 'custom comments':
      return 'custom comments';
    case 'subscriptions':
      return 'subscription';
    default:
      return 'mentions and others';
  }
}

const lines = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`).join('\n');

/** Picks a service of a shape (drip-feed among those that offer it) and writes an order for it. */
export function buildOrder(sim: Sim, services: readonly SimService[]): OrderRequest {
  const { rng, world } = sim;
  const shape = rng.weighted<OrderShape>({ default: 30, 'drip-feed': 15, package: 8, 'custom comments': 14, subscription: 15, 'mentions and others': 18 });
  const candidates = services.filter((service) => (shape === 'drip-feed' ? service.dripfeed && shapeOf(service) === 'default' : shapeOf(service) === shape));
  const service = rng.pick(candidates.length > 0 ? candidates : services);
  const actualShape = candidates.length > 0 ? shape : shapeOf(service);
  const name = fresh(world, 'sim');
  const link = `https://${HOSTS[service.platform] ?? 'instagram.com'}/${name}`;
  const quantity = Math.min(service.max, service.min * rng.int(1, 3));
  const fields: Record<string, string | number> = {};
  switch (actualShape) {
    case 'default':
      Object.assign(fields, { link, quantity });
      break;
    case 'drip-feed':
      Object.assign(fields, { link, quantity: service.min, runs: rng.int(2, 4), interval: rng.int(1, 30) });
      break;
    case 'package':
      Object.assign(fields, { link });
      break;
    case 'custom comments':
      Object.assign(fields, { link, comments: lines(Math.min(service.max, service.min + rng.int(0, 4)), 'Great post') });
      break;
    case 'subscription': {
      const max = Math.min(service.max, service.min * rng.int(1, 2));
      Object.assign(fields, { username: name.replaceAll('-', '_'), min: service.min, max, posts: rng.int(1, 4), delay: rng.pick(SUBSCRIPTION_DELAYS) });
      break;
    }
    case 'mentions and others': {
      const type = service.type.toLowerCase();
      if (type === 'mentions custom list') Object.assign(fields, { link, usernames: lines(Math.min(service.max, service.min + rng.int(0, 3)), '@someone') });
      else Object.assign(fields, { link, quantity });
      if (type === 'mentions with hashtags') Object.assign(fields, { usernames: '@one\n@two', hashtags: '#one\n#two' });
      if (type === 'mentions user followers' || type === 'comment likes') fields.username = `user_${world.counter}`;
      if (type === 'mentions media likers') fields.media = `${link}/media`;
      if (type === 'poll') fields.answer_number = rng.int(1, 4);
      break;
    }
  }
  const v1: Record<string, unknown> = { serviceId: service.id };
  for (const [field, value] of Object.entries(fields)) v1[field === 'answer_number' ? 'answerNumber' : field] = value;
  const v2: Record<string, string> = { service: String(service.id) };
  for (const [field, value] of Object.entries(fields)) v2[field] = String(value);
  return { service, shape: actualShape, v1, v2 };
}
