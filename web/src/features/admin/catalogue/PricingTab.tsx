// The global pricing rules: the default markup, the minimum margin every price keeps over its
// cost, what the margin guard does to a fixed price that falls under it, and how far a new
// exchange rate or provider price may move before it waits for review. Saving reprices every
// service. Below them, the exchange rates and provider prices waiting for review (PriceReview.tsx).

import { catalogueSettingsSchema } from '@schemas/catalogue';
import { z } from '@schemas/zod';
import { MARGIN_GUARD_ACTIONS } from '@vocabulary';
import { useEffect } from 'react';
import { Controller } from 'react-hook-form';
import { TextField } from '@/components/Field';
import { SaveBar } from '@/components/FormActions';
import { QueryState } from '@/components/QueryState';
import { SegmentedControl } from '@/components/SegmentedControl';
import { SkeletonRows } from '@/components/Skeleton';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { handleApiError } from '@/lib/api';
import { confirmAction } from '@/lib/confirm';
import { toastFirstError } from '@/lib/formErrors';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { type PricingSettings, usePricingSettings } from './api/get-pricing-settings';
import { updatePricingSettings } from './api/update-pricing-settings';
import { ExchangeRatesReview, HeldProviderPrices } from './PriceReview';
import { markupProblem } from './pricing';

const percent = (name: string) =>
  z.string().superRefine((value, ctx) => {
    const problem = markupProblem(value, { allowBlank: false, name });
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
/** The server's own rule for the field, so the form and the API never disagree. */
const serverRule = (field: 'rateBandPercent' | 'providerPriceFactor') =>
  z.string().superRefine((value, ctx) => {
    const parsed = catalogueSettingsSchema.safeParse({ [field]: value.trim() });
    if (!parsed.success) ctx.addIssue({ code: 'custom', message: parsed.error.issues[0].message });
  });
const pricingFormSchema = z.object({
  defaultMarkupPercent: percent('Default markup'),
  minMarginPercent: percent('Minimum margin'),
  marginGuardAction: z.enum(MARGIN_GUARD_ACTIONS),
  rateBandPercent: serverRule('rateBandPercent'),
  providerPriceFactor: serverRule('providerPriceFactor'),
});
/** The numeric rules, in the order the form checks them. */
const RULE_FIELDS = [
  { name: 'defaultMarkupPercent', label: 'Default markup (%)', hint: 'For services whose category and own markup are unset.' },
  { name: 'minMarginPercent', label: 'Minimum margin (%)', hint: 'No price may go under the cost plus this.' },
  { name: 'rateBandPercent', label: 'Exchange rate band (±%)', hint: 'A new rate further than this from the current one waits for your review.' },
  {
    name: 'providerPriceFactor',
    label: 'Provider price limit (×)',
    hint: 'A provider price this many times above or below its last one waits for your review.',
  },
] as const;
const RULE_ORDER = RULE_FIELDS.map((f) => f.name);
const MARGIN_GUARD_OPTIONS = [
  { value: 'reprice', label: 'Raise the price' },
  { value: 'disable', label: 'Switch the service off' },
] as const;

export function PricingTab() {
  const pricing = usePricingSettings();
  return (
    <QueryState query={pricing} skeleton={<SkeletonRows rows={3} className="h-20" />}>
      {(current) => <PricingForm current={current} />}
    </QueryState>
  );
}

function PricingForm({ current }: { current: PricingSettings }) {
  const refresh = useRefreshAdmin();
  const { control, field, handleSubmit, reset, isSubmitting, isDirty } = useZodForm(pricingFormSchema, current);
  useEffect(() => reset(current), [current, reset]);

  const onValid = async (values: PricingSettings) => {
    if (
      !(await confirmAction({
        title: 'Save the pricing rules?',
        text: 'Every service is repriced at once: markup prices follow the new rules, and the margin guard checks every fixed price.',
        confirmText: 'Yes, save',
        cancelText: 'No',
      }))
    )
      return;
    try {
      const res = await updatePricingSettings(values);
      toast.success(`${res.message || 'Pricing saved'}: ${res.data.repriced} services repriced`);
      void refresh();
    } catch (error) {
      handleApiError(error);
    }
  };

  return (
    <div className="space-y-5">
      <form noValidate className="card space-y-4 p-4 sm:p-6" onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, RULE_ORDER))}>
        <h2 className="font-semibold text-slate-900">Pricing rules</h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          {RULE_FIELDS.map(({ name, label, hint }) => (
            <TextField key={name} label={label} inputMode="decimal" hint={hint} {...field(name)} />
          ))}
        </div>
        <Controller
          control={control}
          name="marginGuardAction"
          render={({ field }) => (
            <SegmentedControl
              label="When a provider's cost rises above a fixed price's margin"
              options={MARGIN_GUARD_OPTIONS}
              value={field.value}
              onChange={field.onChange}
            />
          )}
        />
        <SaveBar label="Save and reprice" busy={isSubmitting} dirty={isDirty} onDiscard={() => reset(current)} />
      </form>
      <ExchangeRatesReview />
      <HeldProviderPrices />
    </div>
  );
}
