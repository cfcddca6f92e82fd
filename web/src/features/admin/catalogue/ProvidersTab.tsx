// Upstream providers: add, edit (the API key and the webhook signing secret are write-only: shown only as
// "configured"), switch on or off, check the balance (with its low-balance alert), sync the catalogue, delete one
// that never sold anything.

import { createProviderSchema } from '@schemas/catalogue';
import { z } from '@schemas/zod';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { PasswordField, TextField } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { Switch } from '@/components/Switch';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { confirmAction } from '@/lib/confirm';
import { formatCount, formatDateTime, timeAgo } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { cx } from '@/lib/hooks';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { checkProviderBalance } from './api/check-provider-balance';
import { createProvider } from './api/create-provider';
import { deleteProvider } from './api/delete-provider';
import { type AdminProvider, useProviders } from './api/get-providers';
import { syncProviderCatalogue } from './api/sync-provider-catalogue';
import { type ProviderChanges, updateProvider } from './api/update-provider';

export function ProvidersTab() {
  const refresh = useRefreshAdmin();
  const providers = useProviders();
  const [editing, setEditing] = useState<AdminProvider | 'new' | null>(null);

  const act = useMutation({
    mutationFn: ({ run }: { providerId: number; run: () => Promise<string> }) => run(),
    onSuccess: (message) => {
      toast.success(message);
      refresh();
    },
    onError: (error) => handleApiError(error),
  });
  const run = (providerId: number, task: () => Promise<string>) => act.mutate({ providerId, run: task });

  const onBalance = (p: AdminProvider) =>
    run(p.id, async () => {
      const { data } = await checkProviderBalance(p.id);
      return `${p.name}: ${data.balance} ${data.currency}${data.lowBalance ? ' (low!)' : ''}`;
    });
  const onSync = (p: AdminProvider) =>
    run(p.id, async () => {
      const { data } = await syncProviderCatalogue(p.id);
      return `${p.name}: ${data.checked} checked, ${data.updated} updated, ${data.repriced} repriced, ${data.disabled} switched off, ${data.missing} gone`;
    });
  const onToggle = async (p: AdminProvider, enabled: boolean) => {
    if (
      !enabled &&
      !(await confirmAction({
        title: `Switch ${p.name} off?`,
        text: 'Its services can no longer be ordered and its orders are not synced until it is switched back on.',
        confirmText: 'Yes, switch off',
        cancelText: 'No',
        danger: true,
      }))
    )
      return;
    run(p.id, async () => (await updateProvider(p.id, { enabled })).message || 'Provider updated');
  };
  const onDelete = async (p: AdminProvider) => {
    if (
      await confirmAction({
        title: `Delete ${p.name}?`,
        text: 'Its key and settings are removed for good.',
        confirmText: 'Yes, delete',
        cancelText: 'No',
        danger: true,
      })
    ) {
      run(p.id, async () => (await deleteProvider(p.id)).message || 'Provider deleted');
    }
  };
  const busy = (p: AdminProvider) => act.isPending && act.variables?.providerId === p.id;

  return (
    <div className="space-y-4">
      <div className="flex justify-end">
        <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
          <Icon name="plus" className="h-4 w-4" /> Add provider
        </button>
      </div>
      {providers.isError ? (
        <ErrorState message={getErrorMessage(providers.error)} onRetry={() => void providers.refetch()} />
      ) : providers.isPending ? (
        <SkeletonRows rows={3} className="h-32" />
      ) : providers.data.length === 0 ? (
        <EmptyState
          icon="layers"
          title="No providers yet"
          action={
            <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
              Add a provider
            </button>
          }
        >
          A provider is an SMM panel (API v2) whose services you resell.
        </EmptyState>
      ) : (
        <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
          {providers.data.map((p) => (
            <li key={p.id} className={cx('card space-y-3 p-4', p.lowBalance && 'border-rose-300')}>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="truncate font-semibold text-slate-900">{p.name}</p>
                  <p className="truncate text-xs text-slate-500">{p.apiUrl}</p>
                </div>
                <Switch checked={p.enabled} label={`${p.name} enabled`} disabled={busy(p)} onChange={(on) => void onToggle(p, on)} />
              </div>
              <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
                <dt className="text-slate-500">Balance</dt>
                <dd className={cx('text-right font-medium tabular-nums', p.lowBalance ? 'text-rose-700' : 'text-slate-900')}>
                  {p.balance === null ? 'Not checked' : `${p.balance} ${p.currency}`} {p.lowBalance ? <Badge tone="red">Low</Badge> : null}
                </dd>
                <dt className="text-slate-500">Low-balance alert</dt>
                <dd className="text-right">{p.lowBalanceAlert ? `Below ${p.lowBalanceAlert} ${p.currency}` : 'Off'}</dd>
                <dt className="text-slate-500">API key</dt>
                <dd className="text-right">{p.apiKeySet ? <Badge tone="green">Configured</Badge> : <Badge tone="amber">Missing</Badge>}</dd>
                <dt className="text-slate-500">Webhooks</dt>
                <dd className="text-right">{p.webhookSecretSet ? <Badge tone="green">Followed</Badge> : 'Off (polling only)'}</dd>
                <dt className="text-slate-500">Services</dt>
                <dd className="text-right tabular-nums">{formatCount(p.serviceCount)}</dd>
                <dt className="text-slate-500">Catalogue synced</dt>
                <dd className="text-right" title={formatDateTime(p.catalogueSyncedAt)}>
                  {p.catalogueSyncedAt ? timeAgo(p.catalogueSyncedAt) : 'Never'}
                </dd>
              </dl>
              {p.lastError ? (
                <p className="rounded-lg bg-rose-50 px-3 py-2 text-xs break-words text-rose-800">
                  <span className="font-semibold">Last error:</span> {p.lastError}
                </p>
              ) : null}
              <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-3">
                <button type="button" className="btn-sm btn-secondary" disabled={busy(p)} onClick={() => onBalance(p)}>
                  <Icon name="wallet" className="h-3.5 w-3.5" /> Check balance
                </button>
                <button type="button" className="btn-sm btn-secondary" disabled={busy(p)} onClick={() => onSync(p)}>
                  <Icon name="refresh" className="h-3.5 w-3.5" /> Sync catalogue
                </button>
                <button type="button" className="btn-sm btn-secondary" disabled={busy(p)} onClick={() => setEditing(p)}>
                  <Icon name="pencil" className="h-3.5 w-3.5" /> Edit
                </button>
                {p.serviceCount === 0 ? (
                  <button type="button" className="btn-sm btn-secondary text-rose-700" disabled={busy(p)} onClick={() => void onDelete(p)}>
                    <Icon name="trash" className="h-3.5 w-3.5" /> Delete
                  </button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      <ProviderDialog provider={editing} onClose={() => setEditing(null)} onSaved={refresh} />
    </div>
  );
}

/** The provider form. Numbers stay text until sent; the API key is required only for a new provider (blank keeps the stored one). */
const providerFormSchema = (isNew: boolean) =>
  z.object({
    name: createProviderSchema.shape.name,
    apiUrl: createProviderSchema.shape.apiUrl,
    apiKey: z
      .string()
      .trim()
      .max(500, { error: 'API key is too long' })
      .refine((v) => !isNew || v !== '', { error: 'API key is required' }),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/, { error: 'Currency must be a 3-letter code' }),
    timeoutMs: z
      .string()
      .trim()
      .regex(/^\d+$/, { error: 'Timeout must be a whole number of milliseconds' })
      .refine((v) => Number(v) >= 1000 && Number(v) <= 60_000, { error: 'Timeout must be between 1000 and 60000 ms' }),
    lowBalanceAlert: z
      .string()
      .trim()
      .regex(/^(\d{1,9}(\.\d{1,6})?)?$/, { error: 'Low-balance alert must be an amount' }),
    webhookSecret: z
      .string()
      .trim()
      .max(500, { error: 'Webhook signing secret is too long' })
      .refine((v) => v === '' || v.length >= 8, { error: 'Webhook signing secret must be at least 8 characters' }),
  });
type ProviderForm = z.infer<ReturnType<typeof providerFormSchema>>;

function ProviderDialog({ provider, onClose, onSaved }: { provider: AdminProvider | 'new' | null; onClose: () => void; onSaved: () => void }) {
  const existing = provider !== 'new' ? provider : null;
  return (
    <Modal
      open={provider !== null}
      onClose={onClose}
      title={existing ? `Edit ${existing.name}` : 'Add a provider'}
      description="An SMM panel speaking API v2 (the usual reseller API)."
    >
      {provider !== null ? <ProviderFormBody existing={existing} onClose={onClose} onSaved={onSaved} /> : null}
    </Modal>
  );
}

function ProviderFormBody({ existing, onClose, onSaved }: { existing: AdminProvider | null; onClose: () => void; onSaved: () => void }) {
  const { field, handleSubmit, isSubmitting } = useZodForm(providerFormSchema(existing === null), {
    name: existing?.name ?? '',
    apiUrl: existing?.apiUrl ?? '',
    apiKey: '',
    currency: existing?.currency ?? 'USD',
    timeoutMs: String(existing?.timeoutMs ?? 15_000),
    lowBalanceAlert: existing?.lowBalanceAlert ?? '',
    webhookSecret: '',
  });
  const [forgetSecret, setForgetSecret] = useState(false);
  const onValid = async (values: ProviderForm) => {
    const fields = {
      name: values.name,
      apiUrl: values.apiUrl,
      currency: values.currency.toUpperCase(),
      timeoutMs: Number(values.timeoutMs),
      lowBalanceAlert: values.lowBalanceAlert === '' ? null : values.lowBalanceAlert,
      // Blank keeps the stored secret (or none); only a new one, or asking to forget it, is sent.
      ...(forgetSecret ? { webhookSecret: null } : values.webhookSecret ? { webhookSecret: values.webhookSecret } : {}),
    } satisfies ProviderChanges;
    try {
      // A blank key keeps the stored one; a new provider always has one (the form requires it).
      const res = existing
        ? await updateProvider(existing.id, values.apiKey ? { ...fields, apiKey: values.apiKey } : fields)
        : await createProvider({ ...fields, apiKey: values.apiKey });
      toast.success(res.message || 'Provider saved');
      onSaved();
      onClose();
    } catch (error) {
      handleApiError(error);
    }
  };
  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['name', 'apiUrl', 'apiKey', 'currency', 'timeoutMs', 'lowBalanceAlert', 'webhookSecret']))}
    >
      <TextField label="Name" {...field('name')} />
      <TextField label="API URL" type="url" placeholder="https://panel.example/api/v2" {...field('apiUrl')} />
      <PasswordField
        label={<span className="flex items-center gap-2">API key {existing?.apiKeySet ? <Badge tone="green">Configured</Badge> : null}</span>}
        autoComplete="new-password"
        placeholder={existing ? 'Configured (enter a new key to replace it)' : 'The key from the panel'}
        hint="Stored encrypted; it is never shown again."
        {...field('apiKey')}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <TextField label="Currency" maxLength={3} {...field('currency')} />
        <TextField label="Timeout (ms)" inputMode="numeric" {...field('timeoutMs')} />
        <TextField label="Low-balance alert" inputMode="decimal" placeholder="Off" hint="In the provider's currency." {...field('lowBalanceAlert')} />
      </div>
      <PasswordField
        label={
          <span className="flex items-center gap-2">
            Webhook signing secret (if this panel sends webhooks) {existing?.webhookSecretSet && !forgetSecret ? <Badge tone="green">Configured</Badge> : null}
          </span>
        }
        labelAction={
          existing?.webhookSecretSet ? (
            <button type="button" className="text-xs font-medium text-brand-700 hover:underline" onClick={() => setForgetSecret((v) => !v)}>
              {forgetSecret ? 'Keep it' : 'Forget it'}
            </button>
          ) : null
        }
        autoComplete="new-password"
        readOnly={forgetSecret}
        placeholder={
          forgetSecret
            ? 'Forgotten on save: polling alone follows its orders'
            : existing?.webhookSecretSet
              ? 'Configured (enter a new one to replace it)'
              : 'Optional'
        }
        hint="A panel like ours signs its webhooks with it; its order changes then arrive at once, and polling still catches anything missed."
        {...field('webhookSecret')}
      />
      {existing ? <WebhookAddress providerId={existing.id} /> : null}
      <FormActions onCancel={onClose} busy={isSubmitting} label={existing ? 'Save provider' : 'Add provider'} busyLabel="Saving..." />
    </form>
  );
}

/** Where the upstream panel sends its webhooks: given to it in its webhook settings, with the secret it shows there. */
function WebhookAddress({ providerId }: { providerId: number }) {
  // The SPA is served by the Worker, so its origin is the shop's address (APP_URL), as on the API page.
  const url = `${window.location.origin}/api/v1/webhooks/providers/${providerId}`;
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-slate-700">Webhook URL to give the panel</p>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 rounded-lg bg-slate-50 px-3 py-2 text-xs break-all text-slate-800">{url}</code>
        <CopyButton text={url} label="Copy webhook URL" />
      </div>
    </div>
  );
}
