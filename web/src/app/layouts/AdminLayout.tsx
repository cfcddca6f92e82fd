// Admin shell: header 'Admin Dashboard', user menu (full name; Profile, Logout), sidebar always
// visible from 768 px; below that a menu button toggles it as a drawer (lib/drawer.ts) and a choice closes it.
// An administrator the site requires to set up two-factor sees only the setup screen, with no sidebar, until it is on.
import { useEffect, useRef, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Icon, type IconName } from '@/components/Icon';
import { Logo } from '@/components/Logo';
import { TICKETS_BADGE_ID, TicketsNavBadge } from '@/features/admin/tickets/TicketsNavBadge';
import { useAuth } from '@/lib/authContext';
import { drawerSlide, useDrawerFocus } from '@/lib/drawer';
import { cx, useEscapeKey, useMediaQuery, useOutsideClick } from '@/lib/hooks';
import { SITE_NAME_FALLBACK, usePublicSettings, useSiteTitle } from '@/lib/settings';
import { AccountMenu } from './AccountMenu';
import { EmailVerificationBanner } from './EmailVerificationBanner';
import { MenuToggle, SkipLink } from './ShellParts';
import { TWO_FACTOR_SETUP_PATH, useTwoFactorSetupGate } from './useTwoFactorSetupGate';

export const SIDEBAR_BREAKPOINT_PX = 768;

export const ADMIN_NAV: ReadonlyArray<{ to: string; label: string; icon: IconName }> = [
  { to: 'dashboard', label: 'Dashboard', icon: 'chart' },
  { to: 'services', label: 'Services', icon: 'grid' },
  { to: 'orders', label: 'Orders', icon: 'list' },
  { to: 'tickets', label: 'Tickets', icon: 'mail' },
  { to: 'payment-settings', label: 'Payment Settings', icon: 'card' },
  { to: 'reconciliation', label: 'Reconciliation', icon: 'shieldCheck' },
  { to: 'users', label: 'Users', icon: 'users' },
  { to: 'referrals', label: 'Referrals', icon: 'gift' },
  { to: 'administrators', label: 'Administrators', icon: 'shield' },
  { to: 'audit-log', label: 'Audit Log', icon: 'clock' },
  { to: 'site-settings', label: 'Site Settings', icon: 'cog' },
];

export default function AdminLayout() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  const settingUpTwoFactor = useTwoFactorSetupGate();
  const { data: settings } = usePublicSettings();
  useSiteTitle(settings?.siteName);
  const wide = useMediaQuery(`(min-width: ${SIDEBAR_BREAKPOINT_PX}px)`);
  const [open, setOpen] = useState(false);
  const sidebar = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const refs = useRef([sidebar, toggle]).current;
  const drawerOpen = open && !wide;
  useOutsideClick(refs, () => setOpen(false), drawerOpen);
  useEscapeKey(() => setOpen(false), drawerOpen);
  useDrawerFocus(drawerOpen, sidebar, toggle);
  useEffect(() => {
    if (wide) setOpen(false);
  }, [wide]);

  // /admin (index) highlights Dashboard; manage-user belongs to Users.
  const section = pathname.split('/').filter(Boolean)[1] ?? 'dashboard';
  const activeKey = section === 'manage-user' ? 'users' : section;
  if (settingUpTwoFactor && pathname !== TWO_FACTOR_SETUP_PATH) return <Navigate to={TWO_FACTOR_SETUP_PATH} replace />;

  return (
    <div className="min-h-dvh bg-slate-50">
      <SkipLink target="admin-main" />
      <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white px-3 sm:px-4">
        {settingUpTwoFactor ? null : <MenuToggle ref={toggle} open={open} controls="admin-sidebar" onToggle={() => setOpen((v) => !v)} />}
        <span className="hidden max-w-[40%] min-w-0 sm:flex">
          <Logo name={settings?.siteName || SITE_NAME_FALLBACK} src={settings?.logoUrl} />
        </span>
        <p className="shrink-0 text-base font-bold whitespace-nowrap text-slate-900 sm:border-l sm:border-slate-200 sm:pl-4 sm:text-lg">Admin Dashboard</p>
        <div className="ml-auto shrink-0">
          <AccountMenu
            name="User menu"
            heading={user?.fullName ?? 'Administrator'}
            links={[{ label: 'Profile', icon: 'user', to: '/admin/account-settings' }]}
          />
        </div>
      </header>

      {drawerOpen ? <div className="fixed inset-0 top-16 z-20 animate-fade-in bg-slate-900/40 md:hidden" aria-hidden="true" /> : null}
      <div className="md:flex">
        {settingUpTwoFactor ? null : (
          <aside
            ref={sidebar}
            id="admin-sidebar"
            aria-label="Admin navigation"
            className={cx(
              'fixed top-16 bottom-0 left-0 z-30 w-64 overflow-y-auto border-r border-slate-200 bg-white p-3 duration-200 md:visible md:sticky md:z-10 md:h-[calc(100dvh-4rem)] md:translate-x-0',
              drawerSlide(open),
            )}
            inert={!wide && !open}
          >
            <nav>
              <ul className="space-y-1">
                {ADMIN_NAV.map((n) => {
                  const isActive = activeKey === n.to;
                  return (
                    <li key={n.to} className="relative">
                      <NavLink
                        to={`/admin/${n.to}`}
                        onClick={() => setOpen(false)}
                        aria-current={isActive ? 'page' : undefined}
                        aria-describedby={n.to === 'tickets' ? TICKETS_BADGE_ID : undefined}
                        className={cx(
                          'flex min-h-11 items-center gap-3 rounded-xl px-3 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-brand-600',
                          isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
                        )}
                      >
                        <Icon name={n.icon} />
                        {n.label}
                      </NavLink>
                      {n.to === 'tickets' ? <TicketsNavBadge /> : null}
                    </li>
                  );
                })}
              </ul>
            </nav>
          </aside>
        )}
        <main id="admin-main" className="min-w-0 flex-1 px-3 py-5 sm:px-6 sm:py-8">
          <Outlet />
        </main>
      </div>
      {/* In the bottom dock, over the foot of the screen: it comes after the page has painted, and moves nothing on it. */}
      <EmailVerificationBanner />
    </div>
  );
}
