import { type KeyboardEvent, useRef } from 'react';
import { cx } from '@/lib/hooks';

export interface TabItem<K extends string> {
  key: K;
  label: string;
}

/**
 * WAI-ARIA tabs (buttons with arrow-key movement). Panels use `tabPanelProps(key)`:
 * <div {...tabPanelProps(idBase, key)} hidden={active !== key}>.
 */
export function Tabs<K extends string>({
  idBase,
  tabs,
  active,
  onChange,
  label,
}: {
  idBase: string;
  tabs: ReadonlyArray<TabItem<K>>;
  active: K;
  onChange: (k: K) => void;
  label: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    let next = -1;
    if (e.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (e.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = tabs.length - 1;
    if (next >= 0) {
      e.preventDefault();
      onChange(tabs[next].key);
      refs.current[next]?.focus();
    }
  };
  return (
    <div role="tablist" aria-label={label} className="flex gap-1 overflow-x-auto rounded-xl bg-slate-100 p-1">
      {tabs.map((t, i) => {
        const selected = t.key === active;
        return (
          <button
            key={t.key}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${idBase}-tab-${t.key}`}
            aria-selected={selected}
            aria-controls={`${idBase}-panel-${t.key}`}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(t.key)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={cx(
              'min-h-10 flex-1 rounded-lg px-4 text-sm font-semibold whitespace-nowrap transition focus-visible:outline-2 focus-visible:outline-brand-600',
              selected ? 'bg-white text-brand-700 shadow-sm' : 'text-slate-600 hover:text-slate-900',
            )}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
}

export const tabPanelProps = (idBase: string, key: string) => ({
  role: 'tabpanel' as const,
  id: `${idBase}-panel-${key}`,
  'aria-labelledby': `${idBase}-tab-${key}`,
  tabIndex: 0,
});
