// The shapes the SMM client hands to callers, already cleaned of the panel
// protocol's quirks: ids are strings, money is bigint micro-units (scale 6) of
// the provider's currency, counts are numbers, statuses use one spelling.

import { ProviderError } from '../http';

/** Money fields from the provider are parsed at this scale: 1 USD = 1_000_000n. */
export const PROVIDER_MONEY_SCALE = 6;

/** The panels' order statuses, in their canonical spelling. */
export type SmmOrderStatus = 'Pending' | 'In progress' | 'Processing' | 'Completed' | 'Partial' | 'Canceled';

/** A refill request's lifecycle as panels report it. */
export type SmmRefillStatus = 'Pending' | 'In progress' | 'Completed' | 'Rejected' | 'Canceled';

/** The service types of the v2 protocol; they decide which `add` fields are required. */
export type SmmServiceType =
  | 'Default'
  | 'Package'
  | 'Custom Comments'
  | 'Custom Comments Package'
  | 'Mentions'
  | 'Mentions with Hashtags'
  | 'Mentions Custom List'
  | 'Mentions Hashtag'
  | 'Mentions User Followers'
  | 'Mentions Media Likers'
  | 'Poll'
  | 'Subscriptions'
  | 'Comment Likes'
  | 'Comment Replies'
  | 'SEO'
  // Panels invent new types; they are passed through as given.
  | (string & {});

export interface SmmService {
  id: string;
  name: string;
  type: SmmServiceType;
  category: string;
  /** Price per 1000 units, in micro-units of the provider's currency. */
  ratePer1000Micros: bigint;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
  dripfeed: boolean;
}

export interface SmmServiceCatalogue {
  services: SmmService[];
  /** Entries the panel listed but we could not read (e.g. a rate of ""); left out of `services`. */
  unreadable: Array<{ entry: unknown; reason: string }>;
}

/**
 * Fields of the `add` action. Which ones a service needs depends on its type
 * (Default: link + quantity; Custom Comments: link + comments; Subscriptions:
 * username + min + max + delay; ...). List fields accept an array, sent one item per line.
 */
export interface SmmAddOrderInput {
  service: string;
  link?: string;
  quantity?: number;
  /** Drip-feed: how many runs, and minutes between them. */
  runs?: number;
  interval?: number;
  comments?: string | string[];
  usernames?: string | string[];
  hashtags?: string | string[];
  hashtag?: string;
  username?: string;
  media?: string;
  answerNumber?: number;
  /** Subscriptions: quantity range per post, post limits, delay in minutes and expiry date. */
  min?: number;
  max?: number;
  posts?: number;
  oldPosts?: number;
  delay?: number;
  expiry?: string;
}

/**
 * One order as the panel reports it. Each field is read on its own: a field the panel left out
 * is null, a field it sent but we cannot read is null too and named in `unreadable`, so one odd
 * field never hides the others and callers decide what the rest is still good for.
 */
export interface SmmOrderState {
  /** What the provider has charged for the order so far, in micro-units of `currency`. */
  chargeMicros: bigint | null;
  startCount: number | null;
  /** Null when the panel's word means nothing we know (it is then named in `unreadable`). */
  status: SmmOrderStatus | null;
  /** Units not delivered. Negative when the provider over-delivered. */
  remains: number | null;
  currency: string;
  /** Drip-feed: runs done so far, when the panel says. */
  runs?: number;
  /** Subscriptions: posts done so far, when the panel says. */
  posts?: number;
  /** What the panel sent that could not be read, by field: `{ status: 'Fail?' }`. */
  unreadable?: Record<string, unknown>;
}

/** One entry of a per-item batch answer: the item's result or the provider's error for it. */
export type SmmItemResult<T> = ({ ok: true } & T) | { ok: false; error: string };

/**
 * One order's entry in a status batch. `unanswered` marks orders whose batch call got no readable
 * answer at all (timeout, HTML page, 5xx): that says something about the panel, not the order.
 */
export type SmmStatusEntry = ({ ok: true } & SmmOrderState) | { ok: false; error: string; unanswered?: true };

export class SmmProviderError extends ProviderError {
  constructor(
    /** The API action that failed, e.g. "add". */
    readonly action: string,
    ...error: ConstructorParameters<typeof ProviderError>
  ) {
    super(...error);
  }
}
