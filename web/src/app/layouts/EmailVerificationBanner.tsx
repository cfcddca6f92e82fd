// Signed-in pages ask for the address to be confirmed until it is: an unconfirmed account cannot make
// API keys, earn referral commission or become an administrator. Only the session check's answer says so,
// and it comes after a pre-rendered page has painted (neither the server nor the first render in the
// browser knows yet), so the banner does not stand above the page and push it down: it shows in the root
// layout's bottom dock, above the test-payments banner, over the foot of the screen. The dock is sticky, so
// at the end of the page it sits below the page rather than on it.
import { createPortal } from 'react-dom';
import { ShellIcon } from '@/components/ShellIcon';
import { ResendLinkButton } from '@/features/auth/ResendLinkButton';
import { useAuth } from '@/lib/authContext';
import { cx } from '@/lib/shellHooks';
import { DOCK_NOTICES_ID } from './dock';

export function EmailVerificationBanner() {
  const { user, loading } = useAuth();
  if (loading || !user || user.emailVerified !== false) return null;
  const dock = document.getElementById(DOCK_NOTICES_ID);
  const banner = (
    <section
      aria-label="Confirm your email address"
      className={cx(
        'pointer-events-auto border-t border-sky-200 bg-sky-50 text-sky-950 shadow-[0_-2px_8px_rgb(15_23_42/0.08)]',
        // The lowest thing on the screen when the test-payments banner is not shown: clear of a phone's home indicator.
        dock ? '[:last-child>&]:pb-[env(safe-area-inset-bottom)]' : 'sticky bottom-0 z-20 pb-[env(safe-area-inset-bottom)]',
      )}
    >
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-2.5 text-sm sm:flex-row sm:items-center">
        <p className="flex min-w-0 flex-1 items-start gap-2">
          <ShellIcon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
          <span className="min-w-0 break-words">
            Confirm your email address: we sent a link to <strong className="font-semibold">{user.email}</strong>.
          </span>
        </p>
        {/* A 44 px target on a phone, touch screen or not. */}
        <ResendLinkButton compact className="pl-6 max-sm:[&_button]:min-h-11 sm:pl-0" />
      </div>
    </section>
  );
  // Without the dock (a shell rendered on its own), a sticky bar of its own at the foot of the layout.
  return dock ? createPortal(banner, dock) : banner;
}
