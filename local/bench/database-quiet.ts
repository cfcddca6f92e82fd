// Both benches count a request's database work only once the link is quiet: nothing from a previous request
// (its waitUntil work, the queue consumer) may be counted with it.
import type { DatabaseTraffic, RunningStack } from '../stack/stack';

/** Resolves once the database link has carried nothing for `quietMs`. */
export async function untilDatabaseQuiet(stack: RunningStack, quietMs: number): Promise<void> {
  const same = (a: DatabaseTraffic, b: DatabaseTraffic) => a.roundTrips === b.roundTrips && a.statements === b.statements && a.connections === b.connections;
  for (let last = stack.databaseTraffic(); ; ) {
    await new Promise((resolve) => setTimeout(resolve, quietMs));
    const now = stack.databaseTraffic();
    if (same(now, last)) return;
    last = now;
  }
}
