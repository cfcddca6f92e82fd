// User shell: sticky top bar (logo from the site settings, display-currency switcher, 'Your
// Balance:' in the display currency, add-fund plus, support tickets with their unread count, account
// menu), the maintenance notice, the request to confirm the email address, and the tab row Services / Orders / Transactions / Profile,
// highlighted from the second path segment.
import { Link, NavLink, Outlet, useLocation } from 'react-router-dom';
import { useWalletBalance } from '@/api/wallet';
import { Icon } from '@/components/Icon';
import { Logo } from '@/components/Logo';
import { Skeleton } from '@/components/Skeleton';
import { NotificationBell } from '@/features/notifications/NotificationBell';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { cx } from '@/lib/hooks';
import { SITE_NAME_FALLBACK, usePublicSettings } from '@/lib/settings';
import { AccountMenu } from './AccountMenu';
import { CurrencySwitcher } from './CurrencySwitcher';
import { EmailVerificationBanner } from './EmailVerificationBanner';
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
  const money = useDisplayCurrency();
  const { data: settings } = usePublicSettings();
  const balance = useWalletBalance();
  const active = activeUserTab(pathname);

  return (
    <div className="min-h-dvh bg-slate-50">
      <SkipLink target="user-main" />
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-3 sm:gap-4 sm:px-4">
          <Logo compact name={settings?.siteName || SITE_NAME_FALLBACK} src={settings?.logoUrl} />
          <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-3">
            <CurrencySwitcher />
            <div className="flex flex-col items-end leading-tight sm:flex-row sm:items-baseline sm:gap-1.5" aria-live="polite">
              <span className="text-xs text-slate-500 sm:text-sm">Your Balance:</span>
              {balance.isPending ? (
                <Skeleton className="h-5 w-20" />
              ) : (
                <span className="text-sm font-bold text-slate-900 tabular-nums sm:text-base">{money.format(balance.data ?? 0)}</span>
              )}
            </div>
            <span className="group relative">
              <Link
                to="/user/add-fund"
                aria-label="Add fund"
                title="Add fund"
                className="flex h-9 w-9 items-center justify-center rounded-full bg-emerald-500 text-white shadow-sm transition hover:bg-emerald-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-600"
              >
                <Icon name="plus" className="h-5 w-5" strokeWidth={2.4} />
              </Link>
              <span
                role="tooltip"
                className="pointer-events-none absolute top-full left-1/2 z-40 mt-2 -translate-x-1/2 rounded-md bg-slate-900 px-2 py-1 text-xs whitespace-nowrap text-white opacity-0 transition group-focus-within:opacity-100 group-hover:opacity-100"
              >
                Add fund
              </span>
            </span>
            <NotificationBell />
            <SupportLink />
            <AccountMenu name="Account menu" heading="My Account" links={ACCOUNT_LINKS} crowded />
          </div>
        </div>
      </header>
      <MaintenanceBanner />
      <EmailVerificationBanner />

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
    </div>
  );
}
