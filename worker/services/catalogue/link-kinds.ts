// What a service's `link` is. Most services act on one post, so the link is a URL on the platform;
// services that grow an account (followers, members, subscribers) are sold by username on the big
// panels, and resellers send `@name`, `name` or the profile link. Shared by the order checks and
// the catalogue's views (so the order form can ask for the right thing).
import type { services } from '../../../drizzle/schema';

export type LinkKind = NonNullable<(typeof services.$inferSelect)['linkKind']>;

/**
 * Profile links per platform (PLATFORMS' names). A username is stored and sent as its profile
 * link because every panel's `link` field takes a URL for follower services, while a bare
 * username is understood only by those that document it and `@name` is read by some as text;
 * the link also names the platform, so the order is unambiguous to the provider and to us.
 * Platforms missing here have no profile address made from a username (Spotify artists, LinkedIn
 * pages): on those named in HANDLE_ONLY the account is sent as `@name`, as resellers type it.
 */
const PROFILE_LINKS: Record<string, string> = {
  Instagram: 'https://www.instagram.com/',
  TikTok: 'https://www.tiktok.com/@',
  YouTube: 'https://www.youtube.com/@',
  X: 'https://x.com/',
  Facebook: 'https://www.facebook.com/',
  Telegram: 'https://t.me/',
  Threads: 'https://www.threads.net/@',
  Twitch: 'https://www.twitch.tv/',
  SoundCloud: 'https://soundcloud.com/',
  Snapchat: 'https://www.snapchat.com/add/',
};

/** Platforms whose accounts resellers name by handle though no profile address can be made from one. */
const HANDLE_ONLY = ['Spotify', 'LinkedIn', 'Discord'];

/** Names and categories of services that grow an account, as panels word them. */
const ACCOUNT_WORDS = /\b(followers?|members?|subscribers?|subs)\b/i;
/** Likes or followers of a page, profile, artist or channel grow that account, though "likes" usually means a post's. */
const ON_AN_ACCOUNT = /\b(page|profile|artist|channel)\s+(likes?|followers?|fans?)\b/i;
/** Names that act on a post even when they mention followers ("Post Likes + Followers", "Views from followers"). */
const POST_WORDS =
  /\b(likes?|views?|comments?|shares?|saves?|plays?|reactions?|votes?|retweets?|reposts?|impressions?|reach|watch|story|reels?|posts?|videos?)\b/i;
/** Service types whose link is the thing delivered to (the others name a post, or take a username field of their own). */
const ACCOUNT_TYPES = ['default', 'package'];

export interface LinkKindFacts {
  type: string;
  name: string;
  category: string;
  platform: string;
  /** The administrator's choice; null decides from the facts above. */
  linkKind: LinkKind | null;
}

export function linkKindOf(service: LinkKindFacts): LinkKind {
  if (service.linkKind) return service.linkKind;
  const onAnAccount = ON_AN_ACCOUNT.test(service.name) || ON_AN_ACCOUNT.test(service.category);
  const byUsername =
    ACCOUNT_TYPES.includes(service.type.trim().toLowerCase()) &&
    (service.platform in PROFILE_LINKS || HANDLE_ONLY.includes(service.platform)) &&
    (onAnAccount || ((ACCOUNT_WORDS.test(service.name) || ACCOUNT_WORDS.test(service.category)) && !POST_WORDS.test(service.name)));
  return byUsername ? 'username' : 'url';
}

/** A username as people write it: with or without @; letters (any script), digits, dot, underscore, hyphen. */
const USERNAME = /^@?([\p{L}\p{N}_.-]{1,100})$/u;

/** The profile link for a username on the platform (`@name` where it has none), or null when `text` is no username. */
export function accountLink(platform: string, text: string): string | null {
  const name = USERNAME.exec(text.trim())?.[1];
  if (!name || /^\.+$/.test(name)) return null;
  const base = PROFILE_LINKS[platform];
  return base ? `${base}${name}` : `@${name}`;
}

/** Apps' own addresses resellers paste (`spotify:artist:ID`), as the web link the platform answers for them. */
const APP_URIS: ReadonlyArray<{ pattern: RegExp; link: (kind: string, id: string) => string }> = [
  {
    pattern: /^spotify:(artist|track|album|playlist|user|show|episode):([A-Za-z0-9._-]{1,100})$/i,
    link: (kind, id) => `https://open.spotify.com/${kind.toLowerCase()}/${id}`,
  },
];

/** The web link for an app's own address, or null when `text` is none. */
export function appUriLink(text: string): string | null {
  const trimmed = text.trim();
  for (const { pattern, link } of APP_URIS) {
    const match = pattern.exec(trimmed);
    if (match) return link(match[1], match[2]);
  }
  return null;
}
