// What each service type is ordered by (the common SMM-panel API types) and the unit its rate is for:
// all a list of services needs, without the order form's zod schema (orderFields.ts), so the
// catalogue screens load no zod.
import { type OrderTypeRule, orderTypeRule, type RequiredField } from '@vocabulary';

import type { Service } from '@/api/catalogue';

type SubscriptionField = 'min' | 'max' | 'posts' | 'delay' | 'expiry';
export type ExtraField = RequiredField | SubscriptionField;

export interface TypeSpec {
  quantity: OrderTypeRule['quantity'];
  /** Extra fields the type shows (all required but the subscription's posts, delay and expiry: orderFields.ts). */
  extras: ExtraField[];
}

/** A subscription also asks for its range, how many posts, the delay between them and when it expires. */
const SUBSCRIPTION_FIELDS: SubscriptionField[] = ['min', 'max', 'posts', 'delay', 'expiry'];

/** The Worker's rule for the type (the vocabulary's orderTypeRule), with the fields the form shows for it. */
export function typeSpec(type: string | null | undefined): TypeSpec {
  const rule = orderTypeRule(type);
  return { quantity: rule.quantity, extras: rule.quantity === 'subscription' ? [...rule.required, ...SUBSCRIPTION_FIELDS] : rule.required };
}

/** The unit a service's rate is for: packages are priced each, everything else per 1000. */
export const rateUnit = (service: Pick<Service, 'type'>) => (typeSpec(service.type).quantity === 'package' ? 'per package' : 'per 1000');
