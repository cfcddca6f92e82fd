// User shell: sticky top bar (logo from the site settings, display-currency switcher, 'Your
// Balance:' in the display currency, add-fund plus, support tickets with their unread count, account
// menu), the maintenance notice, and the tab row Services / Orders / Transactions / Profile, highlighted from
// the second path segment; the request to confirm the email address shows in the bottom dock (EmailVerificationBanner.tsx).
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import { Logo } from '@/components/Logo';
import { NotificationBell } from '@/features/notifications/NotificationBell';
import { cx } from '@/lib/hooks';
import { SITE_NAME_FALLBACK, usePublicSettings, useSiteTitle } from '@/lib/settings';
import { AccountMenu } from './AccountMenu';
import { CurrencySwitcher } from './CurrencySwitcher';
import { EmailVerificationBanner } from './EmailVerificationBanner';
import { HeaderBalance } from './HeaderBalance';
import { MaintenanceBanner } from './MaintenanceBanner';
import { SkipLink } from './ShellParts';
import { SupportLink } from './SupportLink';

/** The screens the shell links to: the tab row holds the spec's four; the account menu holds Profile (then Logout), and the screens the row has no room for. */
const SCREENS = [
  { segment: 'services', label: 'Services', icon: 'grid', place: 'tabs' },
  { segment: 'orders', label: 'Orders', icon: 'list', place: 'tabs' },
  { segment: 'transactions', label: 'Transactions', icon: 'receipt', place: 'tabs' },
  { segment: 'profile', label: 'Profile', icon: 'user', place: 'both' },
  { segment: 'favorites', label: 'Favorites', icon: 'star', place: 'menu' },
  { segment: 'referrals', label: 'Referrals', icon: 'users', place: 'menu' },
  { segment: 'settings', label: 'Settings', icon: 'cog', place: 'menu' },
] as const;
const TABS = SCREENS.filter((screen) => screen.place !== 'menu');
const ACCOUNT_LINKS = SCREENS.filter((screen) => screen.place !== 'tabs').map((screen) => ({ ...screen, to: `/user/${screen.segment}` }));

/** The second path segment ('/user/orders' -> 'orders'); the index counts as 'services'. */
export function activeUserTab(pathname: string): string {
  const second = pathname.split('/').filter(Boolean)[1] ?? '';
  return second === '' ? 'services' : second;
}

export default function UserLayout() {
  const { pathname } = useLocation();
  const { data: settings } = usePublicSettings();
  useSiteTitle(settings?.siteName);
  const active = activeUserTab(pathname);

  return (
    <div className="min-h-dvh bg-slate-50">
      <SkipLink target="user-main" />
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-1.5 px-2 sm:gap-4 sm:px-4">
          {/* The mark never yields its room: at 390 px the balance, its currency and four 44 px buttons take the rest. */}
          <Logo compact className="shrink-0 sm:shrink" name={settings?.siteName || SITE_NAME_FALLBACK} src={settings?.logoUrl} />
          <div className="ml-auto flex shrink-0 items-center sm:gap-3">
            <CurrencySwitcher compact />
            <HeaderBalance />
            <span className="group relative">
              <Link
                to="/user/add-fund"
                aria-label="Add fund"
                title="Add fund"
                className="flex h-11 w-11 items-center justify-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
              >
                {/* A 36 px disc in a 44 px touch target. */}
                <span className="flex h-9 w-9 items-center justify-center rounded-full bg-emerald-500 text-white shadow-sm transition group-hover:bg-emerald-600">
                  <Icon name="plus" className="h-5 w-5" strokeWidth={2.4} />
                </span>
              </Link>
              <span
                role="tooltip"
                className="pointer-events-none absolute top-full left-1/2 z-40 mt-2 -translate-x-1/2 rounded-md bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white opacity-0 transition group-has-[:focus-visible]:opacity-100 [@media(hover:hover)]:group-hover:opacity-100"
              >
                Add fund
              </span>
            </span>
            {/* 44 px boxes around 20 px icons carry their own spacing: no gap between them on a phone. */}
            <div className="flex items-center sm:gap-1">
              <NotificationBell />
              <SupportLink />
            </div>
            <AccountMenu name="Account menu" heading="My Account" links={ACCOUNT_LINKS} crowded />
          </div>
        </div>
      </header>
      <MaintenanceBanner />

      <nav aria-label="User area" className="border-b border-slate-200 bg-white">
        <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-2 sm:px-4">
          {TABS.map((t) => {
            const isActive = active === t.segment;
            return (
              <li key={t.segment} className="shrink-0">
                <NavLink
                  to={`/user/${t.segment}`}
                  aria-current={isActive ? 'page' : undefined}
                  className={cx(
                    'flex min-h-12 items-center gap-2 border-b-2 px-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600 sm:px-4',
                    isActive ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-500 hover:text-slate-800',
                  )}
                >
                  <Icon name={t.icon} className="hidden h-4 w-4 sm:block" />
                  {t.label}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>

      <main id="user-main" className="mx-auto max-w-6xl px-3 py-5 sm:px-4 sm:py-8">
        <Outlet />
      </main>
      {/* In the bottom dock, over the foot of the screen: it comes after the page has painted, and moves nothing on it. */}
      <EmailVerificationBanner />
    </div>
  );
}
