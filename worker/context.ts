import type { Db } from './db';
import type { Env } from './env';
import type { Logger } from './lib/log';
import type { Principal, UserSession } from './middleware/auth';

/** What every handler can reach: the bindings, the request's database and, behind the guards, who is calling. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    db: Db;
    requestId: string;
    /** Lines carry the request's id. */
    log: Logger;
    principal: Principal;
    /** Behind deferSessionCheck: the token checked, the session check still to travel with the handler's first read. */
    session: UserSession;
  };
}
