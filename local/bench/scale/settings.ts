// The run's knobs from the environment (main.ts describes them).
import { StartupError } from '../../stack/startup-error';
import { callFilterFrom } from '../call-filter';

/** How long one run of the scheduled jobs is waited for (a deployed Cron Trigger gets 15 minutes). */
export const CRON_TIMEOUT_S = Number(process.env.SCALE_CRON_TIMEOUT_S ?? 600);

export function scaleFactor(): number {
  const value = Number(process.env.SCALE_FACTOR ?? 1);
  if (!Number.isFinite(value) || value <= 0 || value > 5)
    throw new StartupError(`SCALE_FACTOR=${process.env.SCALE_FACTOR} is no volume: give a number above 0 (1 = the issue's volume, 0.02 for a quick run).`);
  return value;
}

export function latency(): number {
  const value = Number(process.env.BENCH_DB_LATENCY_MS ?? 25);
  if (!Number.isFinite(value) || value < 0)
    throw new StartupError(`BENCH_DB_LATENCY_MS=${process.env.BENCH_DB_LATENCY_MS} is no latency: give milliseconds each way.`);
  return value;
}

/** SCALE_CALLS: comma-separated parts of call names ("cron" for the jobs); unset measures every call. */
export function callFilter(): (name: string) => boolean {
  return callFilterFrom(process.env.SCALE_CALLS);
}
