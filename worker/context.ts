import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from './db';
import type { Env } from './env';
import type { Logger } from './lib/log';
import type { PublicUser } from './services/accounts';

/** The caller behind the guards (middleware/auth.ts), with their wallet as the session check read it. */
export interface Principal extends PublicUser {
  sessionId: string;
  /** Administrators only: the site asks them to set up two-factor sign-in before anything else. */
  twoFactorSetupRequired?: boolean;
  balanceKobo: bigint;
  /** What a reversed card payment left owing (chargebacks.ts); orders wait until it is settled. */
  debtKobo: bigint;
}

/** Behind deferSessionCheck: the token checked, the session check still to run, alone or with the handler's first read. */
export interface UserSession {
  userId: number;
  sessionId: string;
  admit(): Promise<Principal>;
  admitWith<TRead extends BatchItem<'pg'>>(read: TRead): Promise<{ principal: Principal; read: Awaited<TRead> }>;
}

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
