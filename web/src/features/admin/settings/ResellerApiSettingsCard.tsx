// Site Settings' reseller API part (/api/v2): how many calls of each kind one API key may make in a
// minute, and whether add, refill and cancel sent over GET are refused. Saved with its own button.

import {
  MAX_CALLS_PER_MINUTE,
  RESELLER_METERED_ACTIONS,
  type ResellerApiSettings,
  type ResellerMeteredAction,
  resellerApiSettingsSchema,
} from '@schemas/settings';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { TextField } from '@/components/Field';
import { SaveBar } from '@/components/FormActions';
import { SkeletonRows } from '@/components/Skeleton';
import { getErrorMessage, handleApiError, isApiError } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { useResellerApiSettings } from './api/get-reseller-api-settings';
import { settingsKeys } from './api/keys';
import { saveResellerApiSettings } from './api/save-reseller-api-settings';

const REFUSE_LABEL = 'Refuse add, refill and cancel sent over GET';
const RANGE = `1 to ${MAX_CALLS_PER_MINUTE.toLocaleString('en-US')} per key.`;
/** Each meter's field, in the schema's order; `add` and `status` also count the calls that share their meter. */
const METERS: Record<ResellerMeteredAction, { label: string; hint: string }> = {
  add: { label: 'Orders, refills and cancels per minute', hint: `add, refill and cancel count together. ${RANGE}` },
  status: { label: 'Status checks per minute', hint: `status and refill_status count together. ${RANGE}` },
  services: { label: 'Service lists per minute', hint: RANGE },
  balance: { label: 'Balance checks per minute', hint: RANGE },
};

/** The shared schema's messages, and the server's 400s, open with the meter's name ('add: at least 1 call per minute'). */
const meterOf = (message: string) => RESELLER_METERED_ACTIONS.find((action) => message.startsWith(`${action}: `));
const withoutMeter = (action: ResellerMeteredAction, message: string) => (message.startsWith(`${action}: `) ? message.slice(action.length + 2) : message);
/** Such a message under its field, where the label already names the meter: 'At least 1 call per minute'. */
const underField = (action: ResellerMeteredAction, message: string | undefined) => {
  const rest = message ? withoutMeter(action, message) : '';
  return rest ? rest.charAt(0).toUpperCase() + rest.slice(1) : undefined;
};
/** Such a message as a toast, named by the field's label. */
const toastMeterError = (action: ResellerMeteredAction, message: string) => toast.error(`${METERS[action].label}: ${withoutMeter(action, message)}`);

export function ResellerApiSettingsCard() {
  const settings = useResellerApiSettings();
  return (
    <section className="card p-4 sm:p-6" aria-labelledby="reseller-api-title">
      <h2 id="reseller-api-title" className="font-semibold text-slate-900">
        Reseller API
      </h2>
      <p className="mt-0.5 text-sm text-slate-600">How many calls one API key may make in a minute, and whether tools may place orders over GET.</p>
      {settings.isError ? (
        <p className="mt-3 text-sm text-rose-700">Could not load these settings. Reload the page to try again.</p>
      ) : settings.data ? (
        <ResellerApiForm current={settings.data} />
      ) : (
        <div className="mt-4">
          <SkeletonRows rows={3} className="h-16" label="Loading the reseller API settings" />
        </div>
      )}
    </section>
  );
}

function ResellerApiForm({ current }: { current: ResellerApiSettings }) {
  const queryClient = useQueryClient();
  const { register, handleSubmit, reset, setError, errors, isSubmitting, isDirty } = useZodForm(resellerApiSettingsSchema, current);
  useEffect(() => reset(current), [current, reset]);
  const refuseId = useId();

  const onValid = async (values: ResellerApiSettings) => {
    try {
      const res = await saveResellerApiSettings(values);
      toast.success(res.message || 'Reseller API settings saved');
      queryClient.setQueryData(settingsKeys.resellerApi, res.data);
    } catch (error) {
      // A refused number is shown under its field; anything else the usual way.
      const message = getErrorMessage(error);
      const action = isApiError(error) && error.status === 400 ? meterOf(message) : undefined;
      if (!action) {
        handleApiError(error);
        return;
      }
      setError(`perMinute.${action}`, { type: 'server', message }, { shouldFocus: true });
      toastMeterError(action, message);
    }
  };
  const onInvalid = (found: FieldErrors<ResellerApiSettings>) => {
    const action = RESELLER_METERED_ACTIONS.find((name) => found.perMinute?.[name]?.message);
    if (action) toastMeterError(action, found.perMinute?.[action]?.message ?? '');
  };

  return (
    <form noValidate className="mt-4 space-y-5" onSubmit={handleSubmit(onValid, onInvalid)}>
      <div className="flex items-start gap-2.5">
        <input
          id={refuseId}
          type="checkbox"
          aria-describedby={`${refuseId}-hint`}
          className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 accent-brand-600"
          {...register('refuseWritesOverGet')}
        />
        <div className="min-w-0">
          <label htmlFor={refuseId} className="text-sm font-medium text-slate-900">
            {REFUSE_LABEL}
          </label>
          <p id={`${refuseId}-hint`} className="mt-0.5 text-sm text-slate-600">
            Off by default: many bots build GET URLs. The key then rides in URLs that servers log; each key&apos;s owner sees on their API page when it was last
            used that way.
          </p>
        </div>
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {RESELLER_METERED_ACTIONS.map((action) => (
          <TextField
            key={action}
            label={METERS[action].label}
            hint={METERS[action].hint}
            inputMode="numeric"
            autoComplete="off"
            {...register(`perMinute.${action}`, { valueAsNumber: true })}
            error={underField(action, errors.perMinute?.[action]?.message)}
          />
        ))}
      </div>
      <SaveBar label="Save reseller API settings" busy={isSubmitting} dirty={isDirty} onDiscard={() => reset(current)} />
    </form>
  );
}
