// The API page's keys: create one (shown once, copied), rotate or revoke it after a confirmation, and
// the keys stopped lately with what stopped them (their owner, a password reset or change, a promotion),
// so a tool that stopped working says why. Only a confirmed address makes keys: a key is power over the
// wallet, and an address nobody proved could be someone else's.

import { zodResolver } from '@hookform/resolvers/zod';
import { API_KEY_NAME_MAX, type CreateApiKeyInput, createApiKeySchema } from '@schemas/api-keys';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { Notice } from '@/components/Notice';
import { QueryState } from '@/components/QueryState';
import { SkeletonRows } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { confirmAction } from '@/lib/confirm';
import { apiErrorCode } from '@/lib/errorCode';
import { formatDate, formatDateTime } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { toast } from '@/lib/toast';
import { createApiKey, type NewApiKey } from './api/create-api-key';
import { type ApiKey, apiKeyKeys, type RevokedApiKey, useApiKeys } from './api/get-api-keys';
import { revokeApiKey } from './api/revoke-api-key';
import { rotateApiKey } from './api/rotate-api-key';

/** What can be done to a key once made: each is asked first, since tools still using the key stop working at once. */
const KEY_ACTIONS = [
  { verb: 'Rotate', icon: 'refresh', danger: false, warning: 'A new key replaces this one, and tools still using the old key stop working at once.' },
  { verb: 'Revoke', icon: 'trash', danger: true, warning: 'Tools using this key stop working at once. This cannot be undone.' },
] as const;

const REVOKED_BECAUSE: Record<RevokedApiKey['revoked_reason'], string> = {
  owner: 'Revoked by you',
  password_reset: 'Revoked when your password was reset',
  password_change: 'Revoked when your password was changed',
  promotion: 'Revoked when the account became an administrator',
};

export function ApiKeysSection() {
  const queryClient = useQueryClient();
  const { user, reloadProfile } = useAuth();
  const keys = useApiKeys();
  const [revealed, setRevealed] = useState<{ apiKey: NewApiKey; rotated: boolean } | null>(null);
  // The server's word when it refused a key to an unconfirmed address (the session may not know yet).
  const [unverifiedRefusal, setUnverifiedRefusal] = useState<string | null>(null);
  const unverified = user?.emailVerified === false || unverifiedRefusal !== null;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<CreateApiKeyInput>({ resolver: zodResolver(createApiKeySchema), defaultValues: { name: '' } });

  /** A change to the keys: `done` with the answer, then the list is read again; a refusal is said in a toast. */
  const keyChange = <V, R>(mutationFn: (variables: V) => Promise<R>, done: (res: R) => void) => ({
    mutationFn,
    onSuccess: (res: R) => {
      done(res);
      void queryClient.invalidateQueries({ queryKey: apiKeyKeys.all });
    },
    onError: (error: unknown) => {
      if (apiErrorCode(error) === 'email_unverified') {
        setUnverifiedRefusal(getErrorMessage(error));
        // The session's record said confirmed: read it again, so the banner asking for confirmation shows.
        void reloadProfile();
      } else {
        handleApiError(error);
      }
    },
  });
  const create = useMutation(
    keyChange(createApiKey, (res) => {
      reset({ name: '' });
      setRevealed({ apiKey: res.data, rotated: false });
    }),
  );
  const rotate = useMutation(
    keyChange(
      (key: ApiKey) => rotateApiKey(key.id),
      (res) => setRevealed({ apiKey: res.data, rotated: true }),
    ),
  );
  const revoke = useMutation(
    keyChange(
      (key: ApiKey) => revokeApiKey(key.id),
      (res) => toast.success(res.message),
    ),
  );

  const run = { Rotate: rotate, Revoke: revoke };
  const ask = async ({ verb, warning, danger }: (typeof KEY_ACTIONS)[number], key: ApiKey) => {
    if (await confirmAction({ title: `${verb} "${key.name}"?`, text: warning, confirmText: verb, danger })) run[verb].mutate(key);
  };
  const busyId = (rotate.isPending ? rotate.variables?.id : undefined) ?? (revoke.isPending ? revoke.variables?.id : undefined);

  return (
    <section className="card p-4 sm:p-6" aria-labelledby="api-keys-title">
      <h2 id="api-keys-title" className="text-lg font-bold text-slate-900">
        Your API keys
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        A key is shown once, when you create or rotate it; we keep only a fingerprint. Give each tool its own key, so you can revoke one without touching the
        others.
      </p>

      {unverified ? (
        <div className="mt-4">
          <Notice tone="amber" label="Confirm your email address to create API keys">
            {unverifiedRefusal ??
              'Confirm your email address to create or rotate API keys: a key can spend your wallet, so it needs an address proven to be yours.'}{' '}
            {user?.email ? `Open the link we sent to ${user.email}, or send a new one from the banner at the top of the page.` : null}
          </Notice>
        </div>
      ) : null}

      <form
        noValidate
        onSubmit={handleSubmit(
          (values) => create.mutate(values.name.trim()),
          (e) => toastFirstError(e, ['name']),
        )}
        className="mt-4"
      >
        <fieldset disabled={unverified} className="flex min-w-0 flex-col gap-3 sm:flex-row sm:items-start">
          <TextField
            label="Key name"
            placeholder="e.g. My child panel"
            maxLength={API_KEY_NAME_MAX}
            autoComplete="off"
            containerClassName="sm:flex-1"
            error={errors.name?.message}
            {...register('name')}
          />
          <button type="submit" className="btn btn-primary sm:mt-7" disabled={create.isPending}>
            {create.isPending ? <Spinner label="" className="h-4 w-4" /> : <Icon name="plus" className="h-4 w-4" />}
            Create key
          </button>
        </fieldset>
      </form>

      <div className="mt-5">
        <QueryState query={keys} skeleton={<SkeletonRows rows={2} className="h-16" label="Loading API keys" />}>
          {({ live, revoked }) => (
            <>
              {live.length === 0 ? (
                <EmptyState icon="lock" title={revoked.length ? 'No API keys in use' : 'No API keys yet'}>
                  {unverified ? 'Once your address is confirmed, create a key above' : 'Create a key above'}, then paste it with the API URL below into your
                  tool.
                </EmptyState>
              ) : (
                <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" aria-label="API keys">
                  {live.map((key) => (
                    <li key={key.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
                      <div className="min-w-0">
                        <p className="truncate font-semibold text-slate-900">{key.name}</p>
                        <p className="mt-0.5 text-sm text-slate-600">
                          <KeyPrefix prefix={key.prefix} />
                          <span className="mx-1.5 text-slate-500">·</span>
                          <span title={formatDateTime(key.created_at)}>Created {formatDate(key.created_at)}</span>
                          <span className="mx-1.5 text-slate-500">·</span>
                          {key.last_used_at ? (
                            <span title={formatDateTime(key.last_used_at)}>
                              Last used <TimeAgo at={key.last_used_at} />
                            </span>
                          ) : (
                            'Never used'
                          )}
                        </p>
                        {key.last_get_write_at ? <GetWriteNotice at={key.last_get_write_at} /> : null}
                      </div>
                      <div className="flex shrink-0 gap-2">
                        {KEY_ACTIONS.map((action) => (
                          <button
                            key={action.verb}
                            type="button"
                            className={action.danger ? 'btn-sm btn-ghost text-rose-700 hover:bg-rose-50' : 'btn-sm btn-secondary'}
                            disabled={busyId === key.id || (action.verb === 'Rotate' && unverified)}
                            onClick={() => void ask(action, key)}
                            aria-label={`${action.verb} ${key.name}`}
                          >
                            <Icon name={action.icon} className="h-4 w-4" /> {action.verb}
                          </button>
                        ))}
                      </div>
                    </li>
                  ))}
                </ul>
              )}
              <RevokedKeys keys={revoked} />
            </>
          )}
        </QueryState>
      </div>

      <Modal
        open={revealed !== null}
        onClose={() => setRevealed(null)}
        title={revealed?.rotated ? 'Your rotated API key' : 'Your new API key'}
        description="Copy it now and keep it somewhere safe: it will not be shown again."
      >
        {revealed ? (
          <div className="space-y-4">
            <TextField
              label={revealed.apiKey.name}
              value={revealed.apiKey.key}
              readOnly
              className="font-mono text-sm"
              onFocus={(e) => e.currentTarget.select()}
            />
            {revealed.rotated ? <p className="text-sm text-amber-800">The previous key of “{revealed.apiKey.name}” no longer works.</p> : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <button type="button" className="btn btn-secondary" onClick={() => setRevealed(null)}>
                Done
              </button>
              <CopyButton text={revealed.apiKey.key} label="Copy API key" className="btn btn-primary" />
            </div>
          </div>
        ) : null}
      </Modal>
    </section>
  );
}

const KeyPrefix = ({ prefix }: { prefix: string }) => <code className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">{prefix}…</code>;

/** Keys stopped in the last 30 days (the server's window), newest first, each with when and why. */
function RevokedKeys({ keys }: { keys: RevokedApiKey[] }) {
  if (keys.length === 0) return null;
  return (
    <section className="mt-6" aria-labelledby="revoked-keys-title">
      <h3 id="revoked-keys-title" className="text-sm font-semibold text-slate-700">
        Revoked keys
      </h3>
      <p className="mt-0.5 text-xs text-slate-500">Tools still using these keys are refused. They stay listed for 30 days.</p>
      <ul className="mt-2 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-slate-50" aria-label="Revoked keys">
        {keys.map((key) => (
          <li key={key.id} className="p-4">
            <p className="truncate font-medium text-slate-700 line-through decoration-slate-400">{key.name}</p>
            <p className="mt-0.5 text-sm text-slate-600">
              <KeyPrefix prefix={key.prefix} />
              <span className="mx-1.5 text-slate-500">·</span>
              {REVOKED_BECAUSE[key.revoked_reason]}
              {key.revoked_at ? ` on ${formatDateTime(key.revoked_at)}` : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A key that sent add, refill or cancel over GET: the key was in a URL that servers and proxies keep. */
function GetWriteNotice({ at }: { at: string }) {
  return (
    <p className="mt-1 text-sm text-amber-800">
      <span title={formatDateTime(at)}>
        Placed an order, refill or cancel over GET <TimeAgo at={at} />.
      </span>{' '}
      Set the tool to POST, with the key in the body: in a GET URL the key is kept in server and proxy logs.
    </p>
  );
}
