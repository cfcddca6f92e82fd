// Structured log lines for Workers Logs: one JSON object per event, {level, msg, ...fields}, so a line
// can be found by its msg and tied to its answer by requestId. Never pass tokens, passwords or bodies.

export type LogFields = Record<string, unknown>;
type Level = 'info' | 'warn' | 'error';

export type Logger = Record<Level, (msg: string, fields?: LogFields) => void>;

/** A logger whose every line carries `bound` (a request's id, say) after the level and msg. */
export function createLogger(bound: LogFields = {}): Logger {
  const writer =
    (level: Level) =>
    (msg: string, fields: LogFields = {}) => {
      const line = JSON.stringify({ level, msg, ...bound, ...fields });
      // Routine lines on stdout, trouble on stderr, so either stream alone can be watched.
      if (level === 'info') console.log(line);
      else console.error(line);
    };
  return { info: writer('info'), warn: writer('warn'), error: writer('error') };
}

/** For code outside a request (scheduled jobs, the queue consumer) and services, which know no request. */
export const log = createLogger();
