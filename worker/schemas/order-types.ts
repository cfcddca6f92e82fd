// The SMM panel protocol's service types: where each takes its quantity from and which extra fields it
// needs. One table for the Worker's order checks (services/order-plan.ts) and the SPA's order form; no zod
// here, so the catalogue screens that only show rate units load none.

/** Extra fields a type requires besides the link. */
export type RequiredField = 'comments' | 'username' | 'usernames' | 'hashtags' | 'hashtag' | 'media' | 'answerNumber';

export interface OrderTypeRule {
  /** Where the quantity comes from: the input, the number of comment or username lines, one package, or a subscription's max × posts. */
  quantity: 'input' | 'comments' | 'usernames' | 'package' | 'subscription';
  required: RequiredField[];
}

const ORDER_TYPE_RULES: Record<string, OrderTypeRule> = {
  default: { quantity: 'input', required: [] },
  package: { quantity: 'package', required: [] },
  'custom comments': { quantity: 'comments', required: ['comments'] },
  'custom comments package': { quantity: 'package', required: ['comments'] },
  mentions: { quantity: 'input', required: ['usernames'] },
  'mentions with hashtags': { quantity: 'input', required: ['usernames', 'hashtags'] },
  'mentions custom list': { quantity: 'usernames', required: ['usernames'] },
  'mentions hashtag': { quantity: 'input', required: ['hashtag'] },
  'mentions user followers': { quantity: 'input', required: ['username'] },
  'mentions media likers': { quantity: 'input', required: ['media'] },
  poll: { quantity: 'input', required: ['answerNumber'] },
  'comment likes': { quantity: 'input', required: ['username'] },
  'comment replies': { quantity: 'comments', required: ['username', 'comments'] },
  subscriptions: { quantity: 'subscription', required: ['username'] },
};

/** A service type's rule; unknown types are treated as Default. */
export const orderTypeRule = (type: string | null | undefined): OrderTypeRule =>
  ORDER_TYPE_RULES[(type ?? 'default').trim().toLowerCase()] ?? ORDER_TYPE_RULES.default;
