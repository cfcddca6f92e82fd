// /admin/users: search, sort and filter every account; suspend (ends the person's sessions at
// once) or reactivate after a confirmation; "Manage" opens /admin/manage-user with { userId } in
// router state. Filters live in the URL.

import { USER_SORTS, USER_STATUSES, type UserSort } from '@schemas/admin';
import { USER_TYPE } from '@vocabulary';

import { useNavigate } from 'react-router-dom';
import { EmptyState } from '@/components/EmptyState';
import { FilterBar } from '@/components/FilterBar';
import { ChoiceOptions, FilterSelect } from '@/components/FilterSelect';
import { Icon } from '@/components/Icon';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import type { Column } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { useAdminChange } from '@/features/admin/useAdminChange';
import { useAuth } from '@/lib/authContext';
import { confirmAction } from '@/lib/confirm';
import { formatAmount, formatDate } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { AccountName } from './AccountName';
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
const SORT_CHOICES = USER_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }));
const STATUS_CHOICES = [
  { value: 'active', label: 'Active' },
  { value: 'suspended', label: 'Suspended' },
];
const ACCOUNT_TYPE_CHOICES = [
  { value: '2', label: 'Users' },
  { value: '1', label: 'Administrators' },
];

const oneOf = <T extends string>(value: string, allowed: ReadonlyArray<T>): T | undefined =>
  (allowed as ReadonlyArray<string>).includes(value) ? (value as T) : undefined;

export default function AdminUsersPage() {
  const navigate = useNavigate();
  const currency = useCurrency();
  const { user: me } = useAuth();
  const filters = useUrlFilters();
  const [search, setSearch] = useUrlSearch(filters);
  const status = oneOf(filters.get('status'), USER_STATUSES);
  const sort = oneOf(filters.get('sort'), USER_SORTS) ?? 'newest';
  const typeParam = filters.get('type');
  const userType = typeParam === '1' ? 1 : typeParam === '2' ? 2 : undefined;
  const q = useAdminUsers({ page: filters.page, limit: LIMIT, search: filters.get('search') || undefined, status, sort, userType });
  const empty = (
    <EmptyState icon="users" title="No users found">
      {filters.active ? 'Try another search or filter.' : null}
    </EmptyState>
  );

  const manage = (u: AdminUser) => navigate('/admin/manage-user', { state: { userId: u.id } });

  const change = useAdminChange(
    ({ user, suspend }: { user: AdminUser; suspend: boolean }) => (suspend ? suspendUser(user.id) : reactivateUser(user.id)),
    ({ suspend }) => (suspend ? 'User suspended' : 'User reactivated'),
  );

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
    { key: 'name', header: 'Name', mobile: 'title', cell: (u) => <AccountName name={u.fullName} detail={`${u.email} · @${u.username}`} isMe={isMe(u)} /> },
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
      <FilterBar filters={filters} className="grid-cols-1 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(3,minmax(0,1fr))_auto]">
        <SearchInput
          className="sm:col-span-2 lg:col-span-1"
          label="Search users"
          placeholder="Search by name, email or username"
          value={search}
          onChange={setSearch}
        />
        <FilterSelect filters={filters} name="status" label="Status" allLabel="All statuses" choices={STATUS_CHOICES} />
        <FilterSelect filters={filters} name="type" label="Account type" allLabel="Users and administrators" choices={ACCOUNT_TYPE_CHOICES} />
        <select aria-label="Sort" className="input" value={sort} onChange={(e) => filters.update({ sort: e.target.value === 'newest' ? '' : e.target.value })}>
          <ChoiceOptions choices={SORT_CHOICES} />
        </select>
      </FilterBar>
      <PagedTable query={q} caption="Users" columns={columns} paging={filters} empty={empty} />
    </div>
  );
}
