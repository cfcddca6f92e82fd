// The whole route map (spec section 2). Screens load on demand (React.lazy, one chunk per
// route) and show a spinner meanwhile; any other path shows '404 Not Found'. A page's screens are
// fetched together from the start (preloadScreens). The routes are rendered by the declarative
// router (useRoutes under a BrowserRouter): no route loads data through the router, and the data
// router's own code would add about 18 KiB gzipped to every page's first load.

import { USER_TYPE, type UserType } from '@vocabulary';

import { type ComponentType, type LazyExoticComponent, lazy, Suspense } from 'react';
import { matchRoutes, Outlet, type RouteObject, useRoutes } from 'react-router-dom';
import type { adminScreens } from '@/app/layouts/AdminArea';
import { DOCK_NOTICES_ID } from '@/app/layouts/dock';
import PublicLayout from '@/app/layouts/PublicLayout';
import { TestPaymentsBanner } from '@/app/layouts/TestPaymentsBanner';
import { ScrollToTop } from '@/components/ScrollToTop';
import { PageSpinner } from '@/components/Spinner';
import { AuthProvider } from './AuthProvider';
import { RequireUserType } from './RequireUserType';
import { RestoreScroll } from './RestoreScroll';

type Load = () => Promise<{ default: ComponentType }>;
type Screen = LazyExoticComponent<ComponentType> & { load: Load };

/**
 * A screen loaded on demand; `load` fetches its chunk ahead of rendering. Once fetched, the screen
 * renders at once (React.lazy is handed a thenable that resolves synchronously), so hydrating a
 * pre-rendered page never suspends and never gives up the server's markup for a spinner.
 */
const screen = (load: Load): Screen => {
  let loaded: Awaited<ReturnType<Load>> | undefined;
  const fetchChunk = () => load().then((module) => (loaded = module));
  const Screen = lazy(() =>
    // biome-ignore lint/suspicious/noThenProperty: React.lazy takes a thenable; one that resolves at once renders a fetched chunk without suspending
    loaded ? ({ then: (resolve: (module: Awaited<ReturnType<Load>>) => void) => resolve(loaded!) } as ReturnType<Load>) : fetchChunk(),
  );
  return Object.assign(Screen, { load: fetchChunk });
};

/** The chunks each route element shows, for preloadScreens. */
const chunksOf = new WeakMap<object, Load[]>();
const page = (Screen: Screen, fullScreen = false) => {
  const element = (
    <Suspense fallback={<PageSpinner fullScreen={fullScreen} />}>
      <Screen />
    </Suspense>
  );
  chunksOf.set(element, [Screen.load]);
  return element;
};
const guarded = (type: UserType, Layout: Screen) => {
  const element = <RequireUserType type={type}>{page(Layout, true)}</RequireUserType>;
  chunksOf.set(element, [Layout.load]);
  return element;
};

// Public
const HomePage = screen(() => import('@/features/public/HomePage'));
const ServicesPage = screen(() => import('@/features/orders/ServicesPage'));
const AboutPage = screen(() => import('@/features/public/AboutPage'));
const ContactPage = screen(() => import('@/features/public/ContactPage'));
const ForgotPasswordPage = screen(() => import('@/features/public/ForgotPasswordPage'));
const ResetPasswordPage = screen(() => import('@/features/public/ResetPasswordPage'));
// Auth
const AuthLayout = screen(() => import('@/app/layouts/AuthLayout'));
const LoginPage = screen(() => import('@/features/auth/LoginPage'));
const RegisterPage = screen(() => import('@/features/auth/RegisterPage'));
const VerifyEmailPage = screen(() => import('@/features/auth/VerifyEmailPage'));
// User (userType 2)
const UserLayout = screen(() => import('@/app/layouts/UserLayout'));
const UserServicesPage = screen(() => import('@/features/orders/UserServicesPage'));
const ProfilePage = screen(() => import('@/features/user/ProfilePage'));
const ApiPage = screen(() => import('@/features/user/ApiPage'));
const DashboardPage = screen(() => import('@/features/user/DashboardPage'));
const TransactionsPage = screen(() => import('@/features/wallet/TransactionsPage'));
const OrdersPage = screen(() => import('@/features/orders/OrdersPage'));
const CreateOrderPage = screen(() => import('@/features/orders/CreateOrderPage'));
const AddFundPage = screen(() => import('@/features/wallet/AddFundPage'));
const ConfirmPaymentPage = screen(() => import('@/features/wallet/ConfirmPaymentPage'));
const TicketsPage = screen(() => import('@/features/tickets/TicketsPage'));
const NewTicketPage = screen(() => import('@/features/tickets/NewTicketPage'));
const TicketPage = screen(() => import('@/features/tickets/TicketPage'));
const FavoritesPage = screen(() => import('@/features/favorites/FavoritesPage'));
const ReferralsPage = screen(() => import('@/features/referrals/ReferralsPage'));
const SettingsPage = screen(() => import('@/features/notifications/SettingsPage'));
const UnsubscribePage = screen(() => import('@/features/notifications/UnsubscribePage'));
const LogoutPage = screen(() => import('@/features/user/placeholders').then((m) => ({ default: m.LogoutPage })));
// Admin (userType 1): the area's chunk holds its layout and the imports of its screens (AdminArea.ts);
// a screen's chunk is asked for as soon as the area's is here.
const loadAdminArea = () => import('@/app/layouts/AdminArea');
const adminScreen = (name: keyof typeof adminScreens) => screen(() => loadAdminArea().then((area) => area.adminScreens[name]()));
const AdminLayout = screen(loadAdminArea);
const AdminDashboardPage = adminScreen('AdminDashboardPage');
const AdminAccountSettingsPage = adminScreen('AdminAccountSettingsPage');
const AdminTwoFactorPage = adminScreen('AdminTwoFactorPage');
const AdminUsersPage = adminScreen('AdminUsersPage');
const ManageUserPage = adminScreen('ManageUserPage');
const AdminServicesPage = adminScreen('AdminServicesPage');
const AdminTransactionsPage = adminScreen('AdminTransactionsPage');
const ReconciliationPage = adminScreen('ReconciliationPage');
const PendingPaymentsPage = adminScreen('PendingPaymentsPage');
const AdminOrdersPage = adminScreen('AdminOrdersPage');
const AdminTicketsPage = adminScreen('AdminTicketsPage');
const AdminReferralsPage = adminScreen('AdminReferralsPage');
const AdminTicketPage = adminScreen('AdminTicketPage');
const AdminSiteSettingsPage = adminScreen('AdminSiteSettingsPage');
const AdminPaymentSettingsPage = adminScreen('AdminPaymentSettingsPage');
const AdminAdministratorsPage = adminScreen('AdminAdministratorsPage');
const AuditLogPage = adminScreen('AuditLogPage');
const AuditEntryPage = adminScreen('AuditEntryPage');
// Anything else
const NotFound = screen(() => import('@/components/NotFound'));

function RootLayout() {
  return (
    <AuthProvider>
      <Outlet />
      {/* Last and sticky to the bottom (clicks pass through it): what appears here after the page has painted pushes nothing on it
          down: the test-payments banner once settings/public answers, and above it the signed-in shells' notices (the request to
          confirm the address, EmailVerificationBanner.tsx). The scroll-to-top button stands on top of this dock, so it sits above them whatever their height. */}
      <div className="pointer-events-none sticky bottom-0 z-20">
        <ScrollToTop />
        <div id={DOCK_NOTICES_ID} />
        <TestPaymentsBanner />
      </div>
      <RestoreScroll />
    </AuthProvider>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        path: '/',
        element: <PublicLayout />,
        children: [
          { index: true, element: page(HomePage) },
          { path: 'home', element: page(HomePage) },
          { path: 'services', element: page(ServicesPage) },
          { path: 'about-us', element: page(AboutPage) },
          { path: 'contact-us', element: page(ContactPage) },
          { path: 'forgot-password', element: page(ForgotPasswordPage) },
          { path: 'reset-password', element: page(ResetPasswordPage) },
          { path: 'unsubscribe', element: page(UnsubscribePage) },
          // Out of the auth layout, which sends a signed-in person away: the link works signed in or not.
          { path: 'verify-email', element: page(VerifyEmailPage) },
          {
            // Pathless, so /auth itself is an unknown path ('404 Not Found'), not an empty layout.
            element: page(AuthLayout),
            children: [
              { path: 'auth/login', element: page(LoginPage) },
              { path: 'auth/register', element: page(RegisterPage) },
            ],
          },
        ],
      },
      {
        path: '/user',
        element: guarded(USER_TYPE.user, UserLayout),
        children: [
          { index: true, element: page(UserServicesPage) },
          { path: 'services', element: page(UserServicesPage) },
          { path: 'profile', element: page(ProfilePage) },
          { path: 'api', element: page(ApiPage) },
          { path: 'dashboard', element: page(DashboardPage) },
          { path: 'transactions', element: page(TransactionsPage) },
          { path: 'orders', element: page(OrdersPage) },
          { path: 'create-order', element: page(CreateOrderPage) },
          { path: 'add-fund', element: page(AddFundPage) },
          { path: 'confirm-payment', element: page(ConfirmPaymentPage) },
          { path: 'tickets', element: page(TicketsPage) },
          { path: 'tickets/new', element: page(NewTicketPage) },
          { path: 'tickets/:id', element: page(TicketPage) },
          { path: 'favorites', element: page(FavoritesPage) },
          { path: 'referrals', element: page(ReferralsPage) },
          { path: 'settings', element: page(SettingsPage) },
          { path: 'logout', element: page(LogoutPage) },
        ],
      },
      {
        path: '/admin',
        element: guarded(USER_TYPE.admin, AdminLayout),
        children: [
          { index: true, element: page(AdminDashboardPage) },
          { path: 'dashboard', element: page(AdminDashboardPage) },
          { path: 'account-settings', element: page(AdminAccountSettingsPage) },
          { path: 'two-factor', element: page(AdminTwoFactorPage) },
          { path: 'services', element: page(AdminServicesPage) },
          { path: 'transactions', element: page(AdminTransactionsPage) },
          { path: 'reconciliation', element: page(ReconciliationPage) },
          { path: 'pending-payments', element: page(PendingPaymentsPage) },
          { path: 'orders', element: page(AdminOrdersPage) },
          { path: 'tickets', element: page(AdminTicketsPage) },
          { path: 'tickets/:id', element: page(AdminTicketPage) },
          { path: 'site-settings', element: page(AdminSiteSettingsPage) },
          { path: 'payment-settings', element: page(AdminPaymentSettingsPage) },
          { path: 'users', element: page(AdminUsersPage) },
          { path: 'referrals', element: page(AdminReferralsPage) },
          { path: 'administrators', element: page(AdminAdministratorsPage) },
          { path: 'audit-log', element: page(AuditLogPage) },
          { path: 'audit-log/:id', element: page(AuditEntryPage) },
          { path: 'manage-user', element: page(ManageUserPage) },
        ],
      },
      { path: '*', element: page(NotFound, true) },
    ],
  },
];

/**
 * Starts fetching every screen `pathname` shows at once: nested lazy screens (a layout, then its
 * page) would otherwise load one after the other, each waiting for the one above it to render.
 */
export function preloadScreens(pathname: string): Promise<unknown> {
  return Promise.all((matchRoutes(routes, pathname) ?? []).flatMap((match) => (chunksOf.get(match.route.element as object) ?? []).map((load) => load())));
}

/** The page for the router's location. */
export function AppRoutes() {
  return useRoutes(routes);
}
