// Who administers the shop: promoting a user, inviting a new administrator by email (or, for an address
// that already has an account, emailing that mailbox a link that promotes it when used), and removing
// one. Each change revokes the person's sessions, so their new role applies from their next
// sign-in, and is audited in its own transaction. The shop never loses its last administrator.
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { passwordResets, users } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { sendEmail } from '../../providers/email';
import type { InviteAdministratorInput } from '../../schemas/admin';
import { recordAudit } from '../oversight';
import { siteNameOf } from '../settings';
import { promotionInvitationText } from './account-emails';
import { createPasswordReset, RESET_TOKEN_TTL_MINUTES, registerUser, revokeAllSessions, revokeEveryWayIn } from './auth';
import { type PublicUser, publicUserColumns, toPublicUser } from './users';

export const CANNOT_REMOVE_YOURSELF = 'You cannot remove your own administrator access. Ask another administrator to do it.';
export const LAST_ADMINISTRATOR = 'The last administrator cannot be removed. Promote or invite another administrator first.';
export const PROMOTE_UNVERIFIED =
  'This user has not confirmed their email address. Invite them by email instead: they become an administrator when they use the link.';
/** Long enough for someone away for a weekend; the link is only ever in their mailbox. */
export const PROMOTION_LINK_TTL_HOURS = 72;

export async function promoteAdministrator(db: Db, actorId: number, userId: number): Promise<PublicUser> {
  // Interactive: when the guarded update matches no one, reads the user to say why; sessions and audit follow only a promotion.
  return db.transaction(async (tx) => {
    const [promoted] = await tx
      .update(users)
      .set({ userType: USER_TYPE.admin, updatedAt: new Date() })
      // An unconfirmed address may have been registered by someone other than its owner, who would sign in as an administrator.
      .where(and(eq(users.id, userId), eq(users.userType, USER_TYPE.user), eq(users.status, 'active'), isNotNull(users.emailVerifiedAt)))
      .returning(publicUserColumns);
    if (!promoted) {
      const [existing] = await tx.select({ userType: users.userType, status: users.status }).from(users).where(eq(users.id, userId));
      if (!existing) throw notFound('User not found');
      if (existing.userType === USER_TYPE.admin) throw conflict('This user is already an administrator');
      if (existing.status !== 'active') throw conflict('This user is suspended. Reactivate them before making them an administrator.');
      throw conflict(PROMOTE_UNVERIFIED);
    }
    // Its keys go too: an administrator's keys answer nothing, and a later removal must not bring them back.
    await revokeEveryWayIn(tx, userId, 'promotion');
    await recordAudit(tx, { actorId, action: 'admin.promote', target: { type: 'user', id: userId }, details: { email: promoted.email } });
    return toPublicUser(promoted);
  });
}

/** What an invitation did: made a new administrator account, or emailed an existing account's mailbox a promotion link. */
export type Invitation = { made: PublicUser } | { linkSentTo: string };

/**
 * Makes an administrator account with a random password nobody knows and emails its owner a
 * set-password link (the password reset flow). The email is sent inside the transaction, so an
 * invitation that could not be sent leaves no account behind and can simply be tried again.
 * An address that already has an account is sent a promotion link instead: the account may have been
 * registered by someone other than the mailbox's owner, so only whoever reads that mailbox can accept.
 */
export async function inviteAdministrator(db: Db, env: Env, actor: { id: number; fullName: string }, input: InviteAdministratorInput): Promise<Invitation> {
  const email = input.email.toLowerCase();
  const [existing] = await db
    .select({ id: users.id, fullName: users.fullName, userType: users.userType, status: users.status })
    .from(users)
    .where(eq(users.email, email));
  if (existing) {
    if (existing.userType === USER_TYPE.admin) throw conflict('This person is already an administrator');
    if (existing.status !== 'active') throw conflict('This account is suspended. Reactivate it before inviting its owner to be an administrator.');
    await sendPromotionLink(db, env, actor, { id: existing.id, fullName: existing.fullName, email });
    return { linkSentTo: email };
  }
  // Interactive: the account, its reset link and the invitation email commit together, each using what the last made.
  const made = await db.transaction(async (tx) => {
    const invited = await registerUser(tx, { fullName: input.fullName, email, password: randomToken() }, USER_TYPE.admin);
    const reset = await createPasswordReset(tx, email);
    // The account was made a moment ago in this transaction, so the reset cannot be missing.
    const link = `${env.APP_URL}/reset-password?token=${encodeURIComponent(reset!.token)}`;
    const siteName = await siteNameOf(tx);
    await sendEmail(
      tx,
      env,
      {
        to: email,
        token: reset!.token,
        subject: `You are now an administrator of ${siteName}`,
        text: [
          `Hello ${input.fullName},`,
          '',
          `${actor.fullName} made you an administrator of ${siteName}. Choose your password with this link within ${RESET_TOKEN_TTL_MINUTES} minutes:`,
          link,
          '',
          `If the link has expired, use "Forgot password" on the login page with ${email} to get a new one.`,
        ].join('\n'),
      },
      siteName,
    );
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'admin.invite',
      target: { type: 'user', id: invited.id },
      details: { email, fullName: input.fullName },
    });
    return invited;
  });
  return { made };
}

/**
 * A 'promote' link to the account's mailbox: nothing changes until it is used (auth.ts resetPassword sets the
 * password, makes the account an administrator and revokes every way in). The link, email and audit commit together.
 */
async function sendPromotionLink(db: Db, env: Env, actor: { id: number; fullName: string }, account: { id: number; fullName: string; email: string }) {
  const token = randomToken();
  // Interactive: the email is sent between the link's row and the audit, so a failed send leaves neither.
  await db.transaction(async (tx) => {
    await tx.insert(passwordResets).values({
      tokenHash: await sha256Hex(token),
      userId: account.id,
      purpose: 'promote',
      expiresAt: sql`now() + make_interval(hours => ${PROMOTION_LINK_TTL_HOURS})`,
    });
    const siteName = await siteNameOf(tx);
    await sendEmail(
      tx,
      env,
      {
        to: account.email,
        token,
        subject: `Become an administrator of ${siteName}`,
        text: promotionInvitationText({
          fullName: account.fullName,
          email: account.email,
          invitedBy: actor.fullName,
          siteName,
          link: `${env.APP_URL}/reset-password?token=${encodeURIComponent(token)}`,
          ttlHours: PROMOTION_LINK_TTL_HOURS,
        }),
      },
      siteName,
    );
    await recordAudit(tx, { actorId: actor.id, action: 'admin.invite_existing', target: { type: 'user', id: account.id }, details: { email: account.email } });
  });
}

/**
 * Turns an administrator back into a user. Every administrator row is locked first (in id order,
 * so two removals cannot deadlock): two administrators removing each other at once are served one
 * after the other, and the second sees that the first already left no one else.
 */
export async function removeAdministrator(db: DbOrTx, actorId: number, userId: number): Promise<void> {
  if (userId === actorId) throw forbidden(CANNOT_REMOVE_YOURSELF);
  // Interactive: locks every administrator's row, then decides whether one would be left.
  await db.transaction(async (tx) => {
    const admins = await tx
      .select({ id: users.id, status: users.status })
      .from(users)
      .where(eq(users.userType, USER_TYPE.admin))
      .orderBy(asc(users.id))
      .for('update');
    if (!admins.some((admin) => admin.id === userId)) {
      const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
      throw existing ? conflict('This user is not an administrator') : notFound('User not found');
    }
    const remaining = admins.filter((admin) => admin.id !== userId && admin.status === 'active');
    if (remaining.length === 0) throw conflict(LAST_ADMINISTRATOR);
    // The caller's own access may have been removed by someone else a moment ago.
    if (!remaining.some((admin) => admin.id === actorId)) throw forbidden('You are no longer an administrator.');
    await tx.update(users).set({ userType: USER_TYPE.user, updatedAt: new Date() }).where(eq(users.id, userId));
    await revokeAllSessions(tx, userId);
    await recordAudit(tx, { actorId, action: 'admin.remove', target: { type: 'user', id: userId } });
  });
}
