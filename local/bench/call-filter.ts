// Which calls a quick run measures: BENCH_CALLS (bench.ts) and SCALE_CALLS (scale/settings.ts) read the same way.

/** Comma-separated parts of call names, case-insensitive; unset or empty measures every call. */
export function callFilterFrom(envValue: string | undefined): (name: string) => boolean {
  const parts = (envValue ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter(Boolean);
  return (name) => parts.length === 0 || parts.some((part) => name.toLowerCase().includes(part));
}
