// A start-up failure a person can act on. Its message is one sentence saying what is wrong and
// what to do; whoever shows it (npm start, the test setup, the bench) prints that sentence alone.
export class StartupError extends Error {
  override name = 'StartupError';

  constructor(message: string) {
    super(message);
    // Runners print `stack` where they have one: keep it the sentence, not a trace into our helpers.
    this.stack = message;
  }
}

/** What to print for a failed start: the sentence of a StartupError, the whole error otherwise. */
export function describeStartupFailure(error: unknown): string {
  if (error instanceof StartupError) return error.message;
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Runs a script's main to its end: exit code as it set it, or 1 with the failure in plain words. */
export function runScript(main: () => Promise<void>): void {
  main().then(
    () => process.exit(process.exitCode ?? 0),
    (error: unknown) => {
      console.error(describeStartupFailure(error));
      process.exit(1);
    },
  );
}
