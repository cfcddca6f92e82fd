// /admin/site-settings: the shop's name, logo, contact details, About Us and Contact Us texts,
// default currency and maintenance notice. The public pages read them through settings/public.

import { zodResolver } from '@hookform/resolvers/zod';
import { type SiteSettings, siteSettingsSchema } from '@schemas/settings';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router-dom';
import { ErrorState } from '@/components/EmptyState';
import { SelectField, TextAreaField, TextField } from '@/components/Field';
import { PageHeader } from '@/components/PageHeader';
import { SkeletonRows } from '@/components/Skeleton';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { toastFirstError } from '@/lib/formErrors';
import { publicSettingsKey } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { useSiteSettings } from './api/get-site-settings';
import { settingsKeys } from './api/keys';
import { saveSiteSettings } from './api/save-site-settings';

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

export default function AdminSiteSettingsPage() {
  const settings = useSiteSettings();
  return (
    <div className="space-y-5">
      <PageHeader title="Site Settings" description="What visitors see on the public pages." />
      {settings.isError ? (
        <ErrorState message={getErrorMessage(settings.error)} onRetry={() => void settings.refetch()} />
      ) : settings.isPending ? (
        <SkeletonRows rows={6} className="h-16" />
      ) : (
        <SiteSettingsForm current={settings.data} />
      )}
    </div>
  );
}

function SiteSettingsForm({ current }: { current: SiteSettings }) {
  const queryClient = useQueryClient();
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<SiteSettings>({ resolver: zodResolver(siteSettingsSchema), defaultValues: current });
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
        <TextField label="Site name" error={errors.siteName?.message} {...register('siteName')} />
        <SelectField
          label="Default currency"
          hint="Amounts on every screen are shown in it."
          error={errors.defaultCurrency?.message}
          {...register('defaultCurrency')}
        >
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
            error={errors.logoUrl?.message}
            {...register('logoUrl')}
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
        <TextField label="Contact email" type="email" error={errors.contactEmail?.message} {...register('contactEmail')} />
        <TextField label="Contact phone" type="tel" error={errors.contactPhone?.message} {...register('contactPhone')} />
        <TextField label="Address" containerClassName="sm:col-span-2" error={errors.address?.message} {...register('address')} />
      </section>

      <section className="card space-y-4 p-4 sm:p-6" aria-labelledby="pages-title">
        <h2 id="pages-title" className="font-semibold text-slate-900">
          Pages
        </h2>
        <TextAreaField
          mono={false}
          rows={6}
          label="About Us"
          hint={
            <>
              Shown on{' '}
              <Link className="link" to="/about-us">
                About Us
              </Link>
              . A blank line starts a new paragraph.
            </>
          }
          error={errors.aboutUs?.message}
          {...register('aboutUs')}
        />
        <TextAreaField
          mono={false}
          rows={4}
          label="Contact Us"
          hint={
            <>
              Shown on{' '}
              <Link className="link" to="/contact-us">
                Contact Us
              </Link>{' '}
              above the contact details.
            </>
          }
          error={errors.contactUs?.message}
          {...register('contactUs')}
        />
        <TextAreaField
          mono={false}
          rows={2}
          label="Maintenance notice"
          hint="Shown as a banner on every public page while it is not empty."
          error={errors.maintenanceNotice?.message}
          {...register('maintenanceNotice')}
        />
      </section>

      <div className="flex justify-end gap-2">
        <button type="button" className="btn btn-secondary" disabled={!isDirty || isSubmitting} onClick={() => reset(current)}>
          Discard changes
        </button>
        <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
          {isSubmitting ? 'Saving...' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}
