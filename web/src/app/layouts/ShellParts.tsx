// The pieces every shell's top bar repeats: the skip link and the phone menu's toggle (the
// signed-in shells' account menu is in AccountMenu.tsx, out of the public pages' first load).
import type { Ref } from 'react';
import { ShellIcon } from '@/components/ShellIcon';

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
      <ShellIcon name={open ? 'close' : 'menu'} className="h-6 w-6" />
    </button>
  );
}
