// The volume and the options of a batch, and what every seeding step works with (seed.ts runs the steps; apart from it so the step files need not import it).
import type pg from 'pg';

/** The volume at SCALE_FACTOR 1. */
export const FULL_VOLUME = {
  users: 200_000,
  orders: 2_000_000,
  ledgerRows: 5_000_000,
  payments: 300_000,
  services: 20_000,
  providers: 5,
  tickets: 50_000,
  notifications: 1_000_000,
  openOrders: 20_000,
  auditRows: 20_000,
} as const;

export type Volume = { -readonly [K in keyof typeof FULL_VOLUME]: number };

export interface SeedBatch {
  /** 1, 2, ...: names every seeded row (emails scale-b<batch>-u<n>@example.com, references scale-b<batch>-...). */
  batch: number;
  volume: Volume;
  /** Every seeded user signs in with the password of this hash (a real user's), so the bench can act as any of them. */
  passwordHash: string;
  adminId: number;
  /** Drop and rebuild the big tables' secondary indexes around the load (faster for large batches). */
  rebuildIndexes: boolean;
  log?: (line: string) => void;
}

/** What every seeding step works with: the seeding connection, the timed step runner, the batch's tag and volume. */
export interface SeedContext {
  client: pg.Client;
  /** Runs one timed statement, recorded in SeedResult.steps and logged. */
  step: (name: string, text: string, values?: unknown[]) => Promise<pg.QueryResult>;
  one: <T>(text: string, values?: unknown[]) => Promise<T>;
  /** scale-b<batch>: prefixes every seeded name and reference. */
  tag: string;
  v: Volume;
  options: SeedBatch;
}
