// /admin/users: search, sort and filter every account; suspend (ends the person's sessions at
// once) or reactivate after a confirmation; "Manage" opens /admin/manage-user with { userId } in
// router state. Filters live in the URL.

import { USER_SORTS, USER_STATUSES, type UserSort } from '@schemas/admin';
import { USER_TYPE } from '@schemas/session';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { CellText, type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { confirmAction } from '@/lib/confirm';
import { formatAmount, formatDate } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { type AdminUser, useAdminUsers } from './api/get-users';
import { reactivateUser, suspendUser } from './api/set-user-status';

const LIMIT = 20;

const SORT_LABELS: Record<UserSort, string> = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  name: 'Name (A–Z)',
  balance: 'Highest balance',
  last_login: 'Last signed in',
};

const oneOf = <T extends string>(value: string, allowed: ReadonlyArray<T>): T | undefined =>
  (allowed as ReadonlyArray<string>).includes(value) ? (value as T) : undefined;

export default function AdminUsersPage() {
  const navigate = useNavigate();
  const currency = useCurrency();
  const refresh = useRefreshAdmin();
  const { user: me } = useAuth();
  const filters = useUrlFilters();
  const [search, setSearch] = useUrlSearch(filters);
  const status = oneOf(filters.get('status'), USER_STATUSES);
  const sort = oneOf(filters.get('sort'), USER_SORTS) ?? 'newest';
  const typeParam = filters.get('type');
  const userType = typeParam === '1' ? 1 : typeParam === '2' ? 2 : undefined;
  const q = useAdminUsers({ page: filters.page, limit: LIMIT, search: filters.get('search') || undefined, status, sort, userType });

  const manage = (u: AdminUser) => navigate('/admin/manage-user', { state: { userId: u.id } });

  const change = useMutation({
    mutationFn: ({ user, suspend }: { user: AdminUser; suspend: boolean }) => (suspend ? suspendUser(user.id) : reactivateUser(user.id)),
    onSuccess: (res, { suspend }) => {
      toast.success(res.message || (suspend ? 'User suspended' : 'User reactivated'));
      void refresh();
    },
    onError: (error) => handleApiError(error),
  });

  const onToggle = async (u: AdminUser) => {
    const suspend = u.status !== 'suspended';
    const confirmed = await confirmAction(
      suspend
        ? {
            title: `Suspend ${u.fullName}?`,
            text: 'They are signed out everywhere at once and cannot sign in or use the API until reactivated. Their wallet and orders are kept.',
            confirmText: 'Yes, suspend',
            cancelText: 'No',
            danger: true,
          }
        : { title: `Reactivate ${u.fullName}?`, text: 'They can sign in and order again.', confirmText: 'Yes, reactivate', cancelText: 'No' },
    );
    if (confirmed) change.mutate({ user: u, suspend });
  };

  const busyId = change.isPending ? change.variables?.user.id : null;
  const isMe = (u: AdminUser) => String(u.id) === String(me?.id);

  const actions = (u: AdminUser) => (
    <div className="flex justify-end gap-2 whitespace-nowrap">
      <button type="button" className="btn-sm btn-secondary" onClick={() => manage(u)} aria-label={`Manage ${u.fullName}`}>
        Manage <Icon name="chevronRight" className="h-3.5 w-3.5" />
      </button>
      {isMe(u) ? null : (
        <button
          type="button"
          className={u.status === 'suspended' ? 'btn-sm btn-secondary text-emerald-700' : 'btn-sm btn-secondary text-rose-700'}
          disabled={busyId === u.id}
          onClick={() => void onToggle(u)}
          aria-label={`${u.status === 'suspended' ? 'Reactivate' : 'Suspend'} ${u.fullName}`}
        >
          {u.status === 'suspended' ? 'Reactivate' : 'Suspend'}
        </button>
      )}
    </div>
  );

  const columns: Column<AdminUser>[] = [
    { key: 'id', header: 'ID', cell: (u) => <span className="text-slate-500">#{u.id}</span>, mobile: 'hide' },
    {
      key: 'name',
      header: 'Name',
      mobile: 'title',
      cell: (u) => (
        <div className="min-w-0">
          <p className="flex items-center gap-1.5">
            <CellText text={u.fullName} className="max-w-[15rem] font-medium text-slate-900" />
            {isMe(u) ? <Badge tone="violet">You</Badge> : null}
          </p>
          <CellText text={`${u.email} · @${u.username}`} className="max-w-[18rem] text-xs text-slate-500" />
        </div>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (u) => (
        <span className="inline-flex flex-wrap justify-end gap-1">
          <Badge tone={u.status === 'suspended' ? 'red' : 'green'}>{u.status === 'suspended' ? 'Suspended' : 'Active'}</Badge>
          {u.userType === USER_TYPE.admin ? <Badge tone="violet">Administrator</Badge> : null}
        </span>
      ),
    },
    {
      key: 'balance',
      header: 'Balance',
      className: 'md:text-right',
      cell: (u) => <span className="whitespace-nowrap tabular-nums">{formatAmount(u.wallet?.balance ?? 0, currency)}</span>,
    },
    {
      key: 'login',
      header: 'Last login',
      cell: (u) =>
        u.last_login ? (
          <span title={formatDate(u.last_login)}>
            <TimeAgo at={u.last_login} />
          </span>
        ) : (
          'Never'
        ),
    },
    { key: 'joined', header: 'Member Since', hideBelow: '6xl', cell: (u) => formatDate(u.created_at) || '—' },
    { key: 'actions', header: 'Actions', className: 'md:text-right', cell: actions },
  ];

  return (
    <div className="space-y-5">
      <PageHeader title="Users" description="Find anyone to see their wallet and orders, credit their wallet, or suspend their account." />
      <section aria-label="Filters" className="card grid grid-cols-1 gap-3 p-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto]">
        <div className="sm:col-span-2 lg:col-span-1">
          <SearchInput label="Search users" placeholder="Search by name, email or username" value={search} onChange={setSearch} />
        </div>
        <select aria-label="Status" className="input" value={status ?? ''} onChange={(e) => filters.update({ status: e.target.value })}>
          <option value="">All statuses</option>
          <option value="active">Active</option>
          <option value="suspended">Suspended</option>
        </select>
        <select aria-label="Account type" className="input" value={userType ?? ''} onChange={(e) => filters.update({ type: e.target.value })}>
          <option value="">Users and administrators</option>
          <option value="2">Users</option>
          <option value="1">Administrators</option>
        </select>
        <select aria-label="Sort" className="input" value={sort} onChange={(e) => filters.update({ sort: e.target.value === 'newest' ? '' : e.target.value })}>
          {USER_SORTS.map((value) => (
            <option key={value} value={value}>
              {SORT_LABELS[value]}
            </option>
          ))}
        </select>
        <button type="button" className="btn btn-ghost" disabled={!filters.active} onClick={filters.clear}>
          Clear
        </button>
      </section>
      {q.isError && !q.data ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <ResponsiveTable
            caption="Users"
            columns={columns}
            rows={q.data?.data}
            rowKey={(u) => u.id}
            loading={q.isPending}
            empty={
              <EmptyState icon="users" title="No users found">
                {filters.active ? 'Try another search or filter.' : null}
              </EmptyState>
            }
          />
          <Pagination
            page={filters.page}
            limit={LIMIT}
            total={q.data?.total ?? 0}
            onPage={(p) => filters.update({ page: String(p) })}
            disabled={q.isFetching}
          />
        </>
      )}
    </div>
  );
}
