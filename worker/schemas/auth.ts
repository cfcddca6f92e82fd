// Request-body schemas shared by the Worker (validation) and the SPA (forms),
// so a form and its endpoint cannot drift apart. Messages are the spec's, to the letter.

import { EMAIL_PATTERN } from './common';
import { referralCodeField } from './referrals';
import { z } from './zod';

export const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
const PASSWORD_TOO_LONG = 'Password must be at most 128 characters';

const requiredText = (message: string) => z.string({ error: message }).trim().min(1, { error: message });

export const emailField = requiredText('Email is required')
  .max(254, { error: 'Invalid email address' })
  .regex(EMAIL_PATTERN, { error: 'Invalid email address' });

export const newPasswordField = z
  .string({ error: 'Password is required' })
  .min(1, { error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, { error: PASSWORD_TOO_SHORT })
  .max(128, { error: PASSWORD_TOO_LONG });

/** The Worker's refusal of a new password that zxcvbn rates easy to guess (services/accounts/passwords.ts); the SPA shows it under the field. */
export const PASSWORD_TOO_GUESSABLE = 'This password is too common or easy to guess. Try a longer phrase or add unusual words.';

/** The `error` of a login that needs the authenticator code; the SPA then asks for it. */
export const TWO_FACTOR_REQUIRED = 'Two-factor code required';

export const twoFactorCodeField = z
  .string({ error: 'Enter the 6-digit code' })
  .trim()
  .regex(/^\d{6}$/, { error: 'Enter the 6-digit code' });

/** At sign-in the authenticator's code, or one of the recovery codes (two groups of five letters and digits) instead. */
export const loginCodeField = z
  .string({ error: 'Enter the 6-digit code or a recovery code' })
  .trim()
  .regex(/^(\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/i, { error: 'Enter the 6-digit code or a recovery code' });

export const loginSchema = z.object({
  email: emailField,
  password: z.string({ error: 'Password is required' }).min(1, { error: 'Password is required' }).max(128, { error: PASSWORD_TOO_LONG }),
  /** Only for accounts with two-factor sign-in on; the server asks for it when needed. */
  code: loginCodeField.optional(),
});

export const twoFactorCodeSchema = z.object({ code: twoFactorCodeField });
export type LoginInput = z.infer<typeof loginSchema>;

export const registerSchema = z.object({
  fullName: requiredText('Full name is required').max(100, { error: 'Full name must be at most 100 characters' }),
  email: emailField,
  password: newPasswordField,
  // Accepted for compatibility with the spec's payload; the server always makes type 2.
  userType: z.unknown().optional(),
  /** From a referral link (/auth/register?ref=CODE); an unknown or malformed code is ignored. */
  referralCode: referralCodeField,
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The registration form adds a confirmation the server never sees. */
export const registerFormSchema = registerSchema
  .omit({ userType: true })
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.password === v.confirmPassword, { path: ['confirmPassword'], error: 'Passwords do not match' });
export type RegisterFormInput = z.infer<typeof registerFormSchema>;

export const updateProfileSchema = z.object({
  fullName: requiredText('Full name is required').max(100, { error: 'Full name must be at most 100 characters' }),
  username: requiredText('Username is required')
    .max(30, { error: 'Username must be at most 30 characters' })
    .regex(/^[a-zA-Z0-9_.]+$/, { error: 'Username may contain only letters, digits, dots and underscores' }),
  email: emailField,
});
export type UpdateProfileInput = z.infer<typeof updateProfileSchema>;

export const changePasswordSchema = z.object({
  oldPassword: z.string({ error: 'All fields are required' }).min(1, { error: 'All fields are required' }),
  password: z
    .string({ error: 'All fields are required' })
    .min(1, { error: 'All fields are required' })
    .min(PASSWORD_MIN_LENGTH, { error: PASSWORD_TOO_SHORT })
    .max(128, { error: PASSWORD_TOO_LONG }),
  /** Whether the account's reseller API keys stop too, as after a reset; on unless the person unticks it. */
  revokeApiKeys: z.boolean({ error: 'revokeApiKeys must be true or false' }).default(true),
});
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

/** The password tab: all three required first, then the match, as the spec orders them. */
export const changePasswordFormSchema = z
  .object({ oldPassword: z.string(), password: z.string(), confirmPassword: z.string() })
  .refine((v) => v.oldPassword !== '' && v.password !== '' && v.confirmPassword !== '', { error: 'All fields are required', path: ['oldPassword'] })
  .refine((v) => v.password === v.confirmPassword, { error: 'Passwords do not match', path: ['confirmPassword'] })
  .refine((v) => v.password.length >= PASSWORD_MIN_LENGTH, { error: PASSWORD_TOO_SHORT, path: ['password'] });

export const forgotPasswordSchema = z.object({ email: emailField });
export const resetPasswordSchema = z.object({ password: newPasswordField });
/** The token of a confirmation link (/verify-email?token=...), which the page posts as it is. */
export const verifyEmailSchema = z.object({
  token: z.string({ error: 'token is required' }).trim().min(1, { error: 'token is required' }).max(200, { error: 'token must be at most 200 characters' }),
});
export const refreshSchema = z.object({ refreshToken: z.string().min(1).max(200).optional() });
