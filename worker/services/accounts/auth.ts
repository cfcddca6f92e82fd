// Accounts and sessions: registration, sign-in, refresh-token rotation, sign-out,
// password change and reset. Refresh tokens and reset tokens are stored only as hashes.
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import { passwordResets, referrals, refreshTokens, sessions, users, wallets } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { fromHex, hmacHex, randomToken, sha256Hex, toBase64Url } from '../../lib/crypto';
import { AppError, conflict, invalid, refreshTokenInvalid, unauthenticated } from '../../lib/errors';
import type { ChangePasswordInput, LoginInput, RegisterInput } from '../../schemas/auth';
import { ACCOUNT_SUSPENDED, ACCOUNT_SUSPENDED_ERROR } from '../../schemas/session';
import { recordAudit } from '../oversight';
import { type KeyRevocationReason, type RevokedKey, revokeAllApiKeys } from './api-keys';
import { assertHardToGuess, DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './passwords';
import { countHits, type RateLimit, refuseOverLimit } from './rate-limit';
import { claimAttemptQuery, forgiveAttemptQueries, refuseUnclaimed } from './sign-in-limits';
import { REFRESH_TOKEN_TTL_DAYS, signAccessToken } from './tokens';
import { checkLoginCode, twoFactorLockSecondsSql, twoFactorSetupRequiredSql } from './two-factor';
import { type PublicUser, publicUserColumns, toPublicUser, usernameCandidate } from './users';

export const INVALID_CREDENTIALS = 'Invalid email or password';
export const RESET_TOKEN_TTL_MINUTES = 30;

/** Its own `error` so the SPA can end the session and say why, whichever call met it. */
const accountSuspended = () => new AppError('forbidden', ACCOUNT_SUSPENDED, { error: ACCOUNT_SUSPENDED_ERROR, code: 'account_suspended' });

export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  user: PublicUser;
}

/** Who is signing in: where from (for the session and the owner's notices) and which browser. */
interface ClientInfo {
  ip: string;
  userAgent: string | null;
  /** The browser's device id: the cookie it sent, or the one made for it now. */
  device: string;
  /** A browser without its cookie is told apart by its address only. */
  deviceCookieSent: boolean;
}

/** Where an account is made from: its public address (lib/address.ts) and the browser's device cookie, when known. */
export interface SignupOrigin {
  ip: string | null;
  device: string | null;
}

/** A sign-up through someone's link ties the new user to the referrer (referrals.ts pays the commission); an unknown code, or one's own, ties nothing. */
async function recordReferral(tx: DbOrTx, userId: number, code: string | undefined): Promise<void> {
  if (!code) return;
  await tx.execute(sql`
    insert into ${referrals} (referred_user_id, referrer_id)
    select ${userId}, id from ${users} where referral_code = ${code} and id <> ${userId}
    on conflict do nothing`);
}

export async function registerUser(
  db: DbOrTx,
  input: RegisterInput,
  userType: number = USER_TYPE.user,
  origin: SignupOrigin = { ip: null, device: null },
): Promise<PublicUser> {
  const email = input.email.toLowerCase();
  assertHardToGuess(input.password, { email, fullName: input.fullName });
  const passwordHash = await hashPassword(input.password);
  // Interactive: tries the next username after a clash, and the wallet and referral follow only the inserted user.
  return db.transaction(async (tx) => {
    for (let attempt = 0; attempt < 6; attempt++) {
      // ON CONFLICT DO NOTHING keeps the transaction usable when the email or username clashes.
      const [created] = await tx
        .insert(users)
        .values({
          fullName: input.fullName,
          email,
          username: usernameCandidate(email, attempt),
          passwordHash,
          userType,
          signupIp: origin.ip,
          signupDevice: origin.device,
        })
        .onConflictDoNothing()
        .returning(publicUserColumns);
      if (created) {
        await tx.insert(wallets).values({ userId: created.id });
        await recordReferral(tx, created.id, input.referralCode);
        return toPublicUser(created);
      }
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
      if (existing) throw conflict('Email already registered');
    }
    throw conflict('Could not find a free username; please try again');
  });
}

/** An administrator's answer says whether the site asks them to set up two-factor sign-in before anything else. */
export type SignedInUser = PublicUser & { twoFactorSetupRequired?: boolean };

export interface SignIn extends SessionTokens {
  user: SignedInUser;
  /** Not the account's first sign-in, from a device (or, for a browser without its cookie, an address) it never signed in from. */
  fromNewDevice: boolean;
  /** The account had never signed in before: the pages greet a newcomer, not someone coming back. */
  firstSignIn: boolean;
}

/**
 * Two round trips for a password alone: the address's limit, the account and the attempt's count in one batch
 * before any password is checked; then, for a right password, the session written.
 */
export async function login(db: Db, env: Env, input: LoginInput, client: ClientInfo, addressLimit: RateLimit): Promise<SignIn> {
  const attempt = { email: input.email.toLowerCase(), address: client.ip, device: client.deviceCookieSent ? client.device : null };
  const [addressOverLimit, [row], { rows: claims }] = await db.batch([
    countHits(db, [addressLimit]),
    db
      .select({
        ...publicUserColumns,
        passwordHash: users.passwordHash,
        totpSecretEncrypted: users.totpSecretEncrypted,
        totpEnabledAt: users.totpEnabledAt,
        totpLockSeconds: twoFactorLockSecondsSql,
        twoFactorSetupRequired: twoFactorSetupRequiredSql(env),
        firstSignIn: sql<boolean>`not exists (select 1 from ${sessions} where ${eq(sessions.userId, users.id)})`,
      })
      .from(users)
      .where(eq(users.email, attempt.email)),
    claimAttemptQuery(db, attempt),
  ]);
  refuseOverLimit(addressOverLimit.rows);
  const [claim] = claims;
  refuseUnclaimed(claim);
  const passwordMatches = await verifyPassword(input.password, row?.passwordHash ?? DUMMY_PASSWORD_HASH);
  if (!row || !passwordMatches) throw unauthenticated(INVALID_CREDENTIALS);
  if (row.status !== 'active') throw accountSuspended();
  // A right password gives its attempt back even when the code is missing or wrong: wrong codes have their own count.
  await checkLoginCode(db, env, row, input.code, client).catch(async (refusal: unknown) => {
    await db.batch(forgiveAttemptQueries(db, attempt, claim.pair));
    throw refusal;
  });
  // The sign-in time, the session and its refresh token in one batch (one transaction, one round trip):
  // the session's id is made here, so the token's row can name it without reading it back.
  const sessionId = crypto.randomUUID();
  const refreshToken = randomToken();
  const [[updated]] = await db.batch([
    db.update(users).set({ lastLogin: new Date(), totpFailures: 0, totpLockedUntil: null }).where(eq(users.id, row.id)).returning(publicUserColumns),
    db.insert(sessions).values({
      id: sessionId,
      userId: row.id,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_DAYS * 86_400_000),
      ip: client.ip,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      device: client.device,
    }),
    db.insert(refreshTokens).values({ tokenHash: await sha256Hex(refreshToken), sessionId }),
    ...forgiveAttemptQueries(db, attempt, claim.pair),
  ]);
  const user: SignedInUser = { ...toPublicUser(updated), ...(row.userType === USER_TYPE.admin && { twoFactorSetupRequired: row.twoFactorSetupRequired }) };
  const accessToken = await signAccessToken(env.JWT_SECRET, { userId: user.id, userType: user.userType, sessionId });
  const fromNewDevice = !row.firstSignIn && !(client.deviceCookieSent ? claim.known_device : claim.known_address);
  return { accessToken, refreshToken, user, fromNewDevice, firstSignIn: Boolean(row.firstSignIn) };
}

/**
 * How long a used refresh token still answers with the pair it was rotated to: two tabs refreshing at
 * once, or a refresh retried after its answer was lost on a mobile network, are the owner, not a thief.
 */
export const REFRESH_GRACE_SECONDS = 30;

/**
 * The token a refresh token rotates to, derived from it with the signing secret: a use within the grace
 * window can answer the same new token without any token being stored in the clear.
 */
async function successorOf(secret: string, refreshToken: string): Promise<string> {
  return toBase64Url(fromHex(await hmacHex(secret, `refresh-successor:${refreshToken}`))!);
}

/**
 * Rotates a refresh token. A token used again within the grace window answers the same new token;
 * used again later (stolen, or replayed), it revokes the whole session it belongs to, so whoever
 * holds the newer token is signed out too.
 */
export async function refreshSession(db: Db, secret: string, refreshToken: string): Promise<SessionTokens> {
  const tokenHash = await sha256Hex(refreshToken);
  const next = await successorOf(secret, refreshToken);
  const nextHash = await sha256Hex(next);
  // One statement, one round trip on every page load's refresh: the conditional update claims the token
  // (of two racing refreshes, the one that waits on its row lock finds it used), only for a live session
  // of an active account, and the new token is issued from what it claimed.
  const claimed = db.$with('claimed').as(
    db
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(refreshTokens.tokenHash, tokenHash),
          isNull(refreshTokens.usedAt),
          inArray(
            refreshTokens.sessionId,
            db
              .select({ id: sessions.id })
              .from(sessions)
              .innerJoin(users, eq(users.id, sessions.userId))
              .where(and(isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()), eq(users.status, 'active'))),
          ),
        ),
      )
      .returning({ sessionId: refreshTokens.sessionId }),
  );
  const issued = db.$with('issued').as(
    db
      .insert(refreshTokens)
      .select((qb) =>
        qb
          .select({
            tokenHash: sql<string>`${nextHash}`.as('token_hash'),
            sessionId: claimed.sessionId,
            createdAt: sql<Date>`now()`.as('created_at'),
            usedAt: sql<Date | null>`null::timestamptz`.as('used_at'),
          })
          .from(claimed),
      )
      .returning({ sessionId: refreshTokens.sessionId }),
  );
  const [owner] = await db
    .with(claimed, issued)
    .select({ ...publicUserColumns, sessionId: issued.sessionId })
    .from(issued)
    .innerJoin(sessions, eq(sessions.id, issued.sessionId))
    .innerJoin(users, eq(users.id, sessions.userId));
  if (!owner) return refuseRefresh(db, secret, tokenHash, next);
  return issuePair(secret, owner, next);
}

async function issuePair(secret: string, owner: Parameters<typeof toPublicUser>[0] & { sessionId: string }, refreshToken: string): Promise<SessionTokens> {
  const user = toPublicUser(owner);
  const accessToken = await signAccessToken(secret, { userId: user.id, userType: user.userType, sessionId: owner.sessionId });
  return { accessToken, refreshToken, user };
}

/**
 * A refresh that claimed nothing, in one batch: a token used within the grace window answers again with
 * the token it was rotated to; one used before that (stolen, or replayed) revokes its session, committed
 * as the refusal is sent; an unused one of a suspended account is refused as suspended (and, when its session
 * is still live, stays unused, so the session carries on if the account is reactivated).
 */
async function refuseRefresh(db: Db, secret: string, tokenHash: string, successor: string): Promise<SessionTokens> {
  const withinGrace = sql`${refreshTokens.usedAt} > now() - make_interval(secs => ${REFRESH_GRACE_SECONDS})`;
  const [, [suspended], [again]] = await db.batch([
    db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(
        and(
          isNull(sessions.revokedAt),
          sql`${sessions.id} = (select ${refreshTokens.sessionId} from ${refreshTokens} where ${refreshTokens.tokenHash} = ${tokenHash} and ${refreshTokens.usedAt} <= now() - make_interval(secs => ${REFRESH_GRACE_SECONDS}))`,
        ),
      ),
    db
      .select({ status: users.status })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(refreshTokens.tokenHash, tokenHash),
          isNull(refreshTokens.usedAt),
          // Suspending revokes the account's sessions: the owner's next refresh still learns why, and is told whom to ask.
          ne(users.status, 'active'),
        ),
      ),
    db
      .select({ ...publicUserColumns, sessionId: sessions.id })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(eq(refreshTokens.tokenHash, tokenHash), withinGrace, isNull(sessions.revokedAt), gt(sessions.expiresAt, new Date()), eq(users.status, 'active')),
      ),
  ]);
  if (again) return issuePair(secret, again, successor);
  throw suspended ? accountSuspended() : refreshTokenInvalid();
}

export async function revokeSession(db: DbOrTx, sessionId: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

export async function revokeAllSessions(db: DbOrTx, userId: number): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
}

/**
 * Takes back every way into the account but the password: each sign-in (and so each refresh token) and,
 * unless the owner keeps them, each reseller API key. Returns the keys it stopped, for the email that says so.
 */
export async function revokeEveryWayIn(db: DbOrTx, userId: number, reason: KeyRevocationReason, keepApiKeys = false): Promise<RevokedKey[]> {
  await revokeAllSessions(db, userId);
  return keepApiKeys ? [] : revokeAllApiKeys(db, userId, reason);
}

export async function changePassword(db: Db, userId: number, input: ChangePasswordInput): Promise<RevokedKey[]> {
  const [row] = await db.select({ passwordHash: users.passwordHash, email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, userId));
  if (!row || !(await verifyPassword(input.oldPassword, row.passwordHash))) throw invalid('Current password is incorrect');
  if (input.oldPassword === input.password) throw invalid('New password must be different from the current one');
  assertHardToGuess(input.password, row);
  const passwordHash = await hashPassword(input.password);
  // Interactive only because revokeEveryWayIn runs its own statements; a rare call, not worth a batch form of it.
  return db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
    return revokeEveryWayIn(tx, userId, 'password_change', input.revokeApiKeys === false);
  });
}

/** Creates a single-use reset token for an active account; null when there is none (the caller answers the same either way). */
export async function createPasswordReset(db: DbOrTx, email: string): Promise<{ token: string; user: PublicUser } | null> {
  const [row] = await db
    .select(publicUserColumns)
    .from(users)
    .where(and(eq(users.email, email.toLowerCase()), eq(users.status, 'active')));
  if (!row) return null;
  const token = randomToken();
  await db.insert(passwordResets).values({
    tokenHash: await sha256Hex(token),
    userId: row.id,
    expiresAt: sql`now() + make_interval(mins => ${RESET_TOKEN_TTL_MINUTES})`,
  });
  return { token, user: toPublicUser(row) };
}

export const RESET_LINK_INVALID = 'This password reset link is invalid or has expired. Please request a new one.';

/** Whose password a link reset, and every key that stopped with it (the confirmation email lists them). */
export interface PasswordResetDone {
  user: { id: number; email: string; fullName: string };
  revokedKeys: RevokedKey[];
  /** An administrator's invitation link ('promote') made the account an administrator. */
  promoted: boolean;
}

export async function resetPassword(db: Db, token: string, password: string): Promise<PasswordResetDone> {
  const tokenHash = await sha256Hex(token);
  const usable = and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()));
  // Checked before the password is hashed: a guessed or spent link costs one lookup, never a PBKDF2 run.
  const [known] = await db
    .select({ email: users.email, fullName: users.fullName })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.userId))
    .where(usable);
  if (!known) throw unauthenticated(RESET_LINK_INVALID);
  assertHardToGuess(password, known);
  const passwordHash = await hashPassword(password);
  // Interactive: the password changes only if this call's update claimed the link.
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(usable)
      .returning({ userId: passwordResets.userId, purpose: passwordResets.purpose });
    if (!claimed) throw unauthenticated(RESET_LINK_INVALID);
    // An account suspended since the invitation still gets the password its mailbox chose, but not the role.
    const role =
      claimed.purpose === 'promote' ? { userType: sql<number>`case when ${users.status} = 'active' then ${USER_TYPE.admin} else ${users.userType} end` } : {};
    // The link came to the mailbox and was used, so the address is proven too.
    const [{ userType, ...user }] = await tx
      .update(users)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())`, updatedAt: new Date(), ...role })
      .where(eq(users.id, claimed.userId))
      .returning({ id: users.id, email: users.email, fullName: users.fullName, userType: users.userType });
    const promoted = claimed.purpose === 'promote' && userType === USER_TYPE.admin;
    // One link resets once: any other outstanding link for this user dies with it.
    await tx
      .update(passwordResets)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResets.userId, claimed.userId), isNull(passwordResets.usedAt)));
    const revokedKeys = await revokeEveryWayIn(tx, claimed.userId, promoted ? 'promotion' : 'password_reset');
    // No actor: the mailbox's owner accepted; the invitation's own entry (admin.invite_existing) names who invited.
    if (promoted)
      await recordAudit(tx, {
        actorId: null,
        action: 'admin.promote',
        target: { type: 'user', id: user.id },
        details: { email: user.email, through: 'invitation link' },
      });
    return { user, revokedKeys, promoted };
  });
}
