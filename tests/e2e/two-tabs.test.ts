// Two tabs of one browser share one session (localStorage), at phone width. A tab follows at once
// when another tab signs in as someone else or signs out, and tells why; a tab that missed the
// change is refused by the Worker (it names the account it shows) instead of spending the other
// account's wallet. A signed-in person opening the sign-in page lands in their own area.
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { encode } from '../../web/src/lib/session';
import { PHONE } from '../support/browser';
import { api, expectToast, fillFollowersOrder, newUser, newUserSignedIn, openPage, sharedBrowser, signIn, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();
let adminToken: string;

beforeAll(async () => {
  adminToken = await signInByApi(admin.email, admin.password);
});

/** Toasts show one at a time: a tab's second toast waits behind its first. */
const TAB_TOAST_WAIT = 15_000;

async function fundedUser(fullName: string) {
  const user = await newUser(fullName);
  const credit = await api('user/admin-credit-user-wallet', { token: adminToken, body: { amount: '5000', reference: unique('e2e-tabs-'), userId: user.id } });
  expect(credit.status, JSON.stringify(credit.body)).toBe(200);
  return user;
}

async function walletOf(user: { email: string; password: string }) {
  const token = await signInByApi(user.email, user.password);
  const balance = await api<{ walletBalance: number }>('user/getWalletBalance', { token });
  const orders = await api<{ total: number }>('user/orders', { token });
  return { balance: balance.body.walletBalance, orders: orders.body.total };
}

/**
 * What a sign-in in another tab leaves in the shared storage (the SPA's keys, the user encoded as it
 * stores it). The sign-in page no longer shows its form to a signed-in person, but a tab still open on
 * an older build of the SPA can sign in there, and the tabs only ever see what storage holds.
 */
async function signInFromAnotherTab(tab: Page, user: { email: string; password: string }) {
  const session = await api<{ accessToken: string; refreshToken: string; user: unknown }>('auth/login', {
    body: { email: user.email, password: user.password },
  });
  expect(session.status).toBe(200);
  await tab.evaluate(
    ([token, refreshToken, encodedUser]) => {
      localStorage.setItem('TOKEN', token);
      localStorage.setItem('REFRESH_TOKEN', refreshToken);
      localStorage.setItem('USER', encodedUser);
    },
    [session.body.accessToken, session.body.refreshToken, encode(session.body.user)] as const,
  );
}

/**
 * Chidi signed in on tab 1 with an order filled in, not placed. A deaf tab misses other tabs' news, as
 * a frozen or busy one can: its storage events are stopped before the SPA's listener hears them.
 */
async function chidiAboutToOrder(chidi: { email: string; password: string }, { deaf = false } = {}): Promise<{ context: BrowserContext; tab1: Page }> {
  const { context, page: tab1 } = await openPage(browser(), PHONE);
  if (deaf) await tab1.addInitScript(() => window.addEventListener('storage', (event) => event.stopImmediatePropagation()));
  await signIn(tab1, chidi, 'user');
  await fillFollowersOrder(tab1, 'https://www.instagram.com/e2e.two.tabs');
  return { context, tab1 };
}

describe('two tabs of one browser at phone width', () => {
  it('follow a sign-in as someone else in the other tab at once, and say so', async () => {
    const chidi = await fundedUser('Chidi Okeke');
    const bola = await fundedUser('Bola Adeyemi');
    const before = { chidi: await walletOf(chidi), bola: await walletOf(bola) };
    const { context, tab1 } = await chidiAboutToOrder(chidi);

    const tab2 = await context.newPage();
    // A signed-in person opening the sign-in page lands in their own area.
    await tab2.goto('/auth/login');
    await tab2.waitForURL(/\/user$/);
    const callAsBola = tab1.waitForRequest((request) => request.url().includes('/api/v1/user/') && request.headers()['x-account-id'] === String(bola.id));
    await signInFromAnotherTab(tab2, bola);

    await expectToast(tab1, 'Signed in as Bola Adeyemi in another tab.', TAB_TOAST_WAIT);
    await tab1.waitForURL(/\/user$/);
    // From then on the tab shows Bola and calls as Bola: its balance is fetched again, for Bola.
    await callAsBola;
    expect({ chidi: await walletOf(chidi), bola: await walletOf(bola) }).toEqual(before);
    await context.close();
  });

  it('refuse an order from a tab that missed the change, so it never charges the other account', async () => {
    const chidi = await fundedUser('Chidi Okeke');
    const bola = await fundedUser('Bola Adeyemi');
    const before = { chidi: await walletOf(chidi), bola: await walletOf(bola) };
    const { context, tab1 } = await chidiAboutToOrder(chidi, { deaf: true });

    const tab2 = await context.newPage();
    await tab2.goto('/');
    await signInFromAnotherTab(tab2, bola);

    // Tab 1 still shows Chidi's order form; storage holds Bola's token.
    await tab1.getByRole('button', { name: 'Place order' }).click();
    // Refused, and the refusal brings the tab up to date: it now shows Bola, and says both.
    await expectToast(tab1, 'Signed in as Bola Adeyemi in another tab.', TAB_TOAST_WAIT);
    await tab1.waitForURL(/\/user$/);
    await expectToast(tab1, 'This tab is signed in as a different account. Reload the page to continue.', TAB_TOAST_WAIT);
    expect({ chidi: await walletOf(chidi), bola: await walletOf(bola) }).toEqual(before);
    await context.close();
  });

  it('sign out together: signing out in one signs the other out', async () => {
    const { context, page: tab1 } = await newUserSignedIn(browser(), 'Chidi Okeke', PHONE);
    const tab2 = await context.newPage();
    await tab2.goto('/user/orders');
    await tab2.getByRole('button', { name: 'Account menu' }).click();
    await tab2.getByRole('menuitem', { name: 'Logout' }).click();
    await tab2.waitForURL('**/auth/login');

    await expectToast(tab1, 'Signed out in another tab.', TAB_TOAST_WAIT);
    await tab1.waitForURL('**/auth/login');
    await tab1.getByRole('button', { name: 'Sign In' }).waitFor();
    await context.close();
  });
});
