import ProfilePage from '@/features/user/ProfilePage';

/** /admin/account-settings (the admin "Profile" menu entry): the same two-tab profile screen. */
export default function AdminAccountSettingsPage() {
  return <ProfilePage title="Account Settings" />;
}
