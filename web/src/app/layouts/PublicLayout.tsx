import { lazy, type MouseEvent, Suspense, useEffect, useRef, useState } from 'react';
import { Link, type LinkProps, NavLink, Outlet, useLocation } from 'react-router-dom';
import { Logo } from '@/components/Logo';
import { useAuth } from '@/lib/authContext';
import { drawerSlide, useDrawerFocus } from '@/lib/drawer';
import { rememberReferral } from '@/lib/referral';
import { SITE_NAME_FALLBACK, usePublicSettings, useSiteTitle } from '@/lib/settings';
import { cx, useEscapeKey, useOutsideClick } from '@/lib/shellHooks';
import type { AuthDialog } from './AuthModal';
import { CurrencySwitcher } from './CurrencySwitcher';
import { MaintenanceBanner } from './MaintenanceBanner';
import { MenuToggle, SkipLink } from './ShellParts';

// The dialogs and their forms load when a visitor heads for Sign In or Sign Up (pointer over, or
// focus on, the link) or opens one: no page shows them at first.
const loadAuthModal = () => import('./AuthModal');
const AuthModal = lazy(loadAuthModal);

const NAV = [
  { to: '/', label: 'Home', end: true },
  { to: '/services', label: 'Services', end: false },
  { to: '/about-us', label: 'About Us', end: false },
  { to: '/contact-us', label: 'Contact Us', end: false },
] as const;

/** A plain left click (no new-tab modifiers) opens the modal instead of following the link. */
const isPlainClick = (e: MouseEvent) => e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;

/** Where a visitor goes next: the dashboard once signed in, else Sign In and Sign Up (`authLink`: a plain click opens them as modals); in the drawer they fill its width. */
function AccountLinks({
  signedIn,
  authLink,
  inDrawer = false,
}: {
  signedIn: boolean;
  authLink: (which: AuthDialog) => Pick<LinkProps, 'onClick' | 'onPointerEnter' | 'onFocus'>;
  inDrawer?: boolean;
}) {
  if (signedIn) {
    return (
      <Link to="/user" className={cx('btn btn-primary', inDrawer && 'w-full')}>
        {inDrawer ? 'Dashboard' : 'Go to Dashboard'}
      </Link>
    );
  }
  return (
    <>
      <Link to="/auth/login" {...authLink('login')} className={cx('btn', inDrawer ? 'btn-secondary w-full' : 'btn-ghost')}>
        Sign In
      </Link>
      <Link to="/auth/register" {...authLink('register')} className={cx('btn btn-primary', inDrawer && 'w-full')}>
        Sign Up
      </Link>
    </>
  );
}

export default function PublicLayout() {
  const { user } = useAuth();
  const { data: settings } = usePublicSettings();
  useSiteTitle(settings?.siteName);
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [modal, setModal] = useState<AuthDialog | null>(null);
  const siteName = settings?.siteName || SITE_NAME_FALLBACK;
  const onAuthPage = location.pathname.startsWith('/auth/');

  const drawer = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const outsideRefs = useRef([drawer, toggle]).current;
  useOutsideClick(outsideRefs, () => setMenuOpen(false), menuOpen);
  useEscapeKey(() => setMenuOpen(false), menuOpen);
  useDrawerFocus(menuOpen, drawer, toggle);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the pathname is the trigger, not an input: the side menu closes on every navigation
  useEffect(() => setMenuOpen(false), [location.pathname]);
  useEffect(() => rememberReferral(location.search), [location.search]);

  const authLink = (which: AuthDialog) => {
    const load = () => {
      if (!onAuthPage) void loadAuthModal().then((dialogs) => dialogs.loadForm[which]());
    };
    return {
      onPointerEnter: load,
      onFocus: load,
      onClick: (e: MouseEvent) => {
        if (onAuthPage || !isPlainClick(e)) return;
        e.preventDefault();
        setMenuOpen(false);
        setModal(which);
      },
    };
  };

  const navClass = ({ isActive }: { isActive: boolean }) =>
    cx(
      'rounded-lg px-3 py-2 text-sm font-medium transition',
      isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900',
    );

  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink target="main" />
      <header className="sticky top-0 z-30 border-b border-slate-200/80 bg-white/90 backdrop-blur">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
          <Logo name={siteName} src={settings?.logoUrl} />
          <nav aria-label="Main" className="hidden shrink-0 items-center gap-1 md:flex">
            {NAV.map((n) => (
              <NavLink key={n.to} to={n.to} end={n.end} className={navClass}>
                {n.label}
              </NavLink>
            ))}
          </nav>
          <div className="flex shrink-0 items-center gap-2">
            <CurrencySwitcher />
            <div className="hidden items-center gap-2 md:flex">
              <AccountLinks signedIn={Boolean(user)} authLink={authLink} />
            </div>
            <MenuToggle ref={toggle} open={menuOpen} controls="mobile-menu" onToggle={() => setMenuOpen((v) => !v)} />
          </div>
        </div>
      </header>

      {/* Mobile side menu: slides in from the left, closes on a click outside it. */}
      {menuOpen ? <div className="fixed inset-0 z-30 animate-fade-in bg-slate-900/40 md:hidden" aria-hidden="true" /> : null}
      <div
        ref={drawer}
        id="mobile-menu"
        className={cx('fixed inset-y-0 left-0 z-40 flex w-72 max-w-[85vw] flex-col bg-white shadow-xl duration-200 md:hidden', drawerSlide(menuOpen))}
        aria-hidden={!menuOpen}
        inert={!menuOpen}
      >
        <div className="flex h-16 items-center border-b border-slate-100 px-4">
          <Logo name={siteName} src={settings?.logoUrl} />
        </div>
        <nav aria-label="Mobile" className="flex flex-1 flex-col gap-1 p-3">
          {NAV.map((n) => (
            <NavLink key={n.to} to={n.to} end={n.end} className={({ isActive }) => cx(navClass({ isActive }), 'py-3 text-base')}>
              {n.label}
            </NavLink>
          ))}
        </nav>
        <div className="space-y-2 border-t border-slate-100 p-4 pb-[max(1rem,env(safe-area-inset-bottom))]">
          <AccountLinks signedIn={Boolean(user)} authLink={authLink} inDrawer />
        </div>
      </div>

      <MaintenanceBanner />

      {/* At least a screen tall, so the footer starts below the fold and stays put when a lazy screen replaces its spinner. */}
      <main id="main" className="min-h-dvh flex-1">
        <Outlet />
      </main>

      <footer className="border-t border-slate-200 bg-white">
        <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 sm:flex-row sm:items-center sm:justify-between">
          <Logo name={siteName} src={settings?.logoUrl} />
          <nav aria-label="Footer" className="flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-600">
            {NAV.map((n) => (
              <Link key={n.to} to={n.to} className="hover:text-slate-900">
                {n.label}
              </Link>
            ))}
          </nav>
        </div>
        <p className="border-t border-slate-100 py-4 text-center text-sm text-slate-500">© 2024 SMM Provider. All rights reserved.</p>
      </footer>

      {modal ? (
        <Suspense fallback={null}>
          <AuthModal open={modal} onOpen={setModal} />
        </Suspense>
      ) : null}
    </div>
  );
}
