// Guards for private calls. One query checks the session is live and loads the caller
// with their wallet balance, so a simple read (profile, balance) costs a single round trip.
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { sessions, USER_TYPE, users, wallets } from '../../drizzle/schema';
import type { AppEnv } from '../context';
import { AppError, forbidden, unauthenticated } from '../lib/errors';
import { ACCOUNT_HEADER, ACCOUNT_MISMATCH, ACCOUNT_MISMATCH_ERROR } from '../schemas/session';
import { verifyAccessToken } from '../services/tokens';
import { publicUserColumns, toPublicUser, type PublicUser } from '../services/users';

export interface Principal extends PublicUser {
  sessionId: string;
  balanceKobo: bigint;
  /** What a reversed card payment left owing (chargebacks.ts); orders wait until it is settled. */
  debtKobo: bigint;
}

function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? '');
  return match ? match[1] : null;
}

const requireUserType = (userType: number | null) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const claims = token ? await verifyAccessToken(c.env.JWT_SECRET, token) : null;
    if (!claims) throw unauthenticated();
    // The SPA names the account its tab shows; storage shared by tabs may hold another one's token by now.
    // Reseller tools and scripts send no such header and are not checked.
    const shown = c.req.header(ACCOUNT_HEADER);
    if (shown !== undefined && shown !== String(claims.userId)) throw new AppError('conflict', ACCOUNT_MISMATCH, ACCOUNT_MISMATCH_ERROR);
    const [row] = await c.var.db
      .select({ ...publicUserColumns, balanceKobo: sql<string>`coalesce(${wallets.balanceKobo}, 0)`, debtKobo: sql<string>`coalesce(${wallets.debtKobo}, 0)` })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(wallets, eq(wallets.userId, users.id))
      .where(and(eq(sessions.id, claims.sessionId), eq(sessions.userId, claims.userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date())));
    if (!row || row.status !== 'active') throw unauthenticated();
    if (userType !== null && row.userType !== userType) throw forbidden();
    c.set('principal', { ...toPublicUser(row), sessionId: claims.sessionId, balanceKobo: BigInt(row.balanceKobo), debtKobo: BigInt(row.debtKobo) });
    await next();
  });

/** Any signed-in person (profile, password, sign-out). */
export const requireSignedIn = requireUserType(null);
export const requireUser = requireUserType(USER_TYPE.user);
export const requireAdmin = requireUserType(USER_TYPE.admin);
