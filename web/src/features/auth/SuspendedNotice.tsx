import { ACCOUNT_SUSPENDED } from '@schemas/session';
import { Link } from 'react-router-dom';
import { Notice } from '@/components/Notice';
import { usePublicSettings } from '@/lib/settings';

/**
 * The suspended account's sign-in page: the server's words, and ways to reach support that need no
 * session (the public contact page, and the shop's email when the site settings give one), since the
 * person can no longer open a ticket.
 */
export function SuspendedNotice({ onLeave }: { onLeave?: () => void }) {
  const email = usePublicSettings().data?.contactEmail;
  return (
    <Notice
      tone="rose"
      details={
        <p className="mt-2 flex flex-wrap gap-x-4 gap-y-1 pl-6">
          <Link to="/contact-us" onClick={onLeave} className="font-semibold underline">
            Contact support
          </Link>
          {email ? (
            <a href={`mailto:${email}`} className="font-semibold break-all underline">
              {email}
            </a>
          ) : null}
        </p>
      }
    >
      {ACCOUNT_SUSPENDED}
    </Notice>
  );
}
