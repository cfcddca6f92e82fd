// The fake SMM panel's service list: names, categories and prices in the style
// real panels use (USD per 1000 as decimal strings), covering every service
// type the shop must handle.

export interface CatalogueService {
  service: number;
  name: string;
  type:
    | 'Default'
    | 'Package'
    | 'Custom Comments'
    | 'Mentions with Hashtags'
    | 'Mentions Custom List'
    | 'Mentions User Followers'
    | 'Mentions Media Likers'
    | 'Poll'
    | 'Subscriptions'
    | 'Comment Likes';
  category: string;
  /** USD per 1000 (per package for Package services). */
  rate: string;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
  dripfeed: boolean;
}

type Row = [service: number, category: string, name: string, type: CatalogueService['type'], rate: string, min: number, max: number, flags?: string];

// flags: r = refill, c = cancel, d = drip-feed
const ROWS: Row[] = [
  [1021, 'Instagram Followers', 'Instagram Followers [Real Mixed] [Refill 30D] [Max 100K] [Start 0-1H]', 'Default', '1.45', 100, 100_000, 'rc'],
  [1022, 'Instagram Followers', 'Instagram Followers [HQ Profiles] [No Refill] [Max 20K]', 'Default', '0.85', 50, 20_000, 'c'],
  [1031, 'Instagram Likes', 'Instagram Likes [Instant] [Non Drop] [Max 50K]', 'Default', '0.32', 50, 50_000, 'd'],
  [1041, 'Instagram Views', 'Instagram Reels Views [Instant] [Max 10M]', 'Default', '0.05', 100, 10_000_000, 'd'],
  [1051, 'Instagram Comments', 'Instagram Custom Comments [Real Accounts]', 'Custom Comments', '6.50', 5, 500, 'c'],
  [1052, 'Instagram Comments', 'Instagram Comment Likes [Top Comment Boost]', 'Comment Likes', '2.10', 20, 10_000],
  [1061, 'Instagram Mentions', 'Instagram Mentions [Custom List]', 'Mentions Custom List', '4.00', 10, 5_000],
  [1062, 'Instagram Mentions', 'Instagram Mentions [User Followers]', 'Mentions User Followers', '3.20', 1_000, 100_000],
  [1063, 'Instagram Mentions', 'Instagram Mentions [Media Likers]', 'Mentions Media Likers', '3.50', 1_000, 50_000],
  [1064, 'Instagram Mentions', 'Instagram Mentions with Hashtags', 'Mentions with Hashtags', '4.80', 100, 20_000],
  [1071, 'Instagram Auto', 'Instagram Auto Likes [Future Posts] [Subscription]', 'Subscriptions', '0.40', 50, 20_000],
  [2011, 'TikTok Followers', 'TikTok Followers [Refill 30D] [Max 50K]', 'Default', '2.20', 100, 50_000, 'rc'],
  [2021, 'TikTok Likes', 'TikTok Likes [Fast] [Max 100K]', 'Default', '0.45', 50, 100_000, 'cd'],
  [2031, 'TikTok Views', 'TikTok Video Views [Instant] [Max 100M]', 'Default', '0.012', 100, 100_000_000, 'd'],
  [2041, 'TikTok Engagement', 'TikTok Shares [Max 1M]', 'Default', '0.30', 100, 1_000_000],
  [2042, 'TikTok Engagement', 'TikTok Saves [Max 500K]', 'Default', '0.25', 100, 500_000],
  [2051, 'TikTok Comments', 'TikTok Custom Comments', 'Custom Comments', '5.00', 5, 1_000, 'c'],
  [3011, 'YouTube Views', 'YouTube Views [Non Drop] [Lifetime Refill] [10K/Day]', 'Default', '1.10', 500, 1_000_000, 'rd'],
  [3021, 'YouTube Subscribers', 'YouTube Subscribers [Refill 30D] [100/Day]', 'Default', '18.00', 50, 10_000, 'rc'],
  [3031, 'YouTube Likes', 'YouTube Likes [Non Drop] [Max 50K]', 'Default', '1.80', 50, 50_000, 'c'],
  [3041, 'YouTube Watch Time', 'YouTube Watch Time [4000 Hours] [Package]', 'Package', '45.00', 1, 1],
  [3051, 'YouTube Comments', 'YouTube Custom Comments [Real Users]', 'Custom Comments', '12.00', 5, 300],
  [3052, 'YouTube Comments', 'YouTube Comment Likes [Upvotes]', 'Comment Likes', '2.50', 20, 20_000],
  [4011, 'X (Twitter) Followers', 'X (Twitter) Followers [Refill 30D] [Max 30K]', 'Default', '4.40', 100, 30_000, 'rc'],
  [4021, 'X (Twitter) Likes', 'X (Twitter) Likes [Instant]', 'Default', '1.20', 50, 20_000],
  [4031, 'X (Twitter) Retweets', 'X (Twitter) Retweets [HQ]', 'Default', '1.60', 50, 10_000],
  [4041, 'X (Twitter) Poll Votes', 'X (Twitter) Poll Votes [Any Option]', 'Poll', '2.40', 100, 20_000],
  [4051, 'X (Twitter) Views', 'X (Twitter) Tweet Views [Max 10M]', 'Default', '0.06', 100, 10_000_000],
  [5011, 'Facebook Page', 'Facebook Page Likes + Followers [Refill 30D]', 'Default', '3.10', 100, 50_000, 'rc'],
  [5021, 'Facebook Post', 'Facebook Post Likes [Instant]', 'Default', '1.05', 50, 20_000, 'c'],
  [5031, 'Facebook Video', 'Facebook Video Views [3s Retention]', 'Default', '0.35', 500, 5_000_000],
  [5041, 'Facebook Comments', 'Facebook Custom Comments', 'Custom Comments', '9.00', 5, 500],
  [6011, 'Telegram Members', 'Telegram Channel Members [Refill 30D] [Max 50K]', 'Default', '1.75', 100, 50_000, 'rc'],
  [6021, 'Telegram Views', 'Telegram Post Views [Last Post] [Instant]', 'Default', '0.02', 100, 1_000_000],
  [6031, 'Telegram Reactions', 'Telegram Post Reactions [Positive Mix]', 'Default', '0.30', 50, 100_000],
  [7011, 'Spotify Plays', 'Spotify Plays [Royalty Eligible] [Lifetime Refill]', 'Default', '0.95', 1_000, 1_000_000, 'rd'],
  [7021, 'Spotify Followers', 'Spotify Artist Followers [Max 100K]', 'Default', '1.40', 100, 100_000, 'c'],
  [7031, 'Spotify Monthly Listeners', 'Spotify Monthly Listeners [Package 1K]', 'Package', '9.50', 1, 1],
];

export function catalogue(): CatalogueService[] {
  return ROWS.map(([service, category, name, type, rate, min, max, flags = '']) => ({
    service,
    name,
    type,
    category,
    rate,
    min,
    max,
    refill: flags.includes('r'),
    cancel: flags.includes('c'),
    dripfeed: flags.includes('d'),
  }));
}
