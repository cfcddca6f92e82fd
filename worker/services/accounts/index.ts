// Accounts: who may come in, and as whom. Registration, sign-in and sessions, passwords and their reset, email confirmation,
// two-factor sign-in, API keys, administrators and profiles, with the rate limits that guard them. The rest of the Worker calls what is exported here.
export { everyWayInRevoked } from './account-emails';
export { listUsers, orderCountsOf, setUserStatus } from './admin-users';
export { inviteAdministrator, promoteAdministrator, removeAdministrator } from './administrators';
export { type ApiCaller, apiCallerOf, apiCallerQuery, apiKeysQuery, apiKeysView, createApiKey, hashApiKey, revokeApiKey, rotateApiKey } from './api-keys';
export {
  changePassword,
  createPasswordReset,
  login,
  RESET_LINK_INVALID,
  RESET_TOKEN_TTL_MINUTES,
  refreshSession,
  registerUser,
  resetPassword,
  revokeSession,
} from './auth';
export { confirmEmail, resendEmailConfirmation, sendEmailConfirmation } from './email-verification';
export { liveCustomerSession, liveSession } from './live-session';
export { hashPassword } from './passwords';
export { countHits, enforceRateLimit, enforceRateLimits, type Meter, meterHit, type RateLimit, tooManyAttempts } from './rate-limit';
export { forgetQuietSignInFailures } from './sign-in-limits';
export { sendNewDeviceNotice } from './sign-in-notices';
export { REFRESH_TOKEN_TTL_DAYS, verifyAccessToken } from './tokens';
export { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, startTwoFactorSetup, twoFactorSetupRequiredSql, twoFactorStatus } from './two-factor';
export { getProfile, type PublicUser, publicUserColumns, toProfile, toPublicUser, updateProfile } from './users';
