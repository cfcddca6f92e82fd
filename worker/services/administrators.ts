// Who administers the shop: promoting a user, inviting a new administrator by email, and removing
// one. Each change revokes the person's sessions, so their new role applies from their next
// sign-in, and is audited in its own transaction. The shop never loses its last administrator.
import { and, asc, eq } from 'drizzle-orm';
import { USER_TYPE, users } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import type { Env } from '../env';
import { randomToken } from '../lib/crypto';
import { conflict, forbidden, notFound } from '../lib/errors';
import { sendEmail } from '../providers/email';
import type { InviteAdministratorInput } from '../schemas/admin';
import { recordAudit } from './audit';
import { createPasswordReset, RESET_TOKEN_TTL_MINUTES, registerUser, revokeAllSessions } from './auth';
import { getSiteSettings } from './settings';
import { type PublicUser, publicUserColumns, toPublicUser } from './users';

export const CANNOT_REMOVE_YOURSELF = 'You cannot remove your own administrator access. Ask another administrator to do it.';
export const LAST_ADMINISTRATOR = 'The last administrator cannot be removed. Promote or invite another administrator first.';

export async function promoteAdministrator(db: Db, actorId: number, userId: number): Promise<PublicUser> {
  // Interactive: when the guarded update matches no one, reads the user to say why; sessions and audit follow only a promotion.
  return db.transaction(async (tx) => {
    const [promoted] = await tx
      .update(users)
      .set({ userType: USER_TYPE.admin, updatedAt: new Date() })
      .where(and(eq(users.id, userId), eq(users.userType, USER_TYPE.user), eq(users.status, 'active')))
      .returning(publicUserColumns);
    if (!promoted) {
      const [existing] = await tx.select({ userType: users.userType }).from(users).where(eq(users.id, userId));
      if (!existing) throw notFound('User not found');
      if (existing.userType === USER_TYPE.admin) throw conflict('This user is already an administrator');
      throw conflict('This user is suspended. Reactivate them before making them an administrator.');
    }
    await revokeAllSessions(tx, userId);
    await recordAudit(tx, { actorId, action: 'admin.promote', target: { type: 'user', id: userId }, details: { email: promoted.email } });
    return toPublicUser(promoted);
  });
}

/**
 * Makes an administrator account with a random password nobody knows and emails its owner a
 * set-password link (the password reset flow). The email is sent inside the transaction, so an
 * invitation that could not be sent leaves no account behind and can simply be tried again.
 */
export async function inviteAdministrator(db: Db, env: Env, actor: { id: number; fullName: string }, input: InviteAdministratorInput): Promise<PublicUser> {
  const email = input.email.toLowerCase();
  const [existing] = await db.select({ userType: users.userType }).from(users).where(eq(users.email, email));
  if (existing) {
    throw conflict(
      existing.userType === USER_TYPE.admin ? 'This person is already an administrator' : 'This email already has an account: promote that user instead',
    );
  }
  // Interactive: the account, its reset link and the invitation email commit together, each using what the last made.
  return db.transaction(async (tx) => {
    const invited = await registerUser(tx, { fullName: input.fullName, email, password: randomToken() }, USER_TYPE.admin);
    const reset = await createPasswordReset(tx, email);
    // The account was made a moment ago in this transaction, so the reset cannot be missing.
    const link = `${env.APP_URL}/reset-password?token=${encodeURIComponent(reset!.token)}`;
    const { siteName } = await getSiteSettings(tx);
    await sendEmail(tx, env, {
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
    });
    await recordAudit(tx, {
      actorId: actor.id,
      action: 'admin.invite',
      target: { type: 'user', id: invited.id },
      details: { email, fullName: input.fullName },
    });
    return invited;
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
