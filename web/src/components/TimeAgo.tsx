// "3 mins ago" that stays true while the page is open: every mounted TimeAgo shares one clock,
// so a list of a hundred orders re-renders on one timer instead of a hundred.
import { useSyncExternalStore } from 'react';
import { timeAgo } from '@/lib/format';

const TICK_MS = 30_000;
const listeners = new Set<() => void>();
let timer: number | undefined;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  timer ??= window.setInterval(() => {
    for (const notify of listeners) notify();
  }, TICK_MS);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      window.clearInterval(timer);
      timer = undefined;
    }
  };
}

// The current tick's number: stable within a tick, as useSyncExternalStore requires, and new after it.
const currentTick = () => Math.floor(Date.now() / TICK_MS);

/** The relative time of `at`, re-rendered as the shared clock ticks. */
export function TimeAgo({ at }: { at: string | number | Date | null | undefined }) {
  useSyncExternalStore(subscribe, currentTick, currentTick);
  return <>{timeAgo(at)}</>;
}
