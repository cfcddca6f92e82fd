// /verify-email?token=…: the link the confirmation email carries. Opening it confirms the address (the
// token is spent then, which is why the build never pre-renders this page), then offers the way on: the
// account's own area for someone signed in, Sign in for anyone else. A spent or expired link says why and
// how to get a new one.
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { AccountCard } from '@/components/AccountCard';
import { Spinner } from '@/components/Spinner';
import { getErrorMessage } from '@/lib/api';
import { homeFor, useAuth } from '@/lib/authContext';
import { verifyEmail } from './api/verify-email';
import { ResendLinkButton } from './ResendLinkButton';

const TITLE_ID = 'verify-email-title';
const MISSING_TOKEN = 'This confirmation link is missing its token or has been cut short. Open the link from the email again, or ask for a new one.';

export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const { user, userType, loading, reloadProfile } = useAuth();
  const { mutate, isSuccess, isError, error } = useMutation({ mutationFn: verifyEmail });

  // Once: a second post of the spent token would only answer that it is spent.
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  // Signed in, the session's record still says unconfirmed (it was read before the link was used): read it
  // again once the session check is over, so the banner asking for confirmation goes.
  const stale = isSuccess && !loading && user?.emailVerified === false;
  useEffect(() => {
    if (stale) void reloadProfile();
  }, [stale, reloadProfile]);

  const signedIn = Boolean(user) && !loading;
  const onward = signedIn ? (
    <Link to={homeFor(userType)} className="btn btn-primary mt-6 w-full">
      Continue to your dashboard
    </Link>
  ) : (
    <Link to="/auth/login" className="btn btn-primary mt-6 w-full">
      Sign in
    </Link>
  );

  if (isSuccess || (isError && signedIn && user?.emailVerified === true)) {
    return (
      <AccountCard
        titleId={TITLE_ID}
        icon={{ name: 'checkCircle', tone: 'emerald' }}
        title="Email address confirmed"
        intro={isSuccess ? 'Thank you: your account is confirmed and ready for everything, API keys included.' : 'Your email address was already confirmed.'}
      >
        {onward}
      </AccountCard>
    );
  }
  if (!token || isError) {
    return (
      <AccountCard
        titleId={TITLE_ID}
        icon={{ name: 'alert', tone: 'rose' }}
        title="This link cannot be used"
        intro={token ? getErrorMessage(error) : MISSING_TOKEN}
      >
        {signedIn ? (
          <ResendLinkButton className="mt-6" />
        ) : (
          <>
            <p className="mt-4 text-sm text-slate-600">Sign in and choose “Send a new link” at the top of the page: we email a fresh link to your address.</p>
            {onward}
          </>
        )}
      </AccountCard>
    );
  }
  return (
    <AccountCard titleId={TITLE_ID} title="Confirming your email address" intro="One moment, please.">
      <div className="flex justify-center py-4 text-brand-600">
        <Spinner className="h-8 w-8" label="Confirming your email address" />
      </div>
    </AccountCard>
  );
}
