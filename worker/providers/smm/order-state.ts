// Reading one order's status answer. Each field is read on its own and a word or value we cannot
// read is named rather than thrown, so the caller decides what the rest of the answer is good for.

import { parseDecimal, parseDecimalExact } from '../../lib/decimal';
import { PROVIDER_MONEY_SCALE, type SmmOrderState, type SmmOrderStatus } from './types';

/** Spaces, underscores and dashes do not matter; anything else ("Fail?") makes another word. */
export function statusKey(value: unknown): string {
  return typeof value === 'string' ? value.toLowerCase().replace(/[\s_-]+/g, '') : '';
}

/** A whole count (remains, start count, runs, posts): "157" or 157, not "157.5" nor "n/a". */
function wholeNumber(raw: string | number): number {
  const value = Number(parseDecimalExact(raw, 0));
  if (!Number.isSafeInteger(value)) throw new RangeError('too large');
  return value;
}

/**
 * Status words keyed by statusKey, so "In Progress", "in_progress" and
 * "inprogress" meet. Only words whose meaning is plain are here; any other word leaves the order
 * open for a person to read.
 */
const ORDER_STATUS_BY_KEY = new Map<string, SmmOrderStatus>([
  ['pending', 'Pending'],
  // Shops like ours report an order they have not yet passed on as 'Pending Submission'.
  ['pendingsubmission', 'Pending'],
  ['queued', 'Pending'],
  ['inqueue', 'Pending'],
  ['inprogress', 'In progress'],
  ['processing', 'Processing'],
  ['completed', 'Completed'],
  ['complete', 'Completed'],
  ['partial', 'Partial'],
  ['partiallycompleted', 'Partial'],
  ['canceled', 'Canceled'],
  ['cancelled', 'Canceled'],
  // Panels show orders they gave up on and refunded under these words: the refund rule still reads
  // what was delivered, so a failed order that delivered some of it is not refunded in full.
  ['refunded', 'Canceled'],
  ['fail', 'Canceled'],
  ['failed', 'Canceled'],
  ['error', 'Canceled'],
  // Subscriptions report their own words: running or paused ones are still in progress, expired ones are done.
  ['active', 'In progress'],
  ['paused', 'In progress'],
  ['expired', 'Completed'],
]);

/** Reads one status answer field by field: see SmmOrderState. */
export function readOrderState(value: Record<string, unknown>): SmmOrderState {
  const unreadable: Record<string, unknown> = {};
  const field = <T>(name: string, read: (raw: string | number) => T): T | null => {
    const raw = value[name];
    if (raw === undefined || raw === null || raw === '') return null;
    try {
      if (typeof raw !== 'string' && typeof raw !== 'number') throw new TypeError('not a number');
      return read(raw);
    } catch {
      unreadable[name] = raw;
      return null;
    }
  };
  const status = ORDER_STATUS_BY_KEY.get(statusKey(value.status)) ?? null;
  if (status === null) unreadable.status = value.status ?? null;
  const state: SmmOrderState = {
    chargeMicros: field('charge', (raw) => {
      const micros = parseDecimal(raw, PROVIDER_MONEY_SCALE);
      if (micros < 0n) throw new RangeError('negative');
      return micros;
    }),
    startCount: field('start_count', wholeNumber),
    status,
    remains: field('remains', wholeNumber),
    currency: typeof value.currency === 'string' ? value.currency.trim().toUpperCase() : '',
  };
  const runs = field('runs', wholeNumber);
  const posts = field('posts', wholeNumber);
  if (runs !== null) state.runs = runs;
  if (posts !== null) state.posts = posts;
  if (Object.keys(unreadable).length > 0) state.unreadable = unreadable;
  return state;
}
