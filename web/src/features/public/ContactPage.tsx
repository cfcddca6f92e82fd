import { Icon } from '@/components/Icon';
import { Skeleton } from '@/components/Skeleton';
import { usePublicSettings } from '@/lib/settings';
import { InfoShell, SettingsText } from './InfoPage';

export default function ContactPage() {
  const { data, isPending } = usePublicSettings();
  const items = [
    data?.contactEmail ? { icon: 'mail' as const, label: 'Email', value: data.contactEmail, href: `mailto:${data.contactEmail}` } : null,
    data?.contactPhone ? { icon: 'phone' as const, label: 'Phone', value: data.contactPhone, href: `tel:${data.contactPhone.replace(/\s+/g, '')}` } : null,
    data?.address ? { icon: 'pin' as const, label: 'Address', value: data.address, href: null } : null,
  ].filter((x): x is NonNullable<typeof x> => x !== null);

  return (
    <InfoShell title="Contact Us" intro="Questions about an order or a payment? We are happy to help.">
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section className="card p-6 sm:p-8">
          <SettingsText
            text={data?.contactUs}
            loading={isPending}
            fallback={<p className="text-slate-700">Reach out through any of the channels listed and our support team will get back to you shortly.</p>}
          />
        </section>
        <aside className="card p-6" aria-label="Contact details">
          {isPending ? (
            <div className="space-y-4">
              <Skeleton className="h-10 w-full" />
              <Skeleton className="h-10 w-full" />
            </div>
          ) : items.length === 0 ? (
            <p className="text-sm text-slate-600">Contact details will appear here soon.</p>
          ) : (
            <ul className="space-y-4">
              {items.map((i) => (
                <li key={i.label} className="flex gap-3">
                  <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                    <Icon name={i.icon} />
                  </span>
                  <div className="min-w-0">
                    <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{i.label}</p>
                    {i.href ? (
                      <a href={i.href} className="link break-words">
                        {i.value}
                      </a>
                    ) : (
                      <p className="break-words text-slate-800">{i.value}</p>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </aside>
      </div>
    </InfoShell>
  );
}
