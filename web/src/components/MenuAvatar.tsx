import { initials } from '@/lib/format';

/**
 * The round initials on an account menu's button. They are drawn by CSS, not written as text: as text
 * they would be words shown on the button yet missing from its name ("Account menu, Ada Lovelace"),
 * which voice control cannot match (WCAG 2.5.3, label in name). The name beside them says it all.
 */
export function MenuAvatar({ name }: { name: string | null | undefined }) {
  return (
    <span
      aria-hidden="true"
      data-initials={initials(name)}
      className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-100 text-sm font-bold text-brand-800 before:content-[attr(data-initials)]"
    />
  );
}
