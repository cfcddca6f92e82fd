import type { ReactNode } from 'react';
import { PlatformBadge } from './PlatformBadge';

/** A service at the top of its card: the platform badge, then its number and category above its name; `children` go at the right end (a star). */
export function ServiceHeading({
  service,
  badgeClassName = 'h-9 w-9 text-[10px]',
  children,
}: {
  service: { id: number; platform: string | null; category: string; name: string };
  badgeClassName?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <PlatformBadge platform={service.platform} className={badgeClassName} />
      <div className="min-w-0 flex-1">
        <p className="text-xs text-slate-500">
          #{service.id} · {service.category}
        </p>
        <h2 className="font-semibold break-words text-slate-900">{service.name}</h2>
      </div>
      {children}
    </div>
  );
}
