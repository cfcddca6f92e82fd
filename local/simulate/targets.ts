// Which order an operation acts on: read straight from Postgres (this seed's users' orders), then
// chosen with the seed's random source, so the choice replays as far as the shop's state does.
import type { Sim } from './world';

export interface TargetOrder {
  id: number;
  userId: number;
  status: string;
  submission: string;
  link: string;
  extras: Record<string, unknown>;
  deliverable: number;
}

export type TargetKind =
  /** Still open: Pending Submission, Pending, In progress, Processing. */
  | 'open'
  /** At the provider and open: what cancels and status changes are mostly about. */
  | 'at provider'
  /** Delivered (Completed or Partial) on a service that refills. */
  | 'refillable'
  /** Its submission is unknown: an administrator must find it at the provider. */
  | 'unknown'
  | 'any';

const WHERE: Record<TargetKind, string> = {
  open: `o.status in ('Pending Submission', 'Pending', 'In progress', 'Processing')`,
  'at provider': `o.status in ('Pending', 'In progress', 'Processing') and o.submission = 'accepted'`,
  refillable: `o.status in ('Completed', 'Partial') and o.submission = 'accepted' and s.refill`,
  unknown: `o.status = 'Pending Submission' and o.submission = 'unknown'`,
  any: 'true',
};

export const seedUserIds = (sim: Sim) => sim.world.users.map((user) => user.id);

/** One of this seed's orders of the kind, or null when it has none. */
export async function pickOrder(sim: Sim, kind: TargetKind): Promise<TargetOrder | null> {
  const ids = seedUserIds(sim);
  if (ids.length === 0) return null;
  const { rows } = await sim.pg.query<TargetOrder>(
    `
    select o.id, o.user_id as "userId", o.status, o.submission, o.link, o.extras, o.deliverable
    from orders o join services s on s.id = o.service_id
    where o.user_id = any($1::int[]) and ${WHERE[kind]}
    order by o.id`,
    [ids],
  );
  return rows.length === 0 ? null : sim.rng.pick(rows);
}

/** What the panel's add counter calls an order: its link, or `username:<name>` for a subscription. */
export function providerLinkOf(order: { link: string; extras: unknown }): string {
  const extras = order.extras as Record<string, unknown> | null;
  return extras?.posts !== undefined && typeof extras.username === 'string' ? `username:${extras.username}` : order.link;
}
