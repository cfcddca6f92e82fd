// The whole route map (spec section 2). Screens load on demand (React.lazy, one chunk per
// route) and show a spinner meanwhile; any other path shows '404 Not Found'.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Outlet, ScrollRestoration, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '@/components/Spinner';
import { ScrollToTop } from '@/components/ScrollToTop';
import { AuthProvider } from '@/features/auth/AuthProvider';
import { RequireUserType } from '@/features/auth/RequireUserType';
import PublicLayout from '@/features/public/PublicLayout';
import { TestPaymentsBanner } from '@/features/public/TestPaymentsBanner';

const page = (Screen: LazyExoticComponent<ComponentType>, fullScreen = false) => (
  <Suspense fallback={<PageSpinner fullScreen={fullScreen} />}>
    <Screen />
  </Suspense>
);

// Public
const HomePage = lazy(() => import('@/features/public/HomePage'));
const ServicesPage = lazy(() => import('@/features/public/ServicesPage'));
const AboutPage = lazy(() => import('@/features/public/AboutPage'));
const ContactPage = lazy(() => import('@/features/public/ContactPage'));
const ForgotPasswordPage = lazy(() => import('@/features/public/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('@/features/public/ResetPasswordPage'));
// Auth
const AuthLayout = lazy(() => import('@/features/auth/AuthLayout'));
const LoginPage = lazy(() => import('@/features/auth/LoginPage'));
const RegisterPage = lazy(() => import('@/features/auth/RegisterPage'));
// User (userType 2)
const UserLayout = lazy(() => import('@/features/user/UserLayout'));
const UserServicesPage = lazy(() => import('@/features/orders/UserServicesPage'));
const ProfilePage = lazy(() => import('@/features/user/ProfilePage'));
const ApiPage = lazy(() => import('@/features/user/ApiPage'));
const DashboardPage = lazy(() => import('@/features/user/DashboardPage'));
const TransactionsPage = lazy(() => import('@/features/wallet/TransactionsPage'));
const OrdersPage = lazy(() => import('@/features/orders/OrdersPage'));
const CreateOrderPage = lazy(() => import('@/features/orders/CreateOrderPage'));
const AddFundPage = lazy(() => import('@/features/wallet/AddFundPage'));
const ConfirmPaymentPage = lazy(() => import('@/features/wallet/ConfirmPaymentPage'));
const TicketsPage = lazy(() => import('@/features/tickets/TicketsPage'));
const NewTicketPage = lazy(() => import('@/features/tickets/NewTicketPage'));
const TicketPage = lazy(() => import('@/features/tickets/TicketPage'));
const FavoritesPage = lazy(() => import('@/features/favorites/FavoritesPage'));
const ReferralsPage = lazy(() => import('@/features/referrals/ReferralsPage'));
const SettingsPage = lazy(() => import('@/features/notifications/SettingsPage'));
const UnsubscribePage = lazy(() => import('@/features/notifications/UnsubscribePage'));
const LogoutPage = lazy(() => import('@/features/user/placeholders').then((m) => ({ default: m.LogoutPage })));
// Admin (userType 1)
const AdminLayout = lazy(() => import('@/features/admin/AdminLayout'));
const AdminDashboardPage = lazy(() => import('@/features/admin/AdminDashboardPage'));
const AdminAccountSettingsPage = lazy(() => import('@/features/admin/AdminAccountSettingsPage'));
const AdminUsersPage = lazy(() => import('@/features/admin/AdminUsersPage'));
const ManageUserPage = lazy(() => import('@/features/admin/ManageUserPage'));
const AdminServicesPage = lazy(() => import('@/features/admin/AdminServicesPage'));
const AdminTransactionsPage = lazy(() => import('@/features/admin/AdminTransactionsPage'));
const AdminOrdersPage = lazy(() => import('@/features/admin/AdminOrdersPage'));
const AdminTicketsPage = lazy(() => import('@/features/admin/tickets/AdminTicketsPage'));
const AdminReferralsPage = lazy(() => import('@/features/admin/referrals/AdminReferralsPage'));
const AdminTicketPage = lazy(() => import('@/features/admin/tickets/AdminTicketPage'));
const AdminSiteSettingsPage = lazy(() => import('@/features/admin/AdminSiteSettingsPage'));
const AdminPaymentSettingsPage = lazy(() => import('@/features/admin/AdminPaymentSettingsPage'));
const AdminAdministratorsPage = lazy(() => import('@/features/admin/AdminAdministratorsPage'));
// Anything else
const NotFound = lazy(() => import('@/components/NotFound'));

function RootLayout() {
  return (
    <AuthProvider>
      <TestPaymentsBanner />
      <Outlet />
      <ScrollToTop />
      <ScrollRestoration />
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
        element: <RequireUserType type={2}>{page(UserLayout, true)}</RequireUserType>,
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
        element: <RequireUserType type={1}>{page(AdminLayout, true)}</RequireUserType>,
        children: [
          { index: true, element: page(AdminDashboardPage) },
          { path: 'dashboard', element: page(AdminDashboardPage) },
          { path: 'account-settings', element: page(AdminAccountSettingsPage) },
          { path: 'services', element: page(AdminServicesPage) },
          { path: 'transactions', element: page(AdminTransactionsPage) },
          { path: 'orders', element: page(AdminOrdersPage) },
          { path: 'tickets', element: page(AdminTicketsPage) },
          { path: 'tickets/:id', element: page(AdminTicketPage) },
          { path: 'site-settings', element: page(AdminSiteSettingsPage) },
          { path: 'payment-settings', element: page(AdminPaymentSettingsPage) },
          { path: 'users', element: page(AdminUsersPage) },
          { path: 'referrals', element: page(AdminReferralsPage) },
          { path: 'administrators', element: page(AdminAdministratorsPage) },
          { path: 'manage-user', element: page(ManageUserPage) },
        ],
      },
      { path: '*', element: page(NotFound, true) },
    ],
  },
];
