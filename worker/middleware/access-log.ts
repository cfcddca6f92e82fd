// One structured line per request, for Workers Logs: who asked for what, how it ended and how long it
// took. Only the method, the path (never the query string, which may carry tokens), the status and ids
// are logged; headers and bodies never are.
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../context';

/** Paths come from the caller; a hostile one must not bloat the log. */
const MAX_LOGGED_PATH = 200;

export interface AccessLogLine {
  level: 'info' | 'error';
  msg: 'request';
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  userId?: number;
}

export const accessLog = createMiddleware<AppEnv>(async (c, next) => {
  const startedAt = Date.now();
  await next();
  const status = c.res.status;
  // The request's logger (set inside this middleware's next()) adds level, msg and requestId.
  const principal = c.get('principal');
  const session = c.get('session');
  c.get('log')[status >= 500 ? 'error' : 'info']('request', {
    method: c.req.method,
    path: c.req.path.slice(0, MAX_LOGGED_PATH),
    status,
    durationMs: Date.now() - startedAt,
    // A call whose statement checked the session itself (placing an order) has no principal: its token names the caller.
    ...(principal ? { userId: principal.id } : session ? { userId: session.userId } : {}),
  } satisfies Omit<AccessLogLine, 'level' | 'msg' | 'requestId'>);
});
