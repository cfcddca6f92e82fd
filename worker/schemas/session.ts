// Words and a header the Worker and the SPA's session code share. No zod here: the SPA's API client
// imports this file, and it is part of every page's first load.

/** Signing in or refreshing as a suspended person; the SPA shows it and clears the session. */
export const ACCOUNT_SUSPENDED = 'Your account is suspended. Contact support.';
export const ACCOUNT_SUSPENDED_ERROR = 'Account Suspended';

/**
 * The account a browser tab shows, sent with each of its private calls: a tab that missed a sign-in as
 * someone else in another tab is refused (409) instead of acting for the account now in storage.
 */
export const ACCOUNT_HEADER = 'X-Account-Id';
export const ACCOUNT_MISMATCH = 'This tab is signed in as a different account. Reload the page to continue.';
export const ACCOUNT_MISMATCH_ERROR = 'Account Mismatch';
