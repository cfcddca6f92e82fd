// Guards for private calls. One query checks the session is live and loads the caller
// with their wallet balance, so a simple read (profile, balance) costs a single round trip.
import { eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { sessions, users, wallets } from '../../drizzle/schema';
import { USER_TYPE } from '../../vocabulary';
import type { AppEnv, Principal, UserSession } from '../context';
import type { Db } from '../db';
import type { Env } from '../env';
import { AppError, forbidden, unauthenticated } from '../lib/errors';
import { ACCOUNT_HEADER, ACCOUNT_MISMATCH, ACCOUNT_MISMATCH_ERROR } from '../schemas/session';
import { liveSession, publicUserColumns, toPublicUser, twoFactorSetupRequiredSql, verifyAccessToken } from '../services/accounts';

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? match[1] : null;
}

type Claims = NonNullable<Awaited<ReturnType<typeof verifyAccessToken>>>;

/** The caller's access token, checked without the database: 401 without a valid one, 409 for another tab's account. */
async function claimsOf(c: Context<AppEnv>): Promise<Claims> {
  const token = bearerToken(c.req.header('authorization'));
  const claims = token ? await verifyAccessToken(c.env.JWT_SECRET, token) : null;
  if (!claims) throw unauthenticated();
  // The SPA names the account its tab shows; storage shared by tabs may hold another one's token by now.
  // Reseller tools and scripts send no such header and are not checked.
  const shown = c.req.header(ACCOUNT_HEADER);
  if (shown !== undefined && shown !== String(claims.userId))
    throw new AppError('conflict', ACCOUNT_MISMATCH, { error: ACCOUNT_MISMATCH_ERROR, code: 'account_mismatch' });
  return claims;
}

/** The session check: the session is live, and the caller with their wallet balance and what the site asks of them. */
const sessionQuery = (db: Db, env: Env, claims: Claims) =>
  db
    .select({
      ...publicUserColumns,
      balanceKobo: sql<string>`coalesce(${wallets.balanceKobo}, 0)`,
      debtKobo: sql<string>`coalesce(${wallets.debtKobo}, 0)`,
      twoFactorSetupRequired: twoFactorSetupRequiredSql(env),
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(wallets, eq(wallets.userId, users.id))
    .where(liveSession(claims.sessionId, claims.userId));

interface Guard {
  /** Null for any signed-in person. */
  userType: number | null;
  /** The calls an administrator who must set up two-factor sign-in can still make: the setup itself, the profile, sign-out. */
  duringTwoFactorSetup: boolean;
}

export const TWO_FACTOR_SETUP_REQUIRED = 'Set up two-factor sign-in to continue.';

function admit(c: Context<AppEnv>, claims: Claims, guard: Guard, [row]: Awaited<ReturnType<typeof sessionQuery>>): Principal {
  if (row?.status !== 'active') throw unauthenticated();
  if (guard.userType !== null && row.userType !== guard.userType) throw forbidden();
  if (row.twoFactorSetupRequired && !guard.duringTwoFactorSetup)
    throw new AppError('forbidden', TWO_FACTOR_SETUP_REQUIRED, { code: 'two_factor_setup_required' });
  const principal: Principal = {
    ...toPublicUser(row),
    ...(row.userType === USER_TYPE.admin && { twoFactorSetupRequired: row.twoFactorSetupRequired }),
    sessionId: claims.sessionId,
    balanceKobo: BigInt(row.balanceKobo),
    debtKobo: BigInt(row.debtKobo),
  };
  c.set('principal', principal);
  return principal;
}

const requireSession = (guard: Guard) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const claims = await claimsOf(c);
    admit(c, claims, guard, await sessionQuery(c.var.db, c.env, claims));
    await next();
  });

const customer: Guard = { userType: USER_TYPE.user, duringTwoFactorSetup: false };

/**
 * A session whose check waits for the handler's first read, so both travel in one batch, one
 * round trip (verify-payment's intent, an order's service): for a handler instead of requireUser.
 * The token is checked here, before the body is read; `admitWith` then checks the session before
 * anything is answered from the read.
 */
async function userSession(c: Context<AppEnv>): Promise<UserSession> {
  const claims = await claimsOf(c);
  return {
    userId: claims.userId,
    sessionId: claims.sessionId,
    admit: async (): Promise<Principal> => admit(c, claims, customer, await sessionQuery(c.var.db, c.env, claims)),
    admitWith: async <TRead extends BatchItem<'pg'>>(read: TRead): Promise<{ principal: Principal; read: Awaited<TRead> }> => {
      const [session, result] = await c.var.db.batch([sessionQuery(c.var.db, c.env, claims), read]);
      return { principal: admit(c, claims, customer, session), read: result as Awaited<TRead> };
    },
  };
}

/** For a handler instead of requireUser: the token checked before the body is read, `c.var.session` to admit with. */
export const deferSessionCheck = createMiddleware<AppEnv>(async (c, next) => {
  c.set('session', await userSession(c));
  await next();
});

/** Any signed-in person (profile, password). */
export const requireSignedIn = requireSession({ userType: null, duringTwoFactorSetup: false });
/** Any signed-in person, even an administrator the site still asks to set up two-factor sign-in (the profile, sign-out). */
export const requireSignedInDuringTwoFactorSetup = requireSession({ userType: null, duringTwoFactorSetup: true });
export const requireUser = requireSession(customer);
export const requireAdmin = requireSession({ userType: USER_TYPE.admin, duringTwoFactorSetup: false });
/** The two-factor calls themselves, which an administrator asked to set it up must reach. */
export const requireAdminDuringTwoFactorSetup = requireSession({ userType: USER_TYPE.admin, duringTwoFactorSetup: true });
