import { SITE_NAME_FALLBACK, usePublicSettings } from '@/lib/settings';
import { InfoShell, SettingsText } from './InfoPage';

export default function AboutPage() {
  const { data, isPending } = usePublicSettings();
  const siteName = data?.siteName || SITE_NAME_FALLBACK;
  return (
    <InfoShell title="About Us" intro={`Who we are and why thousands of creators and brands grow with ${siteName}.`}>
      <section className="card p-6 [overflow-wrap:anywhere] sm:p-8">
        <SettingsText
          text={data?.aboutUs}
          loading={isPending}
          fallback={
            <p className="text-slate-700">
              {siteName} is a social media marketing panel that helps creators, businesses and agencies grow on every major platform with fast, affordable
              services paid from a prepaid naira wallet.
            </p>
          }
        />
      </section>
    </InfoShell>
  );
}
