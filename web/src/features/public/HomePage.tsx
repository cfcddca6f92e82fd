import { Link } from 'react-router-dom';
import { Icon, type IconName } from '@/components/Icon';
import { PlatformBadge } from '@/components/PlatformBadge';
import { useAuth } from '@/lib/authContext';
import { SITE_NAME_FALLBACK, usePublicSettings } from '@/lib/settings';

const STEPS: ReadonlyArray<{ icon: IconName; title: string; text: string }> = [
  { icon: 'user', title: 'Create an account', text: 'Sign up free with your email. No subscription, no hidden fees.' },
  { icon: 'wallet', title: 'Fund your wallet', text: 'Top up in naira by card. Your balance is ready the moment payment clears.' },
  { icon: 'cart', title: 'Place an order', text: 'Pick a service, paste your link, choose a quantity and see the exact price.' },
  { icon: 'chart', title: 'Watch it grow', text: 'Delivery starts automatically. Track progress, refills and refunds live.' },
];

const PLATFORMS = ['Instagram', 'TikTok', 'YouTube', 'Facebook', 'Twitter', 'Telegram', 'Spotify', 'LinkedIn'];

const FEATURES: ReadonlyArray<{ icon: IconName; title: string; text: string }> = [
  { icon: 'shieldCheck', title: 'Safe & private', text: 'We never ask for your social media passwords.' },
  { icon: 'receipt', title: 'Exact price upfront', text: 'See the charge before you order. No hidden fees.' },
  { icon: 'chart', title: 'Live tracking', text: 'Follow start counts, progress and refunds in real time.' },
  { icon: 'stack', title: 'Bulk orders', text: 'Resellers can place up to 100 orders in one go.' },
];

export default function HomePage() {
  const { user } = useAuth();
  const { data: settings } = usePublicSettings();
  const siteName = settings?.siteName || SITE_NAME_FALLBACK;
  const primaryCta = user ? { to: '/user', label: 'Go to Dashboard' } : { to: '/auth/register', label: 'Get started free' };

  return (
    <>
      {/* Hero */}
      <section className="relative overflow-hidden bg-gradient-to-br from-brand-950 via-brand-800 to-brand-600 text-white">
        <div className="absolute -top-24 -right-24 h-72 w-72 rounded-full bg-emerald-400/20 blur-3xl" aria-hidden="true" />
        <div className="relative mx-auto grid grid-cols-1 max-w-6xl gap-10 px-4 py-14 sm:py-20 lg:grid-cols-2 lg:items-center">
          <div>
            <p className="mb-4 inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-xs font-medium ring-1 ring-white/20">
              <span className="h-2 w-2 rounded-full bg-emerald-400" aria-hidden="true" /> Nigeria&apos;s social growth panel
            </p>
            <h1 className="text-4xl leading-tight font-extrabold tracking-tight sm:text-5xl">Grow your social media the smart way</h1>
            <p className="mt-4 max-w-xl text-lg text-brand-100">
              Followers, likes, views and more for every major platform — priced in naira, paid from one prepaid wallet, delivered fast by {siteName}.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link to={primaryCta.to} className="btn bg-white text-brand-800 hover:bg-brand-50 focus-visible:outline-white">
                {primaryCta.label} <Icon name="arrowRight" className="h-4 w-4" />
              </Link>
              <Link to="/services" className="btn border border-white/30 text-white hover:bg-white/10 focus-visible:outline-white">
                Browse services
              </Link>
            </div>
          </div>
          <div className="grid grid-cols-2 gap-3 sm:gap-4">
            {[
              { icon: 'bolt' as const, k: 'Instant start', v: 'Orders go to work as soon as you place them' },
              { icon: 'wallet' as const, k: 'Naira wallet', v: 'Fund by card, pay per order, no subscription' },
              { icon: 'refresh' as const, k: 'Refills & refunds', v: 'Drops refilled; unused amounts returned' },
              { icon: 'clock' as const, k: '24/7 automated', v: 'Place and track orders any time, from your phone' },
            ].map((s) => (
              <div key={s.k} className="rounded-2xl bg-white/10 p-4 ring-1 ring-white/15 backdrop-blur sm:p-5">
                <Icon name={s.icon} className="h-6 w-6 text-emerald-300" />
                <p className="mt-3 font-bold sm:text-lg">{s.k}</p>
                <p className="mt-1 text-sm text-brand-100">{s.v}</p>
              </div>
            ))}
          </div>
        </div>
      </section>

      {/* How it works */}
      <section className="mx-auto max-w-6xl px-4 py-14 sm:py-20" aria-labelledby="how-title">
        <h2 id="how-title" className="text-center text-3xl font-bold tracking-tight text-slate-900">
          How it works
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">Four simple steps from sign-up to results.</p>
        <ol className="mt-10 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((s, i) => (
            <li key={s.title} className="card p-6">
              <div className="flex items-center gap-3">
                <span className="flex h-11 w-11 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
                  <Icon name={s.icon} className="h-6 w-6" />
                </span>
                <span className="text-sm font-semibold text-brand-700">Step {i + 1}</span>
              </div>
              <h3 className="mt-4 font-semibold text-slate-900">{s.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{s.text}</p>
            </li>
          ))}
        </ol>
      </section>

      {/* Platforms */}
      <section className="border-y border-slate-200 bg-white" aria-labelledby="platforms-title">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:py-20">
          <h2 id="platforms-title" className="text-center text-3xl font-bold tracking-tight text-slate-900">
            Every platform your audience uses
          </h2>
          <ul className="mt-10 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {PLATFORMS.map((p) => (
              <li key={p}>
                <Link
                  to="/services"
                  className="flex items-center gap-3 rounded-2xl border border-slate-200 p-4 transition hover:border-brand-300 hover:shadow-sm"
                >
                  <PlatformBadge platform={p} className="h-10 w-10 text-sm" />
                  <span className="font-medium text-slate-800">{p}</span>
                </Link>
              </li>
            ))}
          </ul>
          <ul className="mt-12 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {FEATURES.map((f) => (
              <li key={f.title} className="flex gap-3">
                <Icon name={f.icon} className="mt-0.5 h-6 w-6 shrink-0 text-emerald-600" />
                <div>
                  <h3 className="font-semibold text-slate-900">{f.title}</h3>
                  <p className="text-sm text-slate-600">{f.text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      {/* CTA */}
      <section className="mx-auto max-w-6xl px-4 py-14 sm:py-20">
        <div className="flex flex-col items-start gap-6 rounded-3xl bg-brand-700 p-8 text-white sm:p-12 lg:flex-row lg:items-center lg:justify-between">
          <div>
            <h2 className="text-2xl font-bold sm:text-3xl">Ready to grow?</h2>
            <p className="mt-2 text-brand-100">Create your free account, fund your wallet and place your first order in under two minutes.</p>
          </div>
          <Link to={primaryCta.to} className="btn shrink-0 bg-white text-brand-800 hover:bg-brand-50 focus-visible:outline-white">
            {primaryCta.label}
          </Link>
        </div>
      </section>
    </>
  );
}
