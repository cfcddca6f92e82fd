// Profile with two tabs (spec section 2): Account (editable name, read-only email) and Password.
// Users (not administrators, who share this screen) also find the way to their API keys here, and a
// password change revokes them unless unticked.

import { changePasswordFormSchema, updateProfileSchema } from '@schemas/auth';
import { z } from '@schemas/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { USER_TYPE } from '@vocabulary';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { PasswordField, TextField, usePasswordsToggle } from '@/components/Field';
import { SubmitButton } from '@/components/FormActions';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { Skeleton } from '@/components/Skeleton';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { TimeAgo } from '@/components/TimeAgo';
import { handleApiError, isApiError } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { formatDate, initials } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import type { SessionUser } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { changePassword, type RevokedKeys } from './api/change-password';
import { profileKey, useProfile } from './api/get-profile';
import { updateProfile } from './api/update-profile';

type TabKey = 'account' | 'password';
const TABS = [
  { key: 'account', label: 'Account' },
  { key: 'password', label: 'Password' },
] as const;

export default function ProfilePage({ title = 'Profile' }: { title?: string }) {
  const [tab, setTab] = useState<TabKey>('account');
  const idBase = useId();
  const { user, userType } = useAuth();
  const profile = useProfile();

  // Profile load failure: 'Failed to fetch user data' (once per failure).
  const failedRef = useRef(false);
  useEffect(() => {
    if (profile.isError && !failedRef.current) {
      failedRef.current = true;
      toast.error('Failed to fetch user data');
    }
    if (!profile.isError) failedRef.current = false;
  }, [profile.isError]);

  const data = profile.data ?? null;
  const shown = data ?? user;

  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <h1 className="page-title">{title}</h1>
      <section className="card flex items-center gap-4 p-5" aria-label="Your account">
        <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-brand-100 text-lg font-bold text-brand-800">
          {initials(shown?.fullName)}
        </span>
        <div className="min-w-0">
          <h2 className="truncate text-lg font-bold text-slate-900">{shown?.fullName ?? <Skeleton className="h-5 w-40" />}</h2>
          <p className="truncate text-sm text-slate-600">{shown?.email}</p>
          {shown?.created_at ? (
            <p className="mt-0.5 text-xs text-slate-500">
              Member since {formatDate(shown.created_at)}
              {shown.last_login ? (
                <>
                  {' '}
                  · Last login <TimeAgo at={shown.last_login} />
                </>
              ) : (
                ''
              )}
            </p>
          ) : null}
        </div>
      </section>

      <Tabs idBase={idBase} label="Profile sections" tabs={TABS} active={tab} onChange={setTab} />

      <div {...tabPanelProps(idBase, 'account')} hidden={tab !== 'account'} className="card p-5 sm:p-6">
        {profile.isPending && !data ? (
          <div className="space-y-4" role="status" aria-label="Loading profile">
            <Skeleton className="h-11 w-full" />
            <Skeleton className="h-11 w-full" />
            <Skeleton className="h-11 w-36" />
          </div>
        ) : (
          <AccountForm profile={data ?? user} />
        )}
      </div>
      <div {...tabPanelProps(idBase, 'password')} hidden={tab !== 'password'} className="card p-5 sm:p-6">
        <PasswordForm />
      </div>

      {/* Regular users are the only ones with API keys. */}
      {userType === USER_TYPE.user ? (
        <section className="card flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between" aria-labelledby="profile-api-title">
          <div>
            <h2 id="profile-api-title" className="font-semibold text-slate-900">
              API access
            </h2>
            <p className="mt-0.5 text-sm text-slate-600">Connect your reseller panel or bot: create API keys and read the API documentation.</p>
          </div>
          <Link to="/user/api" className="btn btn-secondary shrink-0">
            <Icon name="bolt" className="h-4 w-4" /> API keys and docs
          </Link>
        </section>
      ) : null}
    </div>
  );
}

const nameSchema = z.object({ fullName: updateProfileSchema.shape.fullName });

function AccountForm({ profile }: { profile: SessionUser | null }) {
  const { setUser } = useAuth();
  const queryClient = useQueryClient();
  const { field, handleSubmit, reset, isDirty } = useZodForm(nameSchema, { fullName: profile?.fullName ?? '' });

  useEffect(() => {
    reset({ fullName: profile?.fullName ?? '' });
  }, [profile?.fullName, reset]);

  const save = useMutation({
    mutationFn: (fullName: string) => updateProfile({ fullName, username: profile?.username ?? '', email: profile?.email ?? '' }),
    onSuccess: (res) => {
      toast.success('Profile updated successfully');
      setUser(res.data);
      queryClient.setQueryData(profileKey, res.data);
      reset({ fullName: res.data.fullName });
    },
    onError: () => toast.error('Failed to update profile'),
  });

  const onValid = (values: z.infer<typeof nameSchema>) => save.mutate(values.fullName.trim());
  return (
    <form noValidate onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['fullName']))} className="space-y-4">
      <TextField label="Name" autoComplete="name" {...field('fullName')} />
      <TextField label="Email Address" type="email" value={profile?.email ?? ''} readOnly aria-readonly="true" hint="Your email address cannot be changed." />
      <SubmitButton busy={save.isPending} busyLabel="Saving" disabled={!isDirty} className="w-full sm:w-auto">
        Save changes
      </SubmitButton>
    </form>
  );
}

type PasswordValues = z.infer<typeof changePasswordFormSchema>;
const EMPTY_PASSWORDS: PasswordValues = { oldPassword: '', password: '', confirmPassword: '' };
const WRONG_CURRENT_PASSWORD = 'Current password is incorrect';

function PasswordForm() {
  const { logout, userType } = useAuth();
  const passwords = usePasswordsToggle();
  const { field, handleSubmit, reset, setError } = useZodForm(changePasswordFormSchema, EMPTY_PASSWORDS);
  // Only customers have API keys; a stranger who had the old password may have made one, so revoking is the default.
  const hasKeys = userType === USER_TYPE.user;
  const [revokeApiKeys, setRevokeApiKeys] = useState(true);
  const [revokedKeys, setRevokedKeys] = useState<RevokedKeys | null>(null);

  const save = useMutation({
    mutationFn: (v: PasswordValues) => changePassword({ oldPassword: v.oldPassword, password: v.password, revokeApiKeys }),
    onSuccess: (res) => {
      toast.success('Password updated successfully');
      reset(EMPTY_PASSWORDS);
      // The keys that stopped are said before the logout, which would take the page (and the list) away.
      if (res.revokedKeys.length > 0) setRevokedKeys(res.revokedKeys);
      else void logout();
    },
    onError: (error) => {
      const reason = handleApiError(error, { toast: false });
      toast.error(`Failed to update password. ${reason}`);
      // A 400 is about a field: the current password when the server says it is wrong, else the new one.
      if (isApiError(error) && error.status === 400) {
        setError(reason === WRONG_CURRENT_PASSWORD ? 'oldPassword' : 'password', { type: 'server', message: reason }, { shouldFocus: true });
      }
    },
  });

  return (
    <form
      noValidate
      onSubmit={handleSubmit(
        (v) => save.mutate(v),
        (e) => toastFirstError(e, ['oldPassword', 'password', 'confirmPassword']),
      )}
      className="space-y-4"
    >
      <PasswordField label="Current password" autoComplete="current-password" {...passwords.toggle} {...field('oldPassword')} />
      <PasswordField label="New password" autoComplete="new-password" {...passwords.follow} {...field('password')} />
      <PasswordField label="Confirm password" autoComplete="new-password" {...passwords.follow} {...field('confirmPassword')} />
      {hasKeys ? (
        <label className="flex cursor-pointer items-start gap-2.5 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={revokeApiKeys}
            onChange={(e) => setRevokeApiKeys(e.target.checked)}
            className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600"
          />
          <span>
            Also revoke my API keys
            <span className="block text-xs text-slate-500">Recommended if someone else may have known your password: tools using your keys stop working.</span>
          </span>
        </label>
      ) : null}
      <p className="flex items-start gap-2 rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
        <Icon name="info" className="mt-0.5 h-4 w-4 shrink-0" />
        After saving your new password you will be logged out and need to sign in again.
      </p>
      <SubmitButton busy={save.isPending} busyLabel="Saving" className="w-full sm:w-auto">
        Save password
      </SubmitButton>
      <Modal
        open={revokedKeys !== null}
        onClose={() => void logout()}
        title="API keys revoked"
        description="Your password was changed, and these API keys were revoked with it. Tools using them stop working: create new keys after you sign in again."
      >
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" aria-label="Revoked API keys">
          {revokedKeys?.map((key) => (
            <li key={key.prefix} className="flex items-center justify-between gap-3 px-4 py-2.5 text-sm">
              <span className="min-w-0 truncate font-medium text-slate-900">{key.name}</span>
              <code className="shrink-0 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{key.prefix}…</code>
            </li>
          ))}
        </ul>
        <button type="button" className="btn btn-primary mt-5 w-full" onClick={() => void logout()}>
          Sign in again
        </button>
      </Modal>
    </form>
  );
}
