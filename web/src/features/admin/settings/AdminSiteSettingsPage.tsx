// /admin/site-settings: the shop's name, logo, contact details, About Us and Contact Us texts,
// default currency and maintenance notice (the public pages read them through settings/public), and
// whether administrators must use two-factor sign-in.

import { type SiteSettings, siteSettingsSchema } from '@schemas/settings';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link } from 'react-router-dom';
import { SelectField, TextAreaField, TextField } from '@/components/Field';
import { SaveBar } from '@/components/FormActions';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { SkeletonRows } from '@/components/Skeleton';
import { handleApiError } from '@/lib/api';
import { toastFirstError } from '@/lib/formErrors';
import { publicSettingsKey } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { useZodForm } from '@/lib/zodForm';
import { useSiteSettings } from './api/get-site-settings';
import { settingsKeys } from './api/keys';
import { saveSiteSettings } from './api/save-site-settings';
import { ResellerApiSettingsCard } from './ResellerApiSettingsCard';
import { SecuritySettingsCard } from './SecuritySettingsCard';

const FIELD_ORDER: Array<keyof SiteSettings> = [
  'siteName',
  'logoUrl',
  'contactEmail',
  'contactPhone',
  'address',
  'aboutUs',
  'contactUs',
  'defaultCurrency',
  'maintenanceNotice',
];
const CURRENCIES = ['NGN', 'USD', 'GHS', 'KES', 'ZAR', 'GBP', 'EUR'];
/** The texts of the public pages, each a textarea sized to how long it usually is. */
const PAGE_TEXTS: Array<{ name: 'aboutUs' | 'contactUs' | 'maintenanceNotice'; label: string; rows: number; hint: ReactNode }> = [
  {
    name: 'aboutUs',
    label: 'About Us',
    rows: 6,
    hint: (
      <>
        Shown on{' '}
        <Link className="link" to="/about-us">
          About Us
        </Link>
        . A blank line starts a new paragraph.
      </>
    ),
  },
  {
    name: 'contactUs',
    label: 'Contact Us',
    rows: 4,
    hint: (
      <>
        Shown on{' '}
        <Link className="link" to="/contact-us">
          Contact Us
        </Link>{' '}
        above the contact details.
      </>
    ),
  },
  { name: 'maintenanceNotice', label: 'Maintenance notice', rows: 2, hint: 'Shown as a banner on every public page while it is not empty.' },
];

export default function AdminSiteSettingsPage() {
  const settings = useSiteSettings();
  return (
    <div className="space-y-5">
      <PageHeader title="Site Settings" description="What visitors see on the public pages, how administrators sign in, and what reseller tools may do." />
      <SecuritySettingsCard />
      <ResellerApiSettingsCard />
      <QueryState query={settings} skeleton={<SkeletonRows rows={6} className="h-16" />}>
        {(current) => <SiteSettingsForm current={current} />}
      </QueryState>
    </div>
  );
}

function SiteSettingsForm({ current }: { current: SiteSettings }) {
  const queryClient = useQueryClient();
  const { field, handleSubmit, reset, watch, errors, isSubmitting, isDirty } = useZodForm(siteSettingsSchema, current);
  useEffect(() => reset(current), [current, reset]);
  const logoUrl = watch('logoUrl');
  const currency = watch('defaultCurrency');

  const onValid = async (values: SiteSettings) => {
    try {
      const res = await saveSiteSettings(values);
      toast.success(res.message || 'Site settings saved');
      queryClient.setQueryData(settingsKeys.site, res.data);
      void queryClient.invalidateQueries({ queryKey: publicSettingsKey });
    } catch (error) {
      handleApiError(error);
    }
  };

  return (
    <form noValidate className="space-y-5" onSubmit={handleSubmit(onValid, (e) => toastFirstError(e, FIELD_ORDER))}>
      <section className="card grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 sm:p-6" aria-labelledby="brand-title">
        <h2 id="brand-title" className="font-semibold text-slate-900 sm:col-span-2">
          Brand
        </h2>
        <TextField label="Site name" {...field('siteName')} />
        <SelectField label="Default currency" hint="Amounts on every screen are shown in it." {...field('defaultCurrency')}>
          {[...new Set([...CURRENCIES, currency])].map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </SelectField>
        <div className="flex items-end gap-3 sm:col-span-2">
          <TextField
            label="Logo URL"
            type="url"
            placeholder="https://…/logo.svg"
            hint="Empty keeps the standard logo."
            containerClassName="flex-1"
            {...field('logoUrl')}
          />
          {logoUrl && !errors.logoUrl ? (
            <img src={logoUrl} alt="Logo preview" className="mb-6 h-11 w-11 shrink-0 rounded-lg border border-slate-200 object-contain" />
          ) : null}
        </div>
      </section>

      <section className="card grid grid-cols-1 gap-4 p-4 sm:grid-cols-2 sm:p-6" aria-labelledby="contact-title">
        <h2 id="contact-title" className="font-semibold text-slate-900 sm:col-span-2">
          Contact details
        </h2>
        <TextField label="Contact email" type="email" {...field('contactEmail')} />
        <TextField label="Contact phone" type="tel" {...field('contactPhone')} />
        <TextField label="Address" containerClassName="sm:col-span-2" {...field('address')} />
      </section>

      <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="pages-title">
        <h2 id="pages-title" className="font-semibold text-slate-900">
          Pages
        </h2>
        {PAGE_TEXTS.map(({ name, label, rows, hint }) => (
          <TextAreaField key={name} mono={false} rows={rows} label={label} hint={hint} {...field(name)} />
        ))}
      </section>

      <SaveBar label="Save settings" busy={isSubmitting} dirty={isDirty} onDiscard={() => reset(current)} />
    </form>
  );
}
