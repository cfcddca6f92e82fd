// What each service type is ordered by (the common SMM-panel API types) and the unit its rate is for:
// all a list of services needs, without the order form's zod schema (orderFields.ts), so the
// catalogue screens load no zod.
import type { Service } from './catalog';

export type ExtraField = 'comments' | 'username' | 'usernames' | 'hashtags' | 'hashtag' | 'media' | 'answerNumber' | 'min' | 'max' | 'posts' | 'delay' | 'expiry';

/** Where the quantity comes from (mirrors the Worker's TYPE_RULES in worker/services/order-plan.ts). */
export type QuantitySource = 'input' | 'comments' | 'usernames' | 'package' | 'subscription';

export interface TypeSpec {
  quantity: QuantitySource;
  /** Extra fields the type shows (all required but the subscription's posts, delay and expiry: orderFields.ts). */
  extras: ExtraField[];
}

const SPECS: Record<string, TypeSpec> = {
  default: { quantity: 'input', extras: [] },
  package: { quantity: 'package', extras: [] },
  'custom comments': { quantity: 'comments', extras: ['comments'] },
  'custom comments package': { quantity: 'package', extras: ['comments'] },
  mentions: { quantity: 'input', extras: ['usernames'] },
  'mentions with hashtags': { quantity: 'input', extras: ['usernames', 'hashtags'] },
  'mentions custom list': { quantity: 'usernames', extras: ['usernames'] },
  'mentions hashtag': { quantity: 'input', extras: ['hashtag'] },
  'mentions user followers': { quantity: 'input', extras: ['username'] },
  'mentions media likers': { quantity: 'input', extras: ['media'] },
  poll: { quantity: 'input', extras: ['answerNumber'] },
  'comment likes': { quantity: 'input', extras: ['username'] },
  'comment replies': { quantity: 'comments', extras: ['username', 'comments'] },
  subscriptions: { quantity: 'subscription', extras: ['username', 'min', 'max', 'posts', 'delay', 'expiry'] },
};

export function typeSpec(type: string | null | undefined): TypeSpec {
  return SPECS[(type ?? 'default').trim().toLowerCase()] ?? SPECS.default;
}

/** The unit a service's rate is for: packages are priced each, everything else per 1000. */
export const rateUnit = (service: Pick<Service, 'type'>) => (typeSpec(service.type).quantity === 'package' ? 'per package' : 'per 1000');
