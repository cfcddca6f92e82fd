import { cx } from '@/lib/hooks';

// Each background holds its white initials at 4.5:1 or more (WCAG AA), small as they are.
const STYLES: Record<string, { bg: string; short: string }> = {
  instagram: { bg: 'bg-gradient-to-br from-orange-700 via-pink-700 to-purple-700', short: 'IG' },
  tiktok: { bg: 'bg-slate-900', short: 'TT' },
  youtube: { bg: 'bg-red-600', short: 'YT' },
  facebook: { bg: 'bg-blue-600', short: 'FB' },
  twitter: { bg: 'bg-slate-800', short: 'X' },
  x: { bg: 'bg-slate-800', short: 'X' },
  telegram: { bg: 'bg-sky-700', short: 'TG' },
  spotify: { bg: 'bg-green-700', short: 'SP' },
  linkedin: { bg: 'bg-sky-700', short: 'in' },
  threads: { bg: 'bg-neutral-900', short: '@' },
  snapchat: { bg: 'bg-yellow-400 text-slate-900', short: 'SC' },
  twitch: { bg: 'bg-violet-600', short: 'TW' },
  discord: { bg: 'bg-indigo-600', short: 'DC' },
  soundcloud: { bg: 'bg-orange-700', short: 'SC' },
  pinterest: { bg: 'bg-red-700', short: 'P' },
  whatsapp: { bg: 'bg-emerald-700', short: 'WA' },
};

export function platformStyle(platform: string | null | undefined) {
  const key = (platform ?? '').toLowerCase().replace(/[^a-z]/g, '');
  return STYLES[key] ?? { bg: 'bg-brand-600', short: (platform ?? '?').slice(0, 2).toUpperCase() || '?' };
}

/** A coloured rounded square with the platform's initials (decorative: pair it with the name). */
export function PlatformBadge({ platform, className = 'h-9 w-9 text-xs' }: { platform: string | null | undefined; className?: string }) {
  const s = platformStyle(platform);
  return (
    <span aria-hidden="true" className={cx('inline-flex shrink-0 items-center justify-center rounded-xl font-bold text-white', s.bg, className)}>
      {s.short}
    </span>
  );
}
