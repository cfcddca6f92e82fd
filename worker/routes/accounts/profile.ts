// The caller's own account: under user/ as the spec names the calls, open to both user types
// (administrators edit their own profile and password from account settings).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { describeError } from '../../lib/db-errors';
import { validJson } from '../../lib/validation';
import { requireSignedIn, requireSignedInDuringTwoFactorSetup } from '../../middleware/auth';
import { changePasswordSchema, updateProfileSchema } from '../../schemas/auth';
import { changePassword, everyWayInRevoked, toProfile, updateProfile } from '../../services/accounts';
import { sendShopEmail } from '../../services/notifications';

export const profileRoutes = new Hono<AppEnv>()
  .get('/getCurrentProfile', requireSignedInDuringTwoFactorSetup, (c) => {
    const { sessionId: _session, balanceKobo, debtKobo: _debt, twoFactorSetupRequired, ...user } = c.var.principal;
    return c.json({ message: 'Profile fetched successfully', data: { ...toProfile(user, balanceKobo), twoFactorSetupRequired } });
  })
  .put('/updateProfile', requireSignedIn, validJson(updateProfileSchema), async (c) => {
    const input = c.req.valid('json');
    const data = await updateProfile(c.var.db, c.var.principal.id, input);
    return c.json({ message: 'Profile updated successfully', data });
  })
  .put('/changePassword', requireSignedIn, validJson(changePasswordSchema), async (c) => {
    const input = c.req.valid('json');
    const { fullName, email } = c.var.principal;
    const revokedKeys = await changePassword(c.var.db, c.var.principal.id, input);
    // Changed whatever the mailbox does: a failed notice is logged, never answered as a failed change.
    await sendShopEmail(c.var.db, c.env, {
      to: email,
      subject: 'Your password was changed',
      text: everyWayInRevoked(fullName, 'Your password was changed from your profile.', revokedKeys),
    }).catch((error) => c.var.log.error('password change notice not sent', { userId: c.var.principal.id, error: describeError(error) }));
    return c.json({ message: 'Password updated successfully', revokedKeys });
  });
