import { useNavigate } from 'react-router-dom';
import { Notice } from '@/components/Notice';
import { PageHeader } from '@/components/PageHeader';
import { useAuth } from '@/lib/authContext';
import { TwoFactorCard } from './TwoFactorCard';

/**
 * /admin/two-factor: where an administrator the site requires to use two-factor is held until it is on
 * (the admin shell sends every other admin page here meanwhile); once the recovery codes are saved, on to the dashboard.
 */
export default function TwoFactorSetupPage() {
  const navigate = useNavigate();
  const { user } = useAuth();
  return (
    <div className="mx-auto max-w-2xl space-y-5">
      <PageHeader
        title="Set up two-factor sign-in"
        description="A code from an authenticator app on your phone, after your password, keeps the admin area yours."
      />
      {user?.twoFactorSetupRequired ? (
        <Notice tone="amber" role="note" label="Two-factor sign-in is required">
          This shop requires administrators to use two-factor sign-in. Set it up to continue to the admin area: it takes a minute.
        </Notice>
      ) : null}
      <TwoFactorCard onCodesSaved={() => navigate('/admin', { replace: true })} />
    </div>
  );
}
