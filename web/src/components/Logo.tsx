import { useState } from 'react';
import { Link } from 'react-router-dom';
import { cx } from '@/lib/shellHooks';

const BUILT_IN_LOGO = '/favicon.svg';

/** The brand mark (the site settings' logo when set) and name; a link to / unless `to` is null. */
export function Logo({
  name = 'SMM Provider',
  src,
  to = '/',
  className,
  compact = false,
}: {
  name?: string;
  src?: string | null;
  to?: string | null;
  className?: string;
  compact?: boolean;
}) {
  const custom = typeof src === 'string' && src.trim() ? src.trim() : null;
  // A logo URL that fails to load falls back to the built-in mark instead of a broken image.
  const [failed, setFailed] = useState<string | null>(null);
  const image = custom && failed !== custom ? custom : BUILT_IN_LOGO;
  const content = (
    <>
      <img
        src={image}
        alt=""
        width={32}
        height={32}
        className="h-8 w-8 shrink-0 object-contain"
        onError={image === custom ? () => setFailed(custom) : undefined}
      />
      {/* A long site name is cut with an ellipsis (whole in the title) rather than pushing the header's buttons off. */}
      <span title={name} className={cx('min-w-0 truncate text-lg font-bold tracking-tight text-brand-950', compact && 'max-sm:sr-only')}>
        {name}
      </span>
    </>
  );
  if (to === null) return <span className={cx('inline-flex min-w-0 items-center gap-2', className)}>{content}</span>;
  // The padding makes a 44 px touch target around the 32 px mark; the negative margin keeps the header's layout as it was.
  return (
    <Link to={to} className={cx('-m-1.5 inline-flex min-w-0 items-center gap-2 rounded-lg p-1.5', className)} aria-label={`${name} home`}>
      {content}
    </Link>
  );
}
