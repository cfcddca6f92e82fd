// The admin area's chunk: its layout, and where each of its screens loads from. Out of the route map
// (routes.tsx), so every page's first load carries one import of the area rather than one per admin
// screen, each with its own list of files to preload; each screen is still a chunk of its own.

export { default } from './AdminLayout';

export const adminScreens = {
  AdminDashboardPage: () => import('@/features/admin/dashboard/AdminDashboardPage'),
  AdminAccountSettingsPage: () => import('@/features/user/AdminAccountSettingsPage'),
  AdminTwoFactorPage: () => import('@/features/user/TwoFactorSetupPage'),
  AdminUsersPage: () => import('@/features/admin/users/AdminUsersPage'),
  ManageUserPage: () => import('@/features/admin/users/ManageUserPage'),
  AdminServicesPage: () => import('@/features/admin/catalogue/AdminServicesPage'),
  AdminTransactionsPage: () => import('@/features/admin/wallet/AdminTransactionsPage'),
  ReconciliationPage: () => import('@/features/admin/wallet/ReconciliationPage'),
  PendingPaymentsPage: () => import('@/features/admin/wallet/PendingPaymentsPage'),
  AdminOrdersPage: () => import('@/features/admin/orders/AdminOrdersPage'),
  AdminTicketsPage: () => import('@/features/admin/tickets/AdminTicketsPage'),
  AdminReferralsPage: () => import('@/features/admin/referrals/AdminReferralsPage'),
  AdminTicketPage: () => import('@/features/admin/tickets/AdminTicketPage'),
  AdminSiteSettingsPage: () => import('@/features/admin/settings/AdminSiteSettingsPage'),
  AdminPaymentSettingsPage: () => import('@/features/admin/settings/AdminPaymentSettingsPage'),
  AdminAdministratorsPage: () => import('@/features/admin/users/AdminAdministratorsPage'),
  AuditLogPage: () => import('@/features/admin/audit/AuditLogPage'),
  AuditEntryPage: () => import('@/features/admin/audit/AuditEntryPage'),
};
