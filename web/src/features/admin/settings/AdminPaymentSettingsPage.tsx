// /admin/payment-settings: which provider takes card deposits (Paystack or Flutterwave), test or
// live mode, the deposit limits, and the provider keys. Keys are write-only: the server stores
// them encrypted and only says where each one comes from (here or the deployment's secrets) and
// whether the provider accepts it; a blank field keeps the stored key. A key is checked with the
// provider before it is saved, and live mode refuses test keys: the reason stays on screen.

import { PAYMENT_PROVIDER_LABELS, PAYMENT_PROVIDERS, paymentSettingsSchema } from '@schemas/settings';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Controller } from 'react-hook-form';
import type { z } from 'zod';
import { PasswordField, TextField } from '@/components/Field';
import { SaveBar } from '@/components/FormActions';
import { Icon } from '@/components/Icon';
import { Notice } from '@/components/Notice';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { SegmentedControl } from '@/components/SegmentedControl';
import { SkeletonRows } from '@/components/Skeleton';
import { Switch } from '@/components/Switch';
import { handleApiError } from '@/lib/api';
import { confirmAction } from '@/lib/confirm';
import { toastFirstError } from '@/lib/formErrors';
import { publicSettingsKey } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { checkPaymentKey } from './api/check-payment-key';
import { type PaymentSettingsView, usePaymentSettings } from './api/get-payment-settings';
import { settingsKeys } from './api/keys';
import { savePaymentSettings } from './api/save-payment-settings';
import { KeyBadge, type KeyName, KeyStatus } from './PaymentKeyStatus';
import { PaymentNotices } from './PaymentNotices';

type FormInput = z.input<typeof paymentSettingsSchema>;
type FormOutput = z.output<typeof paymentSettingsSchema>;
/** What a save, a clear and a check answer: the settings as they now stand. */
type SavedSettings = Awaited<ReturnType<typeof savePaymentSettings>>;

const PROVIDERS = PAYMENT_PROVIDERS.map((value) => ({ value, label: PAYMENT_PROVIDER_LABELS[value] }));
const MODES = [
  { value: 'test', label: 'Test' },
  { value: 'live', label: 'Live' },
] as const;

const KEYS_OF: Record<PaymentSettingsView['provider'], Array<{ name: KeyName; label: string; hint: string }>> = {
  paystack: [{ name: 'paystackSecretKey', label: 'Paystack secret key', hint: 'sk_test_… or sk_live_…, from Settings → API Keys in the Paystack dashboard.' }],
  flutterwave: [
    { name: 'flutterwaveSecretKey', label: 'Flutterwave secret key', hint: 'FLWSECK_…, from Settings → API in the Flutterwave dashboard.' },
    { name: 'flutterwaveWebhookHash', label: 'Flutterwave webhook secret hash', hint: 'The secret hash set under Settings → Webhooks.' },
  ],
};

const formValues = (view: PaymentSettingsView): FormInput => ({
  provider: view.provider,
  mode: view.mode,
  minDeposit: String(view.minDeposit),
  maxDeposit: String(view.maxDeposit),
  bankTransfer: view.bankTransfer,
  paystackSecretKey: '',
  flutterwaveSecretKey: '',
  flutterwaveWebhookHash: '',
});

export default function AdminPaymentSettingsPage() {
  const settings = usePaymentSettings();
  return (
    <div className="space-y-5">
      <PageHeader title="Payment Settings" description="How users fund their wallets by card." />
      <QueryState query={settings} skeleton={<SkeletonRows rows={4} className="h-20" />}>
        {(current) => (
          <>
            <PaymentNotices view={current} />
            <PaymentSettingsForm current={current} />
          </>
        )}
      </QueryState>
    </div>
  );
}

function PaymentSettingsForm({ current }: { current: PaymentSettingsView }) {
  const queryClient = useQueryClient();
  const { control, field, handleSubmit, reset, watch, setError, errors, isSubmitting } = useZodForm(paymentSettingsSchema, formValues(current));
  useEffect(() => reset(formValues(current)), [current, reset]);
  const provider = watch('provider');
  const mode = watch('mode');
  const [keyAction, setKeyAction] = useState(false);

  const showSaved = (res: SavedSettings, fallback: string) => {
    toast.success(res.message || fallback);
    queryClient.setQueryData(settingsKeys.payment, res.data);
    void queryClient.invalidateQueries({ queryKey: publicSettingsKey });
  };

  /** Check now and Clear act on what is saved, whatever the form holds unsaved. */
  const runKeyAction = async (action: () => Promise<SavedSettings>, fallback: string) => {
    setKeyAction(true);
    try {
      showSaved(await action(), fallback);
    } catch (error) {
      setError('root.server', { message: handleApiError(error) });
      // A refused check is counted: show it.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.payment });
    } finally {
      setKeyAction(false);
    }
  };

  const onCheck = (which: PaymentSettingsView['provider']) => runKeyAction(() => checkPaymentKey(which), 'Key accepted');

  const onClear = async (name: KeyName, label: string) => {
    const confirmed = await confirmAction({
      title: `Clear the saved ${label}?`,
      text: current.deploymentKeys[name]
        ? "The deployment's key is used instead, once its provider accepts it."
        : 'No key is left for it: card payments that need it stop until one is entered.',
      confirmText: 'Yes, clear',
      cancelText: 'No',
      danger: true,
    });
    if (!confirmed) return;
    const { provider: saved, mode: savedMode, minDeposit, maxDeposit } = current;
    await runKeyAction(
      () => savePaymentSettings({ provider: saved, mode: savedMode, minDeposit, maxDeposit, bankTransfer: current.bankTransfer, clearKeys: [name] }),
      'Key cleared',
    );
  };

  const onValid = async (values: FormOutput) => {
    const switching = values.provider !== current.provider || values.mode !== current.mode;
    if (switching) {
      const confirmed = await confirmAction({
        title: `Take deposits through ${PAYMENT_PROVIDER_LABELS[values.provider]} in ${values.mode} mode?`,
        text:
          values.mode === 'live'
            ? 'Live mode charges real cards. New deposits use these settings at once.'
            : 'Test mode takes no real money. New deposits use these settings at once.',
        confirmText: 'Yes, save',
        cancelText: 'No',
        danger: values.mode === 'live',
      });
      if (!confirmed) return;
    }
    try {
      showSaved(await savePaymentSettings(values), 'Payment settings saved');
    } catch (error) {
      // Kept on screen (a toast is gone in 1.5 s): a refused key says what to do.
      setError('root.server', { message: handleApiError(error) });
    }
  };

  return (
    <form noValidate className="space-y-5" onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, ['provider', 'mode', 'minDeposit', 'maxDeposit']))}>
      <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="provider-title">
        <h2 id="provider-title" className="font-semibold text-slate-900">
          Provider
        </h2>
        <div className="flex flex-wrap gap-6">
          <Controller
            control={control}
            name="provider"
            render={({ field }) => <SegmentedControl label="Payment provider" options={PROVIDERS} value={field.value} onChange={field.onChange} />}
          />
          <Controller
            control={control}
            name="mode"
            render={({ field }) => <SegmentedControl label="Mode" options={MODES} value={field.value} onChange={field.onChange} />}
          />
        </div>
        {mode === 'live' ? (
          <p role="note" className="flex items-start gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900">
            <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" /> Live mode charges real cards. Use the provider&apos;s live keys.
          </p>
        ) : null}
      </section>

      <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="keys-title">
        <div>
          <h2 id="keys-title" className="font-semibold text-slate-900">
            {PAYMENT_PROVIDER_LABELS[provider]} keys
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Keys are checked with the provider before they are saved, stored encrypted and never shown again. Leave a field blank to keep the configured key.
          </p>
        </div>
        {KEYS_OF[provider].map((key) => (
          <div key={key.name}>
            <PasswordField
              label={
                <span className="flex items-center gap-2">
                  {key.label}
                  <KeyBadge name={key.name} view={current} />
                </span>
              }
              autoComplete="new-password"
              placeholder={
                current.configuredKeys[key.name]
                  ? 'Configured (enter a new key to replace it)'
                  : current.deploymentKeys[key.name]
                    ? "The deployment's key is used (enter one to use another)"
                    : 'Paste the key'
              }
              hint={key.hint}
              {...field(key.name)}
            />
            <KeyStatus name={key.name} label={key.label} view={current} busy={keyAction || isSubmitting} onCheck={onCheck} onClear={onClear} />
          </div>
        ))}
      </section>

      <section className="card grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 sm:p-6" aria-labelledby="limits-title">
        <h2 id="limits-title" className="font-semibold text-slate-900 sm:col-span-2">
          Deposit limits
        </h2>
        <TextField label="Minimum deposit" prefix="NGN" inputMode="numeric" hint="Whole naira." {...field('minDeposit')} />
        <TextField label="Maximum deposit" prefix="NGN" inputMode="numeric" hint="Whole naira." {...field('maxDeposit')} />
      </section>

      <section className="card space-y-2 p-4 sm:p-6" aria-labelledby="bank-transfer-title">
        <div className="flex items-center justify-between gap-4">
          <h2 id="bank-transfer-title" className="font-semibold text-slate-900">
            Bank transfer to a personal account number
          </h2>
          <Controller
            control={control}
            name="bankTransfer"
            render={({ field }) => <Switch checked={Boolean(field.value)} onChange={field.onChange} label="Offer bank transfer funding" />}
          />
        </div>
        <p className="text-sm text-slate-600">
          Each customer can get their own account number (Paystack Dedicated Virtual Accounts) and fund the wallet by transfer from any bank app; transfers are
          credited automatically. Offered only while Paystack takes the payments. Turning it off hides it from customers; money sent to an account already given
          out is still credited.
        </p>
      </section>

      {errors.root?.server?.message ? <Notice tone="rose">{errors.root.server.message}</Notice> : null}
      <SaveBar label="Save settings" busy={isSubmitting} />
    </form>
  );
}
