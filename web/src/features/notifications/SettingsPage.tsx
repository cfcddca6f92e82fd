// /user/settings: which emails the user gets, the balance to be alerted under, and whether orders
// placed through the API are told in a daily summary (they are never told one by one).

import { EMAIL_SWITCHED_KINDS, type EmailSwitchedKind, NOTIFICATION_LABELS, notificationSettingsSchema } from '@schemas/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { API_ORDER_DIGEST } from '@vocabulary';
import { useEffect, useState } from 'react';
import { ErrorState } from '@/components/EmptyState';
import { TextField } from '@/components/Field';
import { PageHeader } from '@/components/PageHeader';
import { Panel } from '@/components/Panel';
import { Skeleton } from '@/components/Skeleton';
import { Switch } from '@/components/Switch';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useNotificationSettings } from './api/get-notification-settings';
import { notificationKeys } from './api/keys';
import { saveNotificationSettings } from './api/save-notification-settings';

export default function SettingsPage() {
  const queryClient = useQueryClient();
  const current = useNotificationSettings();
  const [email, setEmail] = useState<Record<EmailSwitchedKind, boolean> | null>(null);
  const [lowBalance, setLowBalance] = useState('');
  const [apiOrderDigest, setApiOrderDigest] = useState(false);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (!current.data) return;
    setEmail(current.data.email);
    setLowBalance(current.data.lowBalance ?? '');
    setApiOrderDigest(current.data.apiOrderDigest);
  }, [current.data]);

  const save = useMutation({
    mutationFn: saveNotificationSettings,
    onSuccess: (res) => {
      toast.success(res.message || 'Settings saved');
      queryClient.setQueryData(notificationKeys.settings, res.data);
    },
    onError: (e) => handleApiError(e, { toast: true }),
  });
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!email) return;
    const parsed = notificationSettingsSchema.safeParse({ email, lowBalance: lowBalance.trim() === '' ? null : lowBalance.trim(), apiOrderDigest });
    setError(parsed.success ? undefined : parsed.error.issues[0]?.message);
    if (parsed.success) save.mutate(parsed.data);
  };

  return (
    <div className="space-y-5">
      <PageHeader
        title="Settings"
        description="Choose what we email you about. Everything still shows under the bell, except orders placed through the API (see below)."
      />
      {current.isError ? (
        <ErrorState message={getErrorMessage(current.error)} onRetry={() => void current.refetch()} />
      ) : (
        <form noValidate onSubmit={submit} className="space-y-5">
          <Panel title="Email me about">
            {email ? (
              <ul className="mt-2 divide-y divide-slate-100">
                {EMAIL_SWITCHED_KINDS.map((kind) => (
                  <li key={kind} className="flex min-h-12 items-center justify-between gap-3 py-2">
                    <span className="text-sm text-slate-800">{NOTIFICATION_LABELS[kind]}</span>
                    <Switch checked={email[kind]} onChange={(on) => setEmail({ ...email, [kind]: on })} label={NOTIFICATION_LABELS[kind]} />
                  </li>
                ))}
              </ul>
            ) : (
              <div className="mt-3 space-y-3" role="status" aria-label="Loading settings">
                <Skeleton className="h-8 w-full" />
                <Skeleton className="h-8 w-full" />
                <Skeleton className="h-8 w-full" />
              </div>
            )}
          </Panel>
          <Panel title="Orders placed through the API">
            <div className="mt-2 flex min-h-12 items-center justify-between gap-3 py-2">
              <span className="text-sm text-slate-800">{NOTIFICATION_LABELS[API_ORDER_DIGEST]}</span>
              <Switch checked={apiOrderDigest} onChange={setApiOrderDigest} label={NOTIFICATION_LABELS[API_ORDER_DIGEST]} disabled={!email} />
            </div>
            <p className="text-xs text-slate-500">
              Orders your tools place through the API are never told one by one, in the bell or by email. Turned on, you get one summary each morning of those
              that completed, were partly delivered or were canceled the day before, with the refunds.
            </p>
          </Panel>
          <Panel title="Low balance alert">
            <div className="mt-2 max-w-xs">
              <TextField
                label="Alert me when my balance is under (NGN)"
                inputMode="decimal"
                placeholder="No alert"
                value={lowBalance}
                onChange={(e) => setLowBalance(e.target.value)}
                error={error}
                hint="Leave empty for no alert."
              />
            </div>
          </Panel>
          <button type="submit" className="btn btn-primary" disabled={!email || save.isPending}>
            Save settings
          </button>
        </form>
      )}
    </div>
  );
}
