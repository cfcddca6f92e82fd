// The signed-in shells' account menu (UserLayout, AdminLayout); the public shell has none.
import { useNavigate } from 'react-router-dom';
import { DropdownMenu } from '@/components/DropdownMenu';
import { Icon, type IconName } from '@/components/Icon';
import { MenuAvatar } from '@/components/MenuAvatar';
import { useAuth } from '@/lib/authContext';
import { cx } from '@/lib/hooks';

/**
 * The signed-in person's menu: their avatar and name open it; it lists `links` under `heading`, then
 * Logout. `crowded` bars (the user shell's) show the name from `lg` and the chevron from `sm` only.
 */
export function AccountMenu({
  name,
  heading,
  links,
  crowded = false,
}: {
  name: string;
  heading: string;
  links: ReadonlyArray<{ label: string; icon: IconName; to: string }>;
  crowded?: boolean;
}) {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  return (
    <DropdownMenu
      label={user ? `${name}, ${user.fullName}` : name}
      firstTap="account-menu"
      buttonClassName={crowded ? 'max-sm:px-1' : undefined}
      trigger={
        <>
          <MenuAvatar name={user?.fullName} />
          <span className={cx('hidden truncate text-sm font-medium', crowded ? 'max-w-32 lg:inline' : 'max-w-40 sm:inline')}>{user?.fullName}</span>
          <Icon name="chevronDown" className={cx('h-4 w-4', crowded && 'hidden sm:block')} />
        </>
      }
      entries={[
        { kind: 'header', label: heading },
        ...links.map((link) => ({
          kind: 'item' as const,
          label: link.label,
          icon: <Icon name={link.icon} className="h-4 w-4" />,
          onSelect: () => navigate(link.to),
        })),
        { kind: 'item', label: 'Logout', icon: <Icon name="logout" className="h-4 w-4" />, onSelect: () => void logout(), danger: true },
      ]}
    />
  );
}
