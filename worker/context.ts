import type { Db } from './db';
import type { Env } from './env';
import type { Principal } from './middleware/auth';

/** What every handler can reach: the bindings, the request's database and, behind the guards, who is calling. */
export interface AppEnv {
  Bindings: Env;
  Variables: {
    db: Db;
    requestId: string;
    principal: Principal;
  };
}
