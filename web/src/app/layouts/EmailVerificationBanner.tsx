// Signed-in pages ask for the address to be confirmed until it is: an unconfirmed account cannot make
// API keys, earn referral commission or become an administrator. Shown only once the session check has
// answered, so a pre-rendered page and its first render in the browser agree (neither knows yet).
import { ShellIcon } from '@/components/ShellIcon';
import { ResendLinkButton } from '@/features/auth/ResendLinkButton';
import { useAuth } from '@/lib/authContext';

export function EmailVerificationBanner() {
  const { user, loading } = useAuth();
  if (loading || !user || user.emailVerified !== false) return null;
  return (
    <section aria-label="Confirm your email address" className="border-b border-sky-200 bg-sky-50 text-sky-950">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-2.5 text-sm sm:flex-row sm:items-center">
        <p className="flex min-w-0 flex-1 items-start gap-2">
          <ShellIcon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
          <span className="min-w-0 break-words">
            Confirm your email address: we sent a link to <strong className="font-semibold">{user.email}</strong>.
          </span>
        </p>
        <ResendLinkButton compact className="pl-6 sm:pl-0" />
      </div>
    </section>
  );
}
