import { isApiError } from './api';

/**
 * The `code` a refusal names for the SPA to act on (`email_unverified`, `two_factor_setup_required`),
 * apart from its message, which is for people and may change.
 */
export function apiErrorCode(error: unknown): string | null {
  if (!isApiError(error) || !error.data || typeof error.data !== 'object') return null;
  const { code } = error.data as { code?: unknown };
  return typeof code === 'string' ? code : null;
}
