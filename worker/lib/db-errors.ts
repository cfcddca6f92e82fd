type DriverError = { code?: string; constraint?: string; message?: string; cause?: unknown };

/** The error and every error it wraps: Drizzle puts the driver's error in `cause`. */
function* causeChain(error: unknown): Generator<DriverError> {
  for (let current = error as DriverError | undefined, depth = 0; current && depth < 10; current = current.cause as DriverError | undefined, depth++)
    yield current;
}

/** True when a statement failed on a unique index (optionally a named one). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (const current of causeChain(error)) {
    if (current.code === '23505') return constraint === undefined || current.constraint === constraint;
  }
  return false;
}

// The driver reports a socket that closed under it in words, not with a SQLSTATE; over HTTP it says
// so as a NeonDbError without a code: the request never got an answer ("Error connecting to
// database: ..."), or Neon's proxy answered 5xx instead of Postgres (compute waking up, overloaded).
const LOST_CONNECTION =
  /connection terminated|not queryable|network connection lost|connection (?:was )?(?:closed|reset)|^error connecting to database|^server error \(http status 5\d\d\)/i;

/**
 * True when the database, not the request, is at fault and the same request may work in a
 * moment: the connection dropped (class 08, an administrator ended the backend 57P0x), the
 * server is out of connections (53xxx), or the transaction lost a race (40001, 40P01).
 * The transaction rolled back, so nothing it wrote is kept.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const current of causeChain(error)) {
    const code = typeof current.code === 'string' ? current.code : '';
    if (/^(?:08|53|57P0)/.test(code) || code === '40001' || code === '40P01') return true;
    if (!code && typeof current.message === 'string' && LOST_CONNECTION.test(current.message)) return true;
  }
  return false;
}

/**
 * An error as text for logs. Drizzle's "Failed query" message lists the statement's parameters,
 * which can be password hashes, token hashes or emails, so only the SQL text and the driver's own
 * message and SQLSTATE are kept.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const query = (error as { query?: unknown }).query;
  if (typeof query !== 'string') return `${error.name}: ${error.message}`;
  const driver = [...causeChain(error.cause)][0];
  const reason = driver ? `${driver.code ? `SQLSTATE ${driver.code}: ` : ''}${driver.message ?? ''}` : 'no driver error';
  return `Failed query: ${query.slice(0, 300)} (${reason})`;
}

/**
 * SQLSTATEs of a parameter value the database could not take: too long, out of range, not a
 * valid number, date or UTF-8 text. They come from input a schema let through, so they are the
 * caller's 400, not a server fault.
 */
const REJECTED_VALUE_STATES = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05']);

export function isValueRejectedByDatabase(error: unknown): boolean {
  for (const current of causeChain(error)) if (typeof current.code === 'string' && REJECTED_VALUE_STATES.has(current.code)) return true;
  return false;
}
