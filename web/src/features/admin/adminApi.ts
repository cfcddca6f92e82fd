// Admin calls: users (list, details, credit, suspension), administrators, the dashboard, the
// audit log and every user's transactions.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardPeriod, InviteAdministratorInput } from '@schemas/admin';
import { api } from '@/lib/api';
import type { SessionUser } from '@/lib/session';
import type { PaymentRefusalAlert } from './settingsApi';

export interface AdminOrder {
  id: number | string;
  productTitle: string;
  productLink?: string | null;
  quantity: number;
  price: string | number;
  smmStatus?: { status?: string | null } | null;
  created_at?: string | null;
  orderDate?: string | null;
}

export interface WalletHistoryEntry {
  id: number | string;
  transaction_type: number | string;
  amount: string | number;
  /** What the row is ("Refund for order #102") and the text written with it (TransactionWords). */
  description?: string | null;
  note?: string | null;
  created_at: string;
}

/** A card payment the provider took back: a refund, or a dispute (chargeback) and where it stands. */
export interface UserReversal {
  id: number;
  reference: string;
  provider: string;
  kind: 'refund' | 'dispute';
  status: 'taken' | 'dispute_open' | 'dispute_won' | 'dispute_lost';
  amount: string;
  /** Taken from the wallet's balance. */
  taken: string;
  /** The part already spent, added to the user's debt. */
  debt: string;
  created_at: string;
  resolved_at: string | null;
}

export interface UserDetails {
  message?: string;
  profile: SessionUser;
  walletHistory: WalletHistoryEntry[];
  orders: AdminOrder[];
  /**
   * Server-side totals over the whole history (when sent); otherwise summed from walletHistory.
   * Deposits are card payments only; spent is orders less their refunds.
   */
  summary?: {
    availableBalance?: string | number;
    totalDeposits?: string | number;
    totalSpent?: string | number;
    totalRefunds?: string | number;
    totalAdminCredits?: string | number;
    totalAdminDebits?: string | number;
    totalCardReversals?: string | number;
    debt?: string | number;
  } | null;
  /** Orders per status over all the user's orders (`orders` lists only the newest). */
  orderCounts?: { total: number; byStatus: Record<string, number> } | null;
  reversals: UserReversal[];
}

export interface ListPage<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

export interface UserListQuery {
  page: number;
  limit: number;
  search?: string;
  status?: 'active' | 'suspended';
  userType?: 1 | 2;
  sort?: 'newest' | 'oldest' | 'name' | 'balance' | 'last_login';
}

export const adminKeys = {
  all: ['admin'] as const,
  user: (userId: string | number) => ['admin', 'user', String(userId)] as const,
  users: (q: UserListQuery) => ['admin', 'users', q] as const,
  administrators: (q: { page: number; limit: number; search?: string }) => ['admin', 'administrators', q] as const,
  dashboard: (period: DashboardPeriod) => ['admin', 'dashboard', period] as const,
  audit: (q: AuditQuery) => ['admin', 'audit', q] as const,
  transactions: (q: AdminTransactionQuery) => ['admin', 'transactions', q] as const,
};

/** GET admin/getUserDeta/{userId}. Load failures are only logged. */
export function useUserDetails(userId: string | number | null | undefined) {
  return useQuery({
    queryKey: adminKeys.user(userId ?? ''),
    enabled: userId !== null && userId !== undefined && userId !== '',
    queryFn: async ({ signal }) => {
      try {
        const res = await api.get<UserDetails>(`admin/getUserDeta/${encodeURIComponent(String(userId))}`, { signal });
        return {
          message: res?.message,
          profile: res?.profile,
          walletHistory: Array.isArray(res?.walletHistory) ? res.walletHistory : [],
          orders: Array.isArray(res?.orders) ? res.orders : [],
          summary: res?.summary ?? null,
          orderCounts: res?.orderCounts ?? null,
          reversals: Array.isArray(res?.reversals) ? res.reversals : [],
        } satisfies UserDetails;
      } catch (error) {
        console.error('Failed to load user details', error);
        throw error;
      }
    },
  });
}

export function useAdminUsers(q: UserListQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: adminKeys.users(q),
    queryFn: ({ signal }) => api.get<ListPage<SessionUser>>('admin/users', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
    enabled: options.enabled,
  });
}

/**
 * Re-reads every admin list after a change. Reads already on their way may predate the change
 * (a search that settled while a confirmation was open), and react-query would hand their answer
 * to the refetch, so they are cancelled first.
 */
export function useRefreshAdmin(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.cancelQueries({ queryKey: adminKeys.all });
    await queryClient.invalidateQueries({ queryKey: adminKeys.all });
  };
}

const userPath = (userId: string | number) => `admin/users/${encodeURIComponent(String(userId))}`;
/** Suspension ends the person's sessions at once; reactivation lets them sign in again. */
export const suspendUser = (userId: string | number) => api.post<{ message?: string }>(`${userPath(userId)}/suspend`);
export const reactivateUser = (userId: string | number) => api.post<{ message?: string }>(`${userPath(userId)}/reactivate`);

/** POST user/admin-credit-user-wallet {amount (number), reference, userId}. */
export const creditUserWallet = (body: { amount: number; reference: string; userId: string | number }) => api.post<{ message?: string }>('user/admin-credit-user-wallet', body);

/** Order status text of the admin view ('Pending Submission', 'Completed', others as given). */
export const adminOrderStatus = (o: AdminOrder) => o.smmStatus?.status ?? '';

/** Sum of wallet history amounts of one transaction type (1 deposits, 2 spending). */
export function sumByType(history: ReadonlyArray<WalletHistoryEntry>, type: 1 | 2): number {
  return history.reduce((sum, h) => (Number(h.transaction_type) === type ? sum + Math.abs(Number(h.amount) || 0) : sum), 0);
}

// ---------------------------------------------------------------------------------------------
// Administrators

export function useAdministrators(q: { page: number; limit: number; search?: string }) {
  return useQuery({
    queryKey: adminKeys.administrators(q),
    queryFn: ({ signal }) => api.get<ListPage<SessionUser>>('admin/administrators', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

export const promoteAdministrator = (userId: string | number) => api.post<{ message?: string; data: SessionUser }>('admin/administrators/promote', { userId: Number(userId) });
export const inviteAdministrator = (body: InviteAdministratorInput) => api.post<{ message?: string; data: SessionUser }>('admin/administrators/invite', body);
export const removeAdministrator = (userId: string | number) => api.delete<{ message?: string }>(`admin/administrators/${encodeURIComponent(String(userId))}`);

// ---------------------------------------------------------------------------------------------
// Dashboard and audit log

export interface AuditEntry {
  id: number;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Record<string, unknown>;
  actor: { id: number; fullName: string | null; email: string | null } | null;
  created_at: string;
}

export interface AuditQuery {
  page: number;
  limit: number;
  action?: string;
  actorId?: number;
}

export function useAuditLog(q: AuditQuery) {
  return useQuery({
    queryKey: adminKeys.audit(q),
    queryFn: ({ signal }) => api.get<ListPage<AuditEntry>>('admin/audit', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

export interface ProviderSummary {
  id: number;
  name: string;
  currency: string;
  enabled: boolean;
  balance: string | null;
  lowBalanceAlert: string | null;
  lowBalance: boolean;
  balanceCheckedAt: string | null;
  catalogueSyncedAt: string | null;
  lastError: string | null;
  serviceCount: number;
}

export interface Dashboard {
  period: DashboardPeriod;
  /** Naira amounts as decimal text; `bucket` is the first day of the day, week or month (UTC). */
  series: Array<{ bucket: string; deposits: string; spend: string; providerCost: string; profit: string; orders: number; newUsers: number }>;
  totals: { deposits: string; spend: string; providerCost: string; profit: string; orders: number; newUsers: number };
  ordersByStatus: Array<{ status: string; count: number }>;
  pendingPayments: number;
  lastSync: { catalogue: string | null; orders: string | null };
  openWarnings: number;
  stuckOrders: {
    total: number;
    data: Array<{ id: number; userId: number; userEmail: string; serviceId: number; serviceName: string; providerName: string; status: string; submission: string; openSince: string; expectedSeconds: number | null }>;
  };
  providers: ProviderSummary[];
  /** Providers whose answers cannot be read (unhealthySince set) or with orders needing a person; healthy ones are left out. */
  providerHealth: Array<{ id: number; name: string; unhealthySince: string | null; lastError: string | null; openOrders: number; needsAttention: number }>;
  recentAudit: AuditEntry[];
  /** The card payment provider refusing the shop since its key was last accepted; null while it refuses nothing. */
  paymentRefusals: PaymentRefusalAlert | null;
}

export function useDashboard(period: DashboardPeriod) {
  return useQuery({
    queryKey: adminKeys.dashboard(period),
    queryFn: async ({ signal }) => (await api.get<{ data: Dashboard }>('admin/dashboard', { query: { period }, signal })).data,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

// ---------------------------------------------------------------------------------------------
// Every user's ledger

export const LEDGER_SOURCES = [
  { value: 'payment', label: 'Card payment' },
  { value: 'admin_credit', label: 'Admin credit' },
  { value: 'admin_debit', label: 'Admin correction' },
  { value: 'order', label: 'Order' },
  { value: 'order_refund', label: 'Order refund' },
  { value: 'chargeback', label: 'Card refund or chargeback' },
  { value: 'chargeback_return', label: 'Chargeback given back' },
  { value: 'debt_settlement', label: 'Debt settled' },
] as const;

export interface AdminTransaction {
  id: number;
  userId: number;
  transaction_type: number;
  amount: string;
  balance_after: string;
  source: string;
  reference: string;
  /** What the row is ("Refund for order #102"); `note` is the text written with it (a reason, the service ordered). */
  description: string;
  note?: string;
  created_at: string;
}

export interface AdminTransactionQuery {
  page: number;
  limit: number;
  userId?: number;
  type?: 1 | 2;
  source?: string;
  search?: string;
  from?: string;
  to?: string;
}

export function useAdminTransactions(q: AdminTransactionQuery) {
  return useQuery({
    queryKey: adminKeys.transactions(q),
    queryFn: ({ signal }) => api.get<ListPage<AdminTransaction>>('admin/transactions', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The filtered ledger as CSV text, fetched with the administrator's token (a bare link would carry none). */
export function exportTransactions(q: Omit<AdminTransactionQuery, 'page' | 'limit'>): Promise<string> {
  return api.get<string>('admin/transactions/export', { query: { ...q }, headers: { Accept: 'text/csv' } });
}
