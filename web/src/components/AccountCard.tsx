import type { ReactNode } from 'react';
import { cx } from '@/lib/hooks';
import { Icon, type IconName } from './Icon';

const TONES = { emerald: 'bg-emerald-50 text-emerald-600', rose: 'bg-rose-50 text-rose-600' } as const;

interface AccountCardProps {
  /** The h1's id, which names the card. */
  titleId: string;
  title: ReactNode;
  intro: ReactNode;
  /** An outcome instead of a form (a link sent, a link broken): centred text under this icon. */
  icon?: { name: IconName; tone: keyof typeof TONES };
  children: ReactNode;
}

/** The account pages' card (forgot and reset password, confirm email), centred under the public header like the sign-in card. */
export function AccountCard({ titleId, title, intro, icon, children }: AccountCardProps) {
  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-gradient-to-b from-brand-50/70 to-slate-50 px-4 py-8 sm:items-center sm:py-12">
      <section className="card w-full max-w-md p-6 sm:p-8" aria-labelledby={titleId}>
        <div className={icon ? 'text-center' : undefined}>
          {icon ? (
            <span className={cx('mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full', TONES[icon.tone])}>
              <Icon name={icon.name} className="h-6 w-6" />
            </span>
          ) : null}
          <h1 id={titleId} className={cx('text-2xl font-bold text-slate-900', !icon && 'tracking-tight')}>
            {title}
          </h1>
          <p className={cx('text-sm text-slate-600', icon ? 'mt-2' : 'mt-1 mb-6')}>{intro}</p>
          {children}
        </div>
      </section>
    </div>
  );
}
