// The pieces every shell's top bar repeats: the skip link, the phone menu's toggle, and the
// signed-in person's account menu.
import type { Ref } from 'react';
import { useNavigate } from 'react-router-dom';
import { DropdownMenu } from '@/components/DropdownMenu';
import { Icon, type IconName } from '@/components/Icon';
import { MenuAvatar } from '@/components/MenuAvatar';
import { useAuth } from '@/lib/authContext';
import { cx } from '@/lib/hooks';

/** The first stop of the Tab key: keyboard users jump past the top bar to the page (`target` is the <main>'s id). */
export function SkipLink({ target }: { target: string }) {
  return (
    <a href={`#${target}`} className="sr-only z-50 rounded-lg bg-white px-4 py-2 focus:not-sr-only focus:fixed focus:top-2 focus:left-2">
      Skip to content
    </a>
  );
}

/** The phone menu's button: its name and icon follow the menu's state, and it names the element it opens (`controls`). */
export function MenuToggle({ ref, open, controls, onToggle }: { ref: Ref<HTMLButtonElement>; open: boolean; controls: string; onToggle: () => void }) {
  return (
    <button
      ref={ref}
      type="button"
      className="btn btn-ghost px-2.5 md:hidden"
      aria-label={open ? 'Close menu' : 'Open menu'}
      aria-expanded={open}
      aria-controls={controls}
      onClick={onToggle}
    >
      <Icon name={open ? 'close' : 'menu'} className="h-6 w-6" />
    </button>
  );
}

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
