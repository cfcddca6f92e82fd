import ProfilePage from './ProfilePage';
import { TwoFactorCard } from './TwoFactorCard';

/** /admin/account-settings (the admin "Profile" menu entry): the two-tab profile screen and two-factor sign-in. */
export default function AdminAccountSettingsPage() {
  return (
    <div className="mx-auto max-w-3xl space-y-5">
      <ProfilePage title="Account Settings" />
      <TwoFactorCard />
    </div>
  );
}
