// Adding a webhook: the endpoint's address and the events it wants, all of them unless the reseller says otherwise.
// Whether the address may receive them (HTTPS, public) is the server's call, so its refusal is shown under the field.

import { zodResolver } from '@hookform/resolvers/zod';
import { type CreateWebhookInput, createWebhookSchema, WEBHOOK_URL_MAX } from '@schemas/webhooks';
import { useMutation } from '@tanstack/react-query';
import { WEBHOOK_EVENTS } from '@vocabulary';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { TextField } from '@/components/Field';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { getErrorMessage, handleApiError, isApiError } from '@/lib/api';
import { apiErrorCode } from '@/lib/errorCode';
import { toastFirstError } from '@/lib/formErrors';
import { createWebhook, type NewWebhook } from './api/create-webhook';
import { WEBHOOK_EVENT_SUMMARIES } from './apiDocs';

const EMPTY_FORM: CreateWebhookInput = { url: '', events: [...WEBHOOK_EVENTS] };

export function AddWebhookForm({
  blockedBecause,
  onAdded,
  onUnverified,
}: {
  /** Why no webhook can be added now (an unconfirmed address, the cap reached), or null. */
  blockedBecause: string | null;
  onAdded: (webhook: NewWebhook) => void;
  onUnverified: (message: string) => void;
}) {
  const idBase = useId();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<CreateWebhookInput>({ resolver: zodResolver(createWebhookSchema), defaultValues: EMPTY_FORM });

  const create = useMutation({
    mutationFn: createWebhook,
    onSuccess: (res) => {
      reset(EMPTY_FORM);
      onAdded(res.data);
    },
    onError: (error) => {
      if (apiErrorCode(error) === 'email_unverified') {
        onUnverified(getErrorMessage(error));
        return;
      }
      const message = handleApiError(error);
      // A 400 is the address refused (not HTTPS, not public): said where it is put right, too.
      if (isApiError(error) && error.status === 400) setError('url', { type: 'server', message }, { shouldFocus: true });
    },
  });

  return (
    <form
      noValidate
      aria-labelledby={`${idBase}-title`}
      onSubmit={handleSubmit(
        (values) => create.mutate(values),
        (e) => toastFirstError(e, ['url', 'events']),
      )}
      className="mt-5 rounded-xl border border-slate-200 p-4"
    >
      <h3 id={`${idBase}-title`} className="font-semibold text-slate-900">
        Add a webhook
      </h3>
      {blockedBecause ? <p className="mt-1 text-sm text-amber-800">{blockedBecause}</p> : null}
      <fieldset disabled={blockedBecause !== null} className="mt-3 min-w-0 space-y-4">
        <TextField
          label="Endpoint URL"
          type="url"
          inputMode="url"
          placeholder="https://example.com/smm-webhook"
          autoComplete="off"
          maxLength={WEBHOOK_URL_MAX}
          hint="An HTTPS address your server answers on, reachable from the internet"
          error={errors.url?.message}
          {...register('url')}
        />
        <fieldset className="min-w-0" aria-describedby={errors.events ? `${idBase}-events-error` : undefined}>
          <legend className="label">Events</legend>
          <div className="space-y-2.5">
            {WEBHOOK_EVENTS.map((event) => (
              <div key={event} className="flex items-start gap-2.5">
                <input
                  id={`${idBase}-${event}`}
                  type="checkbox"
                  value={event}
                  aria-describedby={`${idBase}-${event}-hint`}
                  className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600"
                  {...register('events')}
                />
                <div className="min-w-0">
                  <label htmlFor={`${idBase}-${event}`} className="font-mono text-sm font-medium text-slate-900">
                    {event}
                  </label>
                  <p id={`${idBase}-${event}-hint`} className="text-sm text-slate-600">
                    {WEBHOOK_EVENT_SUMMARIES[event]}
                  </p>
                </div>
              </div>
            ))}
          </div>
          {errors.events ? (
            <p id={`${idBase}-events-error`} className="field-error" role="alert">
              {errors.events.message}
            </p>
          ) : null}
        </fieldset>
        <button type="submit" className="btn btn-primary w-full sm:w-auto" disabled={create.isPending}>
          {create.isPending ? <Spinner label="" className="h-4 w-4" /> : <Icon name="plus" className="h-4 w-4" />}
          Add webhook
        </button>
      </fieldset>
    </form>
  );
}
