// The shop's vocabulary: the words the tables, the Worker and the SPA share (user types, order statuses, the requests pending on
// orders and service types, submission states, ledger sources, link kinds, price modes, warning, notification and ticket kinds, webhook events).
// It imports nothing: drizzle/schema.ts builds its columns on it, worker/schemas its zod schemas, and the SPA its screens.

// ---------------------------------------------------------------- Accounts

/** users.user_type (spec section 9): 1 administrator, 2 regular user. */
export const USER_TYPE = { admin: 1, user: 2 } as const;
export type UserType = (typeof USER_TYPE)[keyof typeof USER_TYPE];

// ---------------------------------------------------------------- Orders

/** The order statuses as the spec and the SMM panel protocol name them. */
export const ORDER_STATUSES = ['Pending Submission', 'Pending', 'In progress', 'Processing', 'Completed', 'Partial', 'Canceled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Orders whose money is still committed: paid, not finished. */
export const OPEN_ORDER_STATUSES = ['Pending Submission', 'Pending', 'In progress', 'Processing'] as const satisfies readonly OrderStatus[];
/**
 * A refill or cancel the shop forwarded and the provider has not answered yet: shown beside the status on the order card and
 * in the reseller API's `request` field, never as the status itself (tools switch on the protocol's six words).
 */
export const PENDING_REQUESTS = ['Refill requested', 'Cancel requested'] as const;
export type PendingRequest = (typeof PENDING_REQUESTS)[number];

/**
 * Where an order stands with the provider. queued: certainly not at the provider (safe to send);
 * sending: one process has claimed it and is calling `add`; unknown: `add` may or may not have
 * created it (never sent again automatically); accepted: the provider gave an order id;
 * rejected: the provider refused it for good (the order is canceled and refunded);
 * withdrawn: canceled while still queued, so it never reached the provider.
 */
export const SUBMISSION_STATES = ['queued', 'sending', 'unknown', 'accepted', 'rejected', 'withdrawn'] as const;
export type SubmissionState = (typeof SUBMISSION_STATES)[number];

// ---------------------------------------------------------------- Service types: the SMM panel protocol's, where each takes its quantity from and which extra fields it needs (the Worker's order checks and the SPA's order form)

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

// ---------------------------------------------------------------- Catalogue

/** What a service's order link is: a URL (a post or page) or an account given by username. */
export const LINK_KINDS = ['url', 'username'] as const;
/** How a service is priced: a markup over its provider's cost, or a fixed price. */
export const PRICE_MODES = ['markup', 'fixed'] as const;
/** What the margin guard does to a fixed price that falls under the minimum margin. */
export const MARGIN_GUARD_ACTIONS = ['reprice', 'disable'] as const;
/**
 * Why a service is off: an administrator, the margin guard, gone from its provider's list, its
 * provider price held for review, or its price under its cost at an exchange rate held for review.
 */
export const DISABLED_REASONS = ['admin', 'margin', 'provider_missing', 'provider_price', 'held_below_cost'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

// ---------------------------------------------------------------- Money

/** A ledger row's transaction_type: money in (deposits, refunds, credits) or out (orders, debits). */
export const TRANSACTION_TYPE = { deposit: 1, withdrawal: 2 } as const;

/** data.orderStatus of verify-payment; the spec names 2 as success. */
export const ORDER_STATUS = { pending: 1, success: 2, failed: 3 } as const;

/**
 * What can cause a balance change (a ledger row's source kind). A card payment the provider took
 * back is a 'chargeback' (a refund or a dispute), one a dispute gave back a 'chargeback_return', and
 * money a credit paid towards the debt a chargeback left a 'debt_settlement'. A referral commission
 * follows its deposit: taken back with it ('commission_reversal'), given back with it ('commission_return').
 */
export const LEDGER_SOURCES = [
  'payment',
  'admin_credit',
  'admin_debit',
  'order',
  'order_refund',
  'chargeback',
  'chargeback_return',
  'debt_settlement',
  'referral_commission',
  'commission_reversal',
  'commission_return',
] as const;

/** Where a refund or dispute of a payment stands: a refund is 'taken' at once; a dispute opens, then is won or lost. */
export const REVERSAL_STATUSES = ['taken', 'dispute_open', 'dispute_won', 'dispute_lost'] as const;
export type ReversalStatus = (typeof REVERSAL_STATUSES)[number];

// ---------------------------------------------------------------- Notifications

/** What a user can be told about, by email and in the bell. */
export const NOTIFICATION_KINDS = [
  'deposit_credited',
  'deposit_reversed',
  'wallet_adjusted',
  'order_completed',
  'order_partial',
  'order_canceled',
  'refill_completed',
  'ticket_answered',
  'low_balance',
  'referral_earned',
  'referral_released',
  'referral_reversed',
  'api_order_digest',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
/**
 * The daily summary of orders placed through the API: written only while its own setting is on, so that setting is also
 * its email switch, and it is not one of the kinds emailed unless turned off.
 */
export const API_ORDER_DIGEST = 'api_order_digest' satisfies NotificationKind;

// ---------------------------------------------------------------- Reseller webhooks

/** What a reseller's endpoint can be sent: each change of an order's protocol status, of a refill's, and the low-balance alert. */
export const WEBHOOK_EVENTS = ['order.status', 'refill.status', 'balance.low'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The event of "Send test" on the API page, which no subscription asks for. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const MAX_WEBHOOKS_PER_USER = 5;
/** new: waiting for its body and queue; sending: queued or being retried; delivered: the endpoint answered 2xx; failed: given up. */
export const WEBHOOK_DELIVERY_STATES = ['new', 'sending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

// ---------------------------------------------------------------- Support tickets

export const TICKET_KINDS = ['order', 'payment', 'refill', 'other'] as const;
export type TicketKind = (typeof TICKET_KINDS)[number];

/**
 * Open: waiting for a first answer; Answered: support replied last; Customer reply: the user
 * replied after an answer; Closed: settled by support (a user opens a new ticket to go on).
 */
export const TICKET_STATUSES = ['Open', 'Answered', 'Customer reply', 'Closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Kinds a ticket can tie to one of the user's orders; a deposit goes with 'payment' only. */
export const ORDER_TICKET_KINDS = ['order', 'refill'] as const satisfies readonly TicketKind[];

// ---------------------------------------------------------------- Warnings to administrators

/** What the catalogue sync, the margin guard and the order sync tell administrators about. */
export const WARNING_KINDS = [
  // the margin guard and the catalogue sync
  'margin_repriced',
  'margin_disabled',
  'service_missing',
  // providers and the orders sent to them
  'provider_low_balance',
  'submission_unknown',
  'provider_unhealthy',
  'order_unclear_answer',
  'order_needs_attention',
  // figures held for review
  'rate_proposed',
  'provider_price_suspect',
  // money
  'payment_reversed',
  'referral_blocked',
  'reconciliation',
  'transfer_unclaimed',
] as const;
export type WarningKind = (typeof WARNING_KINDS)[number];
