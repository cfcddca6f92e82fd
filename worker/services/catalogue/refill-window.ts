// Refill windows: how long after completion a service's provider refills drops ("Refill 30D"),
// read from the provider's service name, and the deadline that gives an order.

// A lone "M" is left out: next to "Max 5M" it means millions.
const DAYS_PER_UNIT: Record<string, number> = { d: 1, day: 1, days: 1, w: 7, week: 7, weeks: 7, month: 30, months: 30, y: 365, year: 365, years: 365 };
const UNIT = String.raw`(\d{1,4})\s*-?\s*(days?|d|weeks?|w|months?|years?|y)\b`;
/** A few words of the same bracket may stand between (e.g. "Refill Guarantee: 30 Days"). */
const BETWEEN = String.raw`[^\d\[\]()|,]{0,20}?`;
const WINDOW_PATTERNS = [
  new RegExp(`refill${BETWEEN}${UNIT}`, 'i'), //             Refill 30D, Refill: 30 Days, Auto-Refill 30-Day
  new RegExp(`${UNIT}${BETWEEN}refill`, 'i'), //             30 Days Refill, 30D Auto Refill
  new RegExp(String.raw`♻\uFE0F?\s*${UNIT}`, 'iu'), //     ♻️ 30D
  new RegExp(String.raw`${UNIT}\s*♻`, 'iu'), //            30D ♻️
  /\bR(\d{1,4})(D)?\b/, //                                  R30, R30D (capital R, as panels abbreviate it)
];
/** Names that say there is no refill, whatever number follows ("No Refill [30 Days Guarantee]"). */
const NO_REFILL = /\b(no|non|without)[\s-]*refill/i;
const MAX_DAYS = 3650;

/** The refill window a provider's service name states, in days; null when it states none ("Lifetime Refill", "No Refill", nothing). */
export function refillDaysFromName(name: string): number | null {
  if (NO_REFILL.test(name)) return null;
  for (const pattern of WINDOW_PATTERNS) {
    const match = pattern.exec(name);
    if (!match) continue;
    const days = Number(match[1]) * DAYS_PER_UNIT[(match[2] ?? 'd').toLowerCase()];
    if (days > 0 && days <= MAX_DAYS) return days;
  }
  return null;
}

const DAY_MS = 86_400_000;

/** The last moment a refill may be asked for: completion plus the window; null when there is no limit (no window, or no completion time). */
export function refillDeadline(completedAt: Date | null, refillDays: number | null): Date | null {
  return completedAt && refillDays ? new Date(completedAt.getTime() + refillDays * DAY_MS) : null;
}

/** "23 Dec 2026", in UTC like every time the shop stores. */
export const formatDay = (date: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(date);

/** Why a refill is refused for an order past its window, in words for the person asking. */
export const refillPeriodEnded = (deadline: Date, refillDays: number) =>
  `The refill period for this order ended on ${formatDay(deadline)}: refills can be asked for within ${refillDays} ${refillDays === 1 ? 'day' : 'days'} of completion.`;
