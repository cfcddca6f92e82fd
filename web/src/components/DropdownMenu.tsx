import { type ReactNode, useRef, useState } from 'react';
import { FIRST_TAP_ATTRIBUTE, useFirstTap } from '@/lib/firstTap';
import { cx, useEscapeKey, useOutsideClick } from '@/lib/hooks';

export type MenuEntry = { kind: 'header'; label: string } | { kind: 'item'; label: string; onSelect: () => void; icon?: ReactNode; danger?: boolean };

/**
 * Button + menu (role="menu"). Opens on click, Enter, Space or ArrowDown; arrows move between
 * items; Escape or a click outside closes it. Headers are disabled menu items. `label` names the button
 * and the menu: it holds any words the trigger shows, so what is seen is what a voice user can say.
 * `firstTap` names the button for a tap made before it could take it (lib/firstTap.ts): the menu opens once it can.
 */
export function DropdownMenu({
  trigger,
  label,
  entries,
  align = 'right',
  firstTap,
  buttonClassName,
}: {
  trigger: ReactNode;
  label: string;
  entries: ReadonlyArray<MenuEntry>;
  align?: 'left' | 'right';
  firstTap?: string;
  buttonClassName?: string;
}) {
  const [open, setOpen] = useState(false);
  const wrap = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const refs = useRef([wrap]).current;
  useOutsideClick(refs, () => setOpen(false), open);
  useEscapeKey(() => {
    setOpen(false);
    button.current?.focus();
  }, open);

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ?? []);
  const openMenu = () => {
    setOpen(true);
    window.requestAnimationFrame?.(() => items()[0]?.focus());
  };
  useFirstTap(firstTap, button, openMenu);
  const onMenuKey = (e: React.KeyboardEvent) => {
    const list = items();
    const i = list.indexOf(document.activeElement as HTMLElement);
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      list[(i + 1) % list.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      list[(i - 1 + list.length) % list.length]?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div ref={wrap} className="relative">
      <button
        ref={button}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        {...(firstTap ? { [FIRST_TAP_ATTRIBUTE]: firstTap } : {})}
        onClick={() => (open ? setOpen(false) : openMenu())}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            openMenu();
          }
        }}
        className={cx(
          'flex min-h-11 items-center gap-2 rounded-xl px-2 text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand-600',
          buttonClassName,
        )}
      >
        {trigger}
      </button>
      {open ? (
        <div
          ref={menu}
          role="menu"
          aria-label={label}
          onKeyDown={onMenuKey}
          className={cx(
            'absolute z-40 mt-2 w-56 animate-fade-in overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-lg',
            align === 'right' ? 'right-0' : 'left-0',
          )}
        >
          {entries.map((e) =>
            e.kind === 'header' ? (
              // As written ('My Account', a person's name): no case change.
              <div
                key={`header:${e.label}`}
                role="menuitem"
                aria-disabled="true"
                tabIndex={-1}
                title={e.label}
                className="cursor-default truncate border-b border-slate-100 px-4 py-2 text-sm font-semibold text-slate-500"
              >
                {e.label}
              </div>
            ) : (
              <button
                key={`item:${e.label}`}
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  setOpen(false);
                  e.onSelect();
                }}
                className={cx(
                  'flex w-full items-center gap-3 px-4 py-2.5 text-left text-sm focus:bg-slate-100 focus:outline-none hover:bg-slate-50',
                  e.danger ? 'text-rose-700' : 'text-slate-700',
                )}
              >
                {e.icon}
                {e.label}
              </button>
            ),
          )}
        </div>
      ) : null}
    </div>
  );
}
