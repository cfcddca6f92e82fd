// Edits one service: name, category, description, the price (a markup over the provider's cost,
// or a fixed price), the order range inside the provider's, the refill window, what an order's
// link is, and whether it is on sale. The preview shows the price the markup gives and the
// margin guard's floor before saving.

import { nairaField } from '@schemas/catalogue';
import { z } from '@schemas/zod';
import { LINK_KINDS, PRICE_MODES } from '@vocabulary';
import { Controller } from 'react-hook-form';
import { nairaToKobo } from '@/api/catalogue';
import { SelectField, TextAreaField, TextField } from '@/components/Field';
import { FormActions } from '@/components/FormActions';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { SegmentedControl } from '@/components/SegmentedControl';
import { Switch } from '@/components/Switch';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { handleApiError } from '@/lib/api';
import { formatKobo } from '@/lib/format';
import { toastFirstError } from '@/lib/formErrors';
import { useCurrency } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { useAdminCategories } from './api/get-categories';
import { usePricingSettings } from './api/get-pricing-settings';
import type { AdminService } from './api/get-services';
import { updateService } from './api/update-service';
import { markupProblem, percentToBps, priceWithMarkup } from './pricing';

const whole = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, { error: `${name} must be a whole number` });

const serviceFormSchema = z
  .object({
    name: z.string().trim().min(1, { error: 'Name is required' }).max(300, { error: 'Name must be at most 300 characters' }),
    category: z.string().trim().min(1, { error: 'Category is required' }).max(200),
    description: z.string().trim().max(5000, { error: 'Description must be at most 5000 characters' }),
    priceMode: z.enum(PRICE_MODES),
    markup: z.string(),
    rate: z.string(),
    min: whole('Min'),
    max: whole('Max'),
    refillDays: z
      .string()
      .trim()
      .regex(/^(|[1-9]\d{0,3})$/, { error: 'Refill window must be a whole number of days from 1 to 3650, or blank' })
      .refine((v) => v === '' || Number(v) <= 3650, { error: 'Refill window must be a whole number of days from 1 to 3650, or blank' }),
    maxRefills: z
      .string()
      .trim()
      .regex(/^([1-9]\d?|100)$/, { error: 'Refills per order must be a whole number from 1 to 100' }),
    linkKind: z.enum(['auto', ...LINK_KINDS]),
    enabled: z.boolean(),
  })
  .superRefine((v, ctx) => {
    if (v.priceMode === 'markup') {
      const problem = markupProblem(v.markup, { allowBlank: true });
      if (problem) ctx.addIssue({ code: 'custom', path: ['markup'], message: problem });
    } else {
      const rate = nairaField('Price').safeParse(v.rate.trim());
      if (!rate.success) ctx.addIssue({ code: 'custom', path: ['rate'], message: rate.error.issues[0].message });
    }
    if (/^\d+$/.test(v.min) && /^\d+$/.test(v.max) && Number(v.min) > Number(v.max))
      ctx.addIssue({ code: 'custom', path: ['max'], message: 'Max must not be below min' });
  });
type ServiceForm = z.infer<typeof serviceFormSchema>;
const FIELD_ORDER: Array<keyof ServiceForm> = ['name', 'category', 'description', 'markup', 'rate', 'min', 'max', 'refillDays', 'maxRefills'];
const PRICE_MODE_OPTIONS = [
  { value: 'markup', label: 'Markup over cost' },
  { value: 'fixed', label: 'Fixed price' },
] as const;

const toForm = (s: AdminService): ServiceForm => ({
  name: s.name,
  category: s.category,
  description: s.description,
  priceMode: s.priceMode,
  markup: s.markupPercent ?? '',
  rate: s.rate,
  min: String(s.min),
  max: String(s.max),
  refillDays: s.refillDays === null ? '' : String(s.refillDays),
  maxRefills: String(s.maxRefills),
  linkKind: s.linkKindOverride ?? 'auto',
  enabled: s.enabled,
});

export function ServiceEditDialog({ service, onClose }: { service: AdminService | null; onClose: () => void }) {
  return (
    <Modal
      open={service !== null}
      onClose={onClose}
      size="lg"
      title="Edit service"
      description={service ? `#${service.id} · ${service.providerName} service ${service.providerServiceId}` : undefined}
    >
      {service ? <ServiceForm service={service} onClose={onClose} /> : null}
    </Modal>
  );
}

function ServiceForm({ service, onClose }: { service: AdminService; onClose: () => void }) {
  const currency = useCurrency();
  const refresh = useRefreshAdmin();
  const categories = useAdminCategories();
  const pricing = usePricingSettings();
  const { control, field, handleSubmit, watch, isSubmitting } = useZodForm(serviceFormSchema, toForm(service));
  const [priceMode, markup, rate] = watch(['priceMode', 'markup', 'rate']);

  const costKobo = BigInt(service.costKobo);
  // A blank markup inherits: the category's, else the global one (already effective when the service has none of its own).
  const category = categories.data?.find((c) => c.id === service.categoryId);
  const inheritedPercent = service.markupPercent === null ? service.effectiveMarkupPercent : (category?.markupPercent ?? pricing.data?.defaultMarkupPercent);
  const markupBps = percentToBps(markup.trim() === '' ? (inheritedPercent ?? '') : markup);
  const priceKobo =
    priceMode === 'markup'
      ? markupBps === null
        ? null
        : priceWithMarkup(costKobo, markupBps)
      : /^\d+(\.\d{1,2})?$/.test(rate.trim())
        ? nairaToKobo(rate.trim())
        : null;
  const minMarginBps = pricing.data ? percentToBps(pricing.data.minMarginPercent) : null;
  const floorKobo = minMarginBps === null ? null : priceWithMarkup(costKobo, minMarginBps);
  const belowFloor = priceKobo !== null && floorKobo !== null && priceKobo < floorKobo;

  const onValid = async (values: ServiceForm) => {
    const pricingChange =
      values.priceMode === 'markup' ? { markupPercent: values.markup.trim() === '' ? null : values.markup.trim() } : { rate: values.rate.trim() };
    try {
      const res = await updateService(service.id, {
        name: values.name,
        category: values.category,
        description: values.description,
        min: Number(values.min),
        max: Number(values.max),
        refillDays: values.refillDays === '' ? null : Number(values.refillDays),
        maxRefills: Number(values.maxRefills),
        linkKind: values.linkKind === 'auto' ? null : values.linkKind,
        enabled: values.enabled,
        ...pricingChange,
      });
      toast.success(res.message || 'Service updated');
      void refresh();
      onClose();
    } catch (error) {
      handleApiError(error);
    }
  };

  return (
    <form noValidate className="space-y-4" onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, FIELD_ORDER))}>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField label="Name" containerClassName="sm:col-span-2" {...field('name')} />
        <TextField label="Category" list="service-categories" hint="A new name makes a new category." {...field('category')} />
        <datalist id="service-categories">
          {(categories.data ?? []).map((c) => (
            <option key={c.id} value={c.name} />
          ))}
        </datalist>
        <div className="flex items-end gap-3 pb-1">
          <Controller control={control} name="enabled" render={({ field }) => <Switch checked={field.value} onChange={field.onChange} label="On sale" />} />
          <span className="text-sm text-slate-700">On sale</span>
        </div>
        <TextAreaField mono={false} rows={3} label="Description" containerClassName="sm:col-span-2" {...field('description')} />
      </div>

      <fieldset className="space-y-3 rounded-xl border border-slate-200 p-4">
        <legend className="px-1 text-sm font-semibold text-slate-900">Price per 1000</legend>
        <Controller
          control={control}
          name="priceMode"
          render={({ field }) => <SegmentedControl label="Pricing" hideLabel options={PRICE_MODE_OPTIONS} value={field.value} onChange={field.onChange} />}
        />
        {priceMode === 'markup' ? (
          <TextField
            label="Markup (%)"
            inputMode="decimal"
            placeholder={service.effectiveMarkupPercent}
            hint="Leave blank to use the category's or the global markup; the price follows the provider's cost."
            {...field('markup')}
          />
        ) : (
          <TextField
            label="Fixed price"
            prefix="NGN"
            inputMode="decimal"
            hint="Stays put when the cost moves, unless the margin guard has to raise it."
            {...field('rate')}
          />
        )}
        <dl className="grid grid-cols-3 gap-2 text-sm">
          <div>
            <dt className="text-slate-500">Provider cost</dt>
            <dd className="font-medium tabular-nums">{formatKobo(costKobo, currency)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">New price</dt>
            <dd className="font-medium tabular-nums">{priceKobo === null ? '—' : formatKobo(priceKobo, currency)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Margin floor</dt>
            <dd className="font-medium tabular-nums">{floorKobo === null ? '—' : formatKobo(floorKobo, currency)}</dd>
          </div>
        </dl>
        {belowFloor ? (
          <p role="alert" className="flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-800">
            <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" /> Below the cost plus the minimum margin ({pricing.data?.minMarginPercent}%): the server
            will refuse this price.
          </p>
        ) : null}
      </fieldset>

      <div className="grid grid-cols-2 gap-4">
        <TextField label="Min" inputMode="numeric" hint={`Provider minimum ${service.providerMin}`} {...field('min')} />
        <TextField label="Max" inputMode="numeric" hint={`Provider maximum ${service.providerMax}`} {...field('max')} />
        <TextField
          label="Refill window (days)"
          inputMode="numeric"
          placeholder="No limit"
          hint={`Refills can be asked for this many days after an order completes. Blank: no limit, unless the provider's name states one ("Refill 30D"), which the catalogue sync fills in.`}
          {...field('refillDays')}
        />
        <TextField
          label="Refills per order"
          inputMode="numeric"
          hint="How many refills one order may have, one at a time; those the provider refuses do not count."
          {...field('maxRefills')}
        />
        <SelectField label="Order link" hint="What buyers and reseller tools give as the link." {...field('linkKind')}>
          <option value="auto">
            {service.linkKindOverride === null ? `Automatic (now: ${service.linkKind === 'username' ? 'a username or profile link' : 'a link'})` : 'Automatic'}
          </option>
          <option value="url">A link to a post or page</option>
          <option value="username">A username or profile link</option>
        </SelectField>
      </div>

      <FormActions onCancel={onClose} busy={isSubmitting} label="Save service" busyLabel="Saving..." />
    </form>
  );
}
