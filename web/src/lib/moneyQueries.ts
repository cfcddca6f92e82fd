// Which cached answers show money, and which list orders, so that one place (queryClient.ts) can
// re-read every balance on screen whenever money may have moved. A query whose answer shows a
// balance, a total or a ledger row needs a key under one of these prefixes to stay fresh.
import type { QueryKey } from '@tanstack/react-query';
import type { NotificationKind } from '@vocabulary';

/** The signed-in customer's wallet: balance, money in open orders, transactions and totals (walletApi's walletKeys). */
export const WALLET_QUERY_PREFIX = ['wallet'] as const;

export const MONEY_QUERY_PREFIXES: ReadonlyArray<QueryKey> = [
  WALLET_QUERY_PREFIX,
  // The profile carries wallet.balance.
  ['profile'],
  // What administrators see of users' money: one user's detail, the user list's balances, the ledger, the dashboard.
  ['admin', 'user'],
  ['admin', 'users'],
  ['admin', 'transactions'],
  ['admin', 'dashboard'],
];

/** Lists of orders (the customer's and the administrators'): a status or refund changing in one means money moved. */
export const ORDER_QUERY_PREFIXES: ReadonlyArray<QueryKey> = [['orders'], ['admin', 'orders']];

/** The bell's poll (features/notifications' notificationKeys.bell): a new notification of money moving means a balance changed. */
export const BELL_QUERY_KEY = ['notifications', 'bell'] as const;

/** The notifications that tell of money moving in the customer's wallet (a deposit, a refund, an administrator's entry, a commission). */
const MONEY_NOTIFICATION_KINDS: ReadonlySet<string> = new Set<NotificationKind>([
  'deposit_credited',
  'deposit_reversed',
  'wallet_adjusted',
  'order_partial',
  'order_canceled',
  'referral_earned',
  'referral_released',
  'referral_reversed',
]);

/** The newest notification in a bell answer (`{items: [{id, kind}]}`), and the newest of those telling of money (0 when none). */
export function bellNewest(answer: unknown): { any: number; money: number } {
  const items = (answer as { items?: unknown } | null | undefined)?.items;
  const newest = { any: 0, money: 0 };
  for (const item of Array.isArray(items) ? (items as Array<{ id?: unknown; kind?: unknown }>) : []) {
    const id = Number(item?.id);
    if (!Number.isFinite(id)) continue;
    newest.any = Math.max(newest.any, id);
    if (MONEY_NOTIFICATION_KINDS.has(String(item.kind))) newest.money = Math.max(newest.money, id);
  }
  return newest;
}

/** How often balances are re-read while the page is visible, so an administrator's credit shows without a reload. */
export const BALANCE_REFRESH_MS = 60_000;

const startsWith = (key: QueryKey, prefix: QueryKey) => prefix.every((part, i) => key[i] === part);

export const isMoneyQuery = (key: QueryKey) => MONEY_QUERY_PREFIXES.some((prefix) => startsWith(key, prefix));
export const isOrdersQuery = (key: QueryKey) => ORDER_QUERY_PREFIXES.some((prefix) => startsWith(key, prefix));

interface OrderLike {
  id?: unknown;
  status?: unknown;
  refunded?: unknown;
}

/** Each order's status and refund in an orders answer (a page `{data: [...]}` or one order `{data: {...}}`), by id. */
export function orderStates(answer: unknown): Map<string, string> {
  const data = (answer as { data?: unknown } | null | undefined)?.data;
  const rows: OrderLike[] = Array.isArray(data) ? data : data && typeof data === 'object' ? [data as OrderLike] : [];
  const states = new Map<string, string>();
  for (const row of rows) if (row && row.id !== undefined) states.set(String(row.id), `${String(row.status)}|${String(row.refunded ?? '')}`);
  return states;
}

/** Whether an order present in both answers changed status or refund (new or vanished rows are paging, not money). */
export function someOrderMoved(before: Map<string, string>, after: Map<string, string>): boolean {
  for (const [id, state] of after) if (before.has(id) && before.get(id) !== state) return true;
  return false;
}
