// Whether this tab's session is the account's first sign-in (the login answer says so): the pages then
// greet a newcomer instead of saying "Welcome back". Per tab, so a later sign-in elsewhere is not a first.
const KEY = 'firstSignIn';

export function noteSignIn(userId: number, firstSignIn: boolean): void {
  try {
    if (firstSignIn) window.sessionStorage.setItem(KEY, String(userId));
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // Storage blocked: the usual greeting is shown.
  }
}

export function isFirstSignIn(userId: number | null | undefined): boolean {
  try {
    return userId !== null && userId !== undefined && window.sessionStorage.getItem(KEY) === String(userId);
  } catch {
    return false;
  }
}
