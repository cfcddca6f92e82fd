// The order messages the Worker, the API and the SPA share, without zod: a screen that shows one does not
// build the order schemas (orders.ts) to do so. The statuses themselves are the vocabulary's.

export const LINK_REQUIRED = 'Link is required';
export const LINK_INVALID = 'Please enter a valid link, e.g. https://instagram.com/p/abc';
/** For services sold by username (followers, members, subscribers), which take the profile link too. */
export const USERNAME_INVALID = 'Please enter a username, e.g. @name, or a link to the profile';
export const LINK_TOO_LONG = 'Link must be at most 2048 characters';
export const QUANTITY_INVALID = 'Please enter a valid quantity';
export const SERVICE_UNAVAILABLE = 'This service does not exist or is not available';
export const MAX_RUNS = 1000;
/** Delays (minutes) panels accept after a subscription's new post. */
/**
 * Future posts a subscription covers when the order does not say (reseller tools often leave `posts` out): the order is paid
 * for this many up front, sent to the provider with it, and what the provider does not deliver is refunded as for any order.
 */
export const DEFAULT_SUBSCRIPTION_POSTS = 10;
export const SUBSCRIPTION_DELAYS: readonly number[] = [0, 5, 10, 15, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 360, 420, 480, 540, 600];

const article = (word: string) => (/^[AEIOU]/.test(word) ? 'an' : 'a');

/** A link on another platform than the service's: "This service needs an Instagram link". */
export const platformLinkMessage = (platform: string, byUsername: boolean) =>
  `This service needs ${article(platform)} ${platform} ${byUsername ? 'username or profile link' : 'link'}`;

/** Whether a refusal is about the link, so the order form shows it under the link field. */
export const isLinkMessage = (message: string) =>
  [LINK_REQUIRED, LINK_INVALID, USERNAME_INVALID, LINK_TOO_LONG].includes(message) ||
  /^This service needs an? .+ (link|username or profile link)$/.test(message);
