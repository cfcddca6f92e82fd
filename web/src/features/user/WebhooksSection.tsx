// The API page's webhooks: endpoints we POST signed events to (an order's or a refill's status, a low balance), each
// with a signing secret shown once, a test to send, and the log of what was delivered, is being retried or was given
// up, so a reseller whose tool heard nothing can see why. Only a confirmed address adds them, as with keys: a webhook
// sends the account's orders to an address of its owner's choosing.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MAX_WEBHOOKS_PER_USER } from '@vocabulary';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CopyButton } from '@/components/CopyButton';
import { EmptyState } from '@/components/EmptyState';
import { TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { QueryState } from '@/components/QueryState';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { handleApiError } from '@/lib/api';
import { useAuth } from '@/lib/authContext';
import { confirmAction } from '@/lib/confirm';
import { formatDate, formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { AddWebhookForm } from './AddWebhookForm';
import type { NewWebhook } from './api/create-webhook';
import { deleteWebhook } from './api/delete-webhook';
import { useWebhooks, type Webhook, webhookKeys } from './api/get-webhooks';
import { sendTestWebhook } from './api/send-test-webhook';
import { WebhookDeliveryLog } from './WebhookDeliveryLog';

export function WebhooksSection() {
  const queryClient = useQueryClient();
  const { user, reloadProfile } = useAuth();
  const webhooks = useWebhooks();
  const [revealed, setRevealed] = useState<NewWebhook | null>(null);
  // The server's word when it refused an unconfirmed address (the session may not know yet).
  const [unverifiedRefusal, setUnverifiedRefusal] = useState<string | null>(null);
  const held = webhooks.data?.endpoints.length ?? 0;
  const blockedBecause =
    unverifiedRefusal ??
    (user?.emailVerified === false ? 'Confirm your email address to add webhooks: they send your orders to an address of your choosing.' : null) ??
    (held >= MAX_WEBHOOKS_PER_USER ? `You have ${MAX_WEBHOOKS_PER_USER} webhooks, the most an account can have. Delete one to add another.` : null);

  const readAgain = () => void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
  const sendTest = useMutation({
    mutationFn: (webhook: Webhook) => sendTestWebhook(webhook.id),
    onSuccess: (res) => {
      toast.success(res.message);
      // The test is in the log at once, queued; the log then follows it until the endpoint has answered.
      readAgain();
    },
    onError: (error) => handleApiError(error),
  });
  const remove = useMutation({
    mutationFn: (webhook: Webhook) => deleteWebhook(webhook.id),
    onSuccess: (res) => {
      toast.success(res.message);
      readAgain();
    },
    onError: (error) => handleApiError(error),
  });

  const askToDelete = async (webhook: Webhook) => {
    const text = `${webhook.url} stops receiving events at once, deliveries still being retried are dropped, and its delivery log goes. This cannot be undone.`;
    if (await confirmAction({ title: 'Delete this webhook?', text, confirmText: 'Delete', danger: true })) remove.mutate(webhook);
  };
  const busyId = (sendTest.isPending ? sendTest.variables?.id : undefined) ?? (remove.isPending ? remove.variables?.id : undefined);

  return (
    <section className="card p-4 sm:p-6" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title" className="text-lg font-bold text-slate-900">
        Webhooks
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        We POST signed JSON to your endpoint when an order&apos;s status changes, a refill&apos;s status changes, or your balance falls below your low-balance
        alert (set under{' '}
        <Link to="/user/settings" className="font-medium text-brand-700 underline">
          Settings
        </Link>
        ).
      </p>

      <div className="mt-4">
        <QueryState query={webhooks} skeleton={<SkeletonRows rows={2} className="h-16" label="Loading webhooks" />}>
          {({ endpoints }) =>
            endpoints.length === 0 ? (
              <EmptyState icon="bolt" title="No webhooks yet">
                Add your endpoint below to hear of changes as they happen, instead of asking for status again and again.
              </EmptyState>
            ) : (
              <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200" aria-label="Webhooks">
                {endpoints.map((webhook) => (
                  <li key={webhook.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
                    <div className="min-w-0">
                      <p className="font-mono text-sm font-semibold break-all text-slate-900">{webhook.url}</p>
                      <ul className="mt-1.5 flex flex-wrap gap-1.5" aria-label="Events">
                        {webhook.events.map((event) => (
                          <li key={event}>
                            <Badge tone="blue" className="font-mono">
                              {event}
                            </Badge>
                          </li>
                        ))}
                      </ul>
                      <p className="mt-1.5 text-xs text-slate-500" title={formatDateTime(webhook.createdAt)}>
                        Added {formatDate(webhook.createdAt)}
                      </p>
                    </div>
                    <div className="flex shrink-0 gap-2">
                      <button
                        type="button"
                        className="btn-sm btn-secondary"
                        disabled={busyId === webhook.id}
                        onClick={() => sendTest.mutate(webhook)}
                        aria-label={`Send a test to ${webhook.url}`}
                      >
                        <Icon name="bolt" className="h-4 w-4" /> Send test
                      </button>
                      <button
                        type="button"
                        className="btn-sm btn-ghost text-rose-700 hover:bg-rose-50"
                        disabled={busyId === webhook.id}
                        onClick={() => void askToDelete(webhook)}
                        aria-label={`Delete ${webhook.url}`}
                      >
                        <Icon name="trash" className="h-4 w-4" /> Delete
                      </button>
                    </div>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </div>

      <AddWebhookForm
        blockedBecause={blockedBecause}
        onAdded={(webhook) => {
          setRevealed(webhook);
          readAgain();
        }}
        onUnverified={(message) => {
          setUnverifiedRefusal(message);
          // The session's record said confirmed: read it again, so the banner asking for confirmation shows.
          void reloadProfile();
        }}
      />

      {webhooks.data && (webhooks.data.endpoints.length > 0 || webhooks.data.deliveries.length > 0) ? (
        <WebhookDeliveryLog deliveries={webhooks.data.deliveries} endpoints={webhooks.data.endpoints} />
      ) : null}

      <Modal
        open={revealed !== null}
        onClose={() => setRevealed(null)}
        title="Your webhook signing secret"
        description="Copy it now and keep it somewhere safe: it will not be shown again. Your endpoint checks each delivery's signature with it."
      >
        {revealed ? (
          <div className="space-y-4">
            <p className="text-sm break-all text-slate-600">
              For <span className="font-mono text-slate-900">{revealed.url}</span>
            </p>
            <TextField label="Signing secret" value={revealed.secret} readOnly className="font-mono text-sm" onFocus={(e) => e.currentTarget.select()} />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <button type="button" className="btn btn-secondary" onClick={() => setRevealed(null)}>
                Done
              </button>
              <CopyButton text={revealed.secret} label="Copy signing secret" className="btn btn-primary" />
            </div>
          </div>
        ) : null}
      </Modal>
    </section>
  );
}
