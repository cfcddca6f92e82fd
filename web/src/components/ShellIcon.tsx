// The few icons the shells' top bars and the banners draw on every page, apart from the screens'
// many (Icon.tsx, which holds these too), so a first load carries these paths only. Inline stroke
// icons (24×24, currentColor), decorative (aria-hidden).
import type { SVGProps } from 'react';

export const SHELL_ICON_PATHS = {
  menu: 'M4 6h16M4 12h16M4 18h16',
  close: 'M6 6l12 12M18 6L6 18',
  chevronDown: 'M6 9l6 6 6-6',
  alert: 'M12 9v4M12 17h.01M10.3 3.9L2.4 17.5A2 2 0 0 0 4.1 20.5h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
} as const;

export type IconProps = SVGProps<SVGSVGElement>;

/** The shells' icons by name. */
export function ShellIcon({ name, ...rest }: { name: keyof typeof SHELL_ICON_PATHS } & IconProps) {
  return <IconSvg d={SHELL_ICON_PATHS[name]} {...rest} />;
}

/** Any icon drawn from its path data `d`. */
export function IconSvg({ d, className = 'h-5 w-5', strokeWidth = 1.8, ...rest }: { d: string } & IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      {...rest}
    >
      <path d={d} />
    </svg>
  );
}
