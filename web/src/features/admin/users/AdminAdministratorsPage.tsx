// /admin/administrators: who runs the shop. Promote an existing user with a confirmed address, invite
// someone by email (a new person chooses their password through the emailed link; an existing account
// becomes an administrator only when its mailbox's owner uses the link), or remove an administrator —
// never yourself, never the last one (the server refuses both and says why).

import { type InviteAdministratorInput, inviteAdministratorSchema } from '@schemas/admin';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { TextField } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { Notice } from '@/components/Notice';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import type { Column } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { useAdminChange } from '@/features/admin/useAdminChange';
import { getErrorMessage, handleApiError, isApiError } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { confirmAction } from '@/lib/confirm';
import { formatDate } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { useDebouncedValue } from '@/lib/hooks';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { AccountName } from './AccountName';
import { useAdministrators } from './api/get-administrators';
import { type AdminUser, useAdminUsers } from './api/get-users';
import { inviteAdministrator } from './api/invite-administrator';
import { promoteAdministrator } from './api/promote-administrator';
import { removeAdministrator } from './api/remove-administrator';

const LIMIT = 20;

export default function AdminAdministratorsPage() {
  const { user: me } = useAuth();
  const refresh = useRefreshAdmin();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<'invite' | 'promote' | null>(null);
  // Someone promotion refused (an unconfirmed address), offered an invitation instead.
  const [inviting, setInviting] = useState<InviteAdministratorInput>(EMPTY_INVITE);
  const debounced = useDebouncedValue(search.trim(), 350);
  const q = useAdministrators({ page, limit: LIMIT, search: debounced || undefined });
  const empty = <EmptyState icon="shield" title="No administrators match" />;

  const remove = useAdminChange((admin: AdminUser) => removeAdministrator(admin.id), 'Administrator removed');

  const onRemove = async (admin: AdminUser) => {
    const confirmed = await confirmAction({
      title: `Remove ${admin.fullName}?`,
      text: 'They become a regular user and are signed out at once. Their account, wallet and orders are kept.',
      confirmText: 'Yes, remove',
      cancelText: 'No',
      danger: true,
    });
    if (confirmed) remove.mutate(admin);
  };

  const isMe = (u: AdminUser) => String(u.id) === String(me?.id);
  const columns: Column<AdminUser>[] = [
    { key: 'name', header: 'Name', mobile: 'title', cell: (u) => <AccountName name={u.fullName} detail={u.email} isMe={isMe(u)} wide /> },
    {
      key: 'status',
      header: 'Status',
      cell: (u) => <Badge tone={u.status === 'suspended' ? 'red' : 'green'}>{u.status === 'suspended' ? 'Suspended' : 'Active'}</Badge>,
    },
    { key: 'login', header: 'Last login', cell: (u) => (u.last_login ? <TimeAgo at={u.last_login} /> : 'Not yet (invited)') },
    { key: 'since', header: 'Member Since', cell: (u) => formatDate(u.created_at) || '—' },
    {
      key: 'actions',
      header: 'Actions',
      className: 'md:text-right',
      cell: (u) =>
        isMe(u) ? (
          <span className="inline-block max-w-[12rem] text-xs text-slate-500">Another administrator can remove you</span>
        ) : (
          <button
            type="button"
            className="btn-sm btn-secondary text-rose-700"
            disabled={remove.isPending && remove.variables?.id === u.id}
            onClick={() => void onRemove(u)}
            aria-label={`Remove ${u.fullName}`}
          >
            Remove
          </button>
        ),
    },
  ];

  return (
    <div className="space-y-5">
      <PageHeader
        title="Administrators"
        description="Everyone here can manage users, money, orders, prices and settings. Changes are written to the audit log."
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setDialog('promote')}>
              <Icon name="shieldCheck" className="h-4 w-4" /> Promote a user
            </button>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => {
                setInviting(EMPTY_INVITE);
                setDialog('invite');
              }}
            >
              <Icon name="mail" className="h-4 w-4" /> Invite
            </button>
          </>
        }
      />
      <div className="card p-4">
        <SearchInput
          label="Search administrators"
          placeholder="Search by name or email"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
      </div>
      <PagedTable query={q} caption="Administrators" columns={columns} paging={{ page, setPage }} empty={empty} />
      <InviteDialog open={dialog === 'invite'} initial={inviting} onClose={() => setDialog(null)} onDone={refresh} />
      <PromoteDialog
        open={dialog === 'promote'}
        onClose={() => setDialog(null)}
        onDone={refresh}
        onInvite={(u) => {
          setInviting({ fullName: u.fullName, email: u.email });
          setDialog('invite');
        }}
      />
    </div>
  );
}

const EMPTY_INVITE: InviteAdministratorInput = { fullName: '', email: '' };

function InviteDialog({ open, initial, onClose, onDone }: { open: boolean; initial: InviteAdministratorInput; onClose: () => void; onDone: () => void }) {
  const { field, handleSubmit, reset, isSubmitting } = useZodForm(inviteAdministratorSchema, initial);
  // An existing account was emailed a promotion link: the server's words stay until read (who, and that nothing changes until it is used).
  const [linkSent, setLinkSent] = useState<string | null>(null);
  useEffect(() => {
    if (open) reset(initial);
  }, [open, initial, reset]);
  const close = () => {
    if (isSubmitting) return;
    setLinkSent(null);
    onClose();
  };
  const onValid = async (values: InviteAdministratorInput) => {
    try {
      const res = await inviteAdministrator(values);
      onDone();
      if ('data' in res) {
        toast.success(res.message || 'Invitation sent');
        close();
      } else {
        setLinkSent(res.message);
      }
    } catch (error) {
      handleApiError(error);
    }
  };
  return (
    <Modal
      open={open}
      onClose={close}
      busy={isSubmitting}
      title="Invite an administrator"
      description="They get an email with a link to choose their password (valid for 30 minutes; after that, Forgot password sends a new one). Someone who already has an account becomes an administrator only when they use the link."
    >
      {linkSent ? (
        <div className="space-y-4">
          <p role="status" className="flex items-start gap-2 rounded-xl bg-emerald-50 p-3 text-sm text-emerald-900">
            <Icon name="mail" className="mt-0.5 h-4 w-4 shrink-0" />
            {linkSent}
          </p>
          <button type="button" className="btn btn-primary w-full" onClick={close}>
            Done
          </button>
        </div>
      ) : (
        <form noValidate className="space-y-4" onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['fullName', 'email']))}>
          <TextField label="Full Name" autoComplete="off" {...field('fullName')} />
          <TextField label="Email Address" type="email" autoComplete="off" {...field('email')} />
          <FormActions onCancel={close} busy={isSubmitting} label="Send invitation" busyLabel="Sending..." />
        </form>
      )}
    </Modal>
  );
}

function PromoteDialog({
  open,
  onClose,
  onDone,
  onInvite,
}: {
  open: boolean;
  onClose: () => void;
  onDone: () => void;
  /** Promotion refused: invite this person by email instead. */
  onInvite: (user: AdminUser) => void;
}) {
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search.trim(), 300);
  const candidates = useAdminUsers(
    { page: 1, limit: 8, userType: 2, status: 'active', search: debounced || undefined, sort: 'name' },
    { enabled: open && debounced.length > 0 },
  );
  const promote = useMutation({
    mutationFn: (user: AdminUser) => promoteAdministrator(user.id),
    onSuccess: (res) => {
      toast.success(res.message || 'User promoted to administrator');
      onDone();
      setSearch('');
      onClose();
    },
    onError: (error) => handleApiError(error),
  });
  // A refusal's advice (an unconfirmed address: invite instead) stays in the dialog, next to whom it is about.
  const refusal =
    promote.isError && isApiError(promote.error) && promote.error.status === 409 ? { user: promote.variables, advice: getErrorMessage(promote.error) } : null;
  const onPromote = async (user: AdminUser) => {
    const confirmed = await confirmAction({
      title: `Make ${user.fullName} an administrator?`,
      text: 'They are signed out and sign in again to the admin area, with full access to users, money and settings. They can no longer use the user area, and their reseller API keys stop.',
      confirmText: 'Yes, promote',
      cancelText: 'No',
    });
    if (confirmed) promote.mutate(user);
  };
  return (
    <Modal
      open={open}
      onClose={() => {
        if (promote.isPending) return;
        promote.reset();
        onClose();
      }}
      busy={promote.isPending}
      title="Promote a user"
      description="Find an active user by name or email."
    >
      <SearchInput label="Search users" placeholder="Name, email or username" value={search} onChange={setSearch} />
      {refusal ? (
        <div className="mt-3">
          <Notice
            tone="amber"
            label={`${refusal.user.fullName} cannot be promoted`}
            details={
              refusal.user.emailVerified ? null : (
                <button
                  type="button"
                  className="btn-sm btn-secondary mt-2 ml-6"
                  onClick={() => {
                    promote.reset();
                    onInvite(refusal.user);
                  }}
                >
                  <Icon name="mail" className="h-4 w-4" /> Invite {refusal.user.fullName} by email
                </button>
              )
            }
          >
            {refusal.advice}
          </Notice>
        </div>
      ) : null}
      <div className="mt-3 min-h-32">
        {!debounced ? (
          <p className="py-6 text-center text-sm text-slate-500">Start typing to find a user.</p>
        ) : candidates.isPending ? (
          <SkeletonRows rows={3} className="h-12" />
        ) : candidates.isError ? (
          <ErrorState message={getErrorMessage(candidates.error)} onRetry={() => void candidates.refetch()} />
        ) : candidates.data.data.length === 0 ? (
          <p className="py-6 text-center text-sm text-slate-500">No active user matches.</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {candidates.data.data.map((u) => (
              <li key={u.id} className="flex items-center justify-between gap-3 py-2.5">
                <div className="min-w-0">
                  <p className="truncate font-medium text-slate-900" title={u.fullName}>
                    {u.fullName}
                  </p>
                  <p className="truncate text-xs text-slate-500" title={u.email}>
                    {u.email}
                    {u.emailVerified ? null : <span className="text-amber-700"> · email not confirmed</span>}
                  </p>
                </div>
                <button
                  type="button"
                  className="btn-sm btn-primary"
                  disabled={promote.isPending}
                  onClick={() => void onPromote(u)}
                  aria-label={`Promote ${u.fullName}`}
                >
                  Promote
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
