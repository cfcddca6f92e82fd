import type { ReactNode } from 'react';
import { EmptyState } from './EmptyState';
import type { IconName } from './Icon';

/** What an empty list says: that there is nothing yet, or, with filters set, that nothing matches them. */
export interface EmptyListWords {
  none: { title: string; text: string };
  noMatch: { title: string; text: string };
}

/** An empty list: with filters set, nothing matches them and what to try; without, nothing yet and the first step (`children`). */
export function ListEmptyState({ icon, filtered, none, noMatch, children }: EmptyListWords & { icon: IconName; filtered: boolean; children: ReactNode }) {
  const { title, text } = filtered ? noMatch : none;
  return (
    <EmptyState icon={icon} title={title} action={filtered ? undefined : children}>
      {text}
    </EmptyState>
  );
}
