import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import { USER_TYPE } from '../../../vocabulary';
import type { AppEnv } from '../../context';
import { publicAddress } from '../../lib/address';
import { randomToken, sha256Hex } from '../../lib/crypto';
import { describeError } from '../../lib/db-errors';
import { refreshTokenInvalid, unauthenticated } from '../../lib/errors';
import { validForm, validJson } from '../../lib/validation';
import { requireSignedIn, requireSignedInDuringTwoFactorSetup } from '../../middleware/auth';
import { forgotPasswordSchema, loginSchema, refreshSchema, registerSchema, resetPasswordSchema, verifyEmailSchema } from '../../schemas/auth';
import {
  confirmEmail,
  countHits,
  createPasswordReset,
  enforceRateLimits,
  everyWayInRevoked,
  login,
  type RateLimit,
  REFRESH_TOKEN_TTL_DAYS,
  RESET_LINK_INVALID,
  RESET_TOKEN_TTL_MINUTES,
  refreshSession,
  registerUser,
  resendEmailConfirmation,
  resetPassword,
  revokeSession,
  sendEmailConfirmation,
  sendNewDeviceNotice,
} from '../../services/accounts';
import { sendShopEmail } from '../../services/notifications';

const REFRESH_COOKIE = 'refresh_token';

const clientIp = (c: Context) => c.req.header('cf-connecting-ip') ?? 'unknown';

type Limit = Omit<RateLimit, 'key'>;

export const AUTH_LIMITS = {
  /**
   * Tight per account (an email at sign-up, a reset link): that is where a link is guessed. Wrong passwords
   * have limits of their own that a stranger cannot turn against the owner (services/accounts/sign-in-limits.ts).
   */
  perAccount: { limit: 10, windowSeconds: 60 },
  /**
   * Generous per address: most of our customers reach us from phones behind a mobile carrier's
   * shared address (carrier-grade NAT), so one address is thousands of people.
   */
  perAddress: { limit: 300, windowSeconds: 60 },
  /** Reset requests for one account from one address: a stranger's requests never hold back the owner's. */
  resetRequestsPerAccountAndAddress: { limit: 5, windowSeconds: 15 * 60 },
  /** Reset emails to one mailbox, whoever asks: within the minute the link just sent (still good) is there already. */
  resetEmailsPerMailbox: { limit: 1, windowSeconds: 60 },
} satisfies Record<string, Limit>;

/** Counts an attempt per address and per account, so neither can be hammered. */
const limitAttempts = <E extends AppEnv>(c: Context<E>, action: string, account: string, perAccount: Limit = AUTH_LIMITS.perAccount) =>
  enforceRateLimits(c.var.db, [
    { key: `${action}:ip:${clientIp(c)}`, ...AUTH_LIMITS.perAddress },
    { key: `${action}:${account}`, ...perAccount },
  ]);

function setRefreshCookie(c: Context<AppEnv>, token: string) {
  setCookie(c, REFRESH_COOKIE, token, {
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
    path: '/api/v1/auth',
    maxAge: REFRESH_TOKEN_TTL_DAYS * 86_400,
  });
}

const DEVICE_COOKIE = 'device';
const DEVICE_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The device cookie the browser sent, if it is one of ours. */
function sentDevice(c: Context<AppEnv>): string | null {
  const sent = getCookie(c, DEVICE_COOKIE);
  return sent && DEVICE_ID.test(sent) ? sent : null;
}

/**
 * The browser's own long-lived id, kept in an HttpOnly cookie (a cleared local storage keeps it): an account's
 * sign-up device, so that accounts made on one browser earn no referral commission from each other, and the
 * devices an account signed in from, which a stranger's guesses cannot block and which sign in without a notice.
 */
function deviceOf(c: Context<AppEnv>): string {
  const known = sentDevice(c);
  if (known) return known;
  const made = randomToken(18);
  setCookie(c, DEVICE_COOKIE, made, { httpOnly: true, secure: true, sameSite: 'Lax', path: '/api/v1/auth', maxAge: 400 * 86_400 });
  return made;
}

/** The emailed token the reset call bears, refused or counted before the form is read. */
const resetLinkToken = createMiddleware<AppEnv & { Variables: { resetToken: string } }>(async (c, next) => {
  const token = /^Bearer\s+(\S{1,200})$/i.exec(c.req.header('authorization') ?? '')?.[1];
  if (!token) throw unauthenticated(RESET_LINK_INVALID);
  // Per address and per link (by its hash: rate_limits never holds a usable token), so links can be neither guessed nor hammered.
  await limitAttempts(c, 'reset', `token:${await sha256Hex(token)}`);
  c.set('resetToken', token);
  await next();
});

export const authRoutes = new Hono<AppEnv>()
  .post('/register', validJson(registerSchema), async (c) => {
    const input = c.req.valid('json');
    await limitAttempts(c, 'register', `email:${input.email.toLowerCase()}`);
    const user = await registerUser(c.var.db, input, USER_TYPE.user, {
      ip: publicAddress(c.req.header('cf-connecting-ip')),
      device: deviceOf(c),
    });
    // The account exists whatever the mailbox does: a link that could not be sent is asked for again once signed in.
    await sendEmailConfirmation(c.var.db, c.env, user).catch((error) =>
      c.var.log.warn('email confirmation not sent at registration', { userId: user.id, error: describeError(error) }),
    );
    return c.json({ message: 'Account created successfully', user }, 201);
  })
  .post('/verify-email', validJson(verifyEmailSchema), async (c) => {
    const { token } = c.req.valid('json');
    // Per address and per link (by its hash: rate_limits never holds a usable token), as for reset links.
    await limitAttempts(c, 'verify-email', `token:${await sha256Hex(token)}`);
    await confirmEmail(c.var.db, token);
    return c.json({ message: 'Email address confirmed' });
  })
  .post('/resend-verification', requireSignedIn, async (c) => {
    await resendEmailConfirmation(c.var.db, c.env, c.var.principal);
    return c.json({ message: `We emailed a new confirmation link to ${c.var.principal.email}.` });
  })
  .post('/login', validJson(loginSchema), async (c) => {
    const input = c.req.valid('json');
    const client = { ip: clientIp(c), userAgent: c.req.header('user-agent') ?? null, deviceCookieSent: sentDevice(c) !== null, device: deviceOf(c) };
    const { fromNewDevice, ...session } = await login(c.var.db, c.env, input, client, { key: `login:ip:${client.ip}`, ...AUTH_LIMITS.perAddress });
    if (fromNewDevice) {
      // The sign-in stands whatever the mailbox does.
      await sendNewDeviceNotice(c.var.db, c.env, session.user, client).catch((error) =>
        c.var.log.error('new sign-in notice not sent', { userId: session.user.id, error: describeError(error) }),
      );
    }
    setRefreshCookie(c, session.refreshToken);
    return c.json({ ...session, message: 'Login successful' });
  })
  .post('/refresh', validJson(refreshSchema), async (c) => {
    const body = c.req.valid('json');
    const token = body.refreshToken ?? getCookie(c, REFRESH_COOKIE);
    if (!token) throw refreshTokenInvalid();
    const session = await refreshSession(c.var.db, c.env.JWT_SECRET, token);
    setRefreshCookie(c, session.refreshToken);
    return c.json({ ...session, message: 'Token refreshed' });
  })
  .post('/logout', requireSignedInDuringTwoFactorSetup, async (c) => {
    await revokeSession(c.var.db, c.var.principal.sessionId);
    deleteCookie(c, REFRESH_COOKIE, { path: '/api/v1/auth', secure: true });
    return c.json({ message: 'Logout successfully' });
  })
  .post('/forgot-password', validJson(forgotPasswordSchema), async (c) => {
    const { email } = c.req.valid('json');
    const mailbox = email.toLowerCase();
    await limitAttempts(c, 'forgot', `email:${mailbox}:ip:${clientIp(c)}`, AUTH_LIMITS.resetRequestsPerAccountAndAddress);
    // Counted only once the asker may ask: a refused request never holds back the next email.
    const sentWithinTheMinute = (await countHits(c.var.db, [{ key: `reset-email:${mailbox}`, ...AUTH_LIMITS.resetEmailsPerMailbox }])).rows.length > 0;
    const reset = sentWithinTheMinute ? null : await createPasswordReset(c.var.db, email);
    if (reset) {
      const link = `${c.env.APP_URL}/reset-password?token=${encodeURIComponent(reset.token)}`;
      await sendShopEmail(c.var.db, c.env, {
        to: reset.user.email,
        token: reset.token,
        subject: 'Reset your password',
        text: `Hello ${reset.user.fullName},\n\nUse this link within ${RESET_TOKEN_TTL_MINUTES} minutes to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this email.`,
      });
    }
    return c.json({ message: 'If an account exists for that email, a password reset link has been sent.' });
  })
  // The spec's temporary-token call: form-encoded, with the emailed token as the bearer.
  .post('/reset-password', resetLinkToken, validForm(resetPasswordSchema), async (c) => {
    const { password } = c.req.valid('form');
    const done = await resetPassword(c.var.db, c.var.resetToken, password);
    // The password is changed whatever the mailbox does: a failed notice is logged, never answered as a failed reset.
    await sendShopEmail(c.var.db, c.env, {
      to: done.user.email,
      subject: done.promoted ? 'You are now an administrator' : 'Your password was changed',
      text: everyWayInRevoked(
        done.user.fullName,
        done.promoted
          ? 'You used the invitation link we emailed you: your password was set and your account is now an administrator.'
          : 'Your password was reset with the link we emailed you.',
        done.revokedKeys,
      ),
    }).catch((error) => c.var.log.error('password reset notice not sent', { userId: done.user.id, error: describeError(error) }));
    return c.json({
      message: done.promoted
        ? 'Password set. Your account is now an administrator: please log in with your new password.'
        : 'Password reset successfully. Please log in with your new password.',
    });
  });
