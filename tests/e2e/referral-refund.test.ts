// A referral as two people on their phones live it, against the stack `npm start` runs: Ada shares her link,
// Bola signs up through it and funds her wallet in the sandbox checkout, Ada sees the commission pending; the
// operator refunds Bola's payment at the sandbox Paystack, and both are told: Bola that her deposit was taken
// back, Ada that the commission went with it, which her Referrals page no longer shows as pending.
import { expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, confirmAddress, fillDeposit, newUserSignedIn, openPage, sharedBrowser, signIn, signInByApi, unique } from './shop';

const browser = sharedBrowser();

it('a friend’s refunded deposit takes the referral commission back, and both people are told', async () => {
  const ada = await newUserSignedIn(browser(), 'Ada Lovelace', PHONE);
  await ada.page.goto('/user/referrals');
  const link = (await ada.page
    .getByText(/\/auth\/register\?ref=/)
    .first()
    .textContent())!.trim();
  expect(link).toMatch(/\/auth\/register\?ref=[A-Z2-9]{8}$/);

  const bola = await openPage(browser(), PHONE);
  const account = { email: `${unique('bola')}@example.com`, password: 'password-123' };
  await bola.page.goto(new URL(link).pathname + new URL(link).search);
  await bola.page.getByLabel('Full Name').fill('Bola Adeyemi');
  await bola.page.getByLabel('Email Address').fill(account.email);
  await bola.page.getByLabel('Password', { exact: true }).fill(account.password);
  await bola.page.getByLabel('Confirm Password').fill(account.password);
  await bola.page.getByRole('button', { name: 'Sign Up' }).click();
  await bola.page.waitForURL('**/auth/login');
  // Only a confirmed address triggers commission: Bola opens the link she was emailed.
  await confirmAddress(account.email);
  await signIn(bola.page, account, 'user');
  await fillDeposit(bola.page, '20000');
  await bola.page.getByRole('button', { name: 'Proceed to payment' }).click();
  await bola.page.waitForURL(/\/checkout\//);
  await bola.page.getByRole('button', { name: /^Pay/ }).click();
  await expect.poll(() => bola.page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);

  await ada.page.reload();
  await ada.page.getByText('Bola A.').filter({ visible: true }).first().waitFor();
  await ada.page
    .getByText(/1,000\.00 pending/)
    .filter({ visible: true })
    .first()
    .waitFor();
  await screenshot(ada.page, 'referrals-pending');

  // The operator refunds the payment at the sandbox Paystack, which sends refund.processed to the shop.
  const token = await signInByApi(account.email, account.password);
  const deposits = await api<{ data: Array<{ reference: string; source: string }> }>('user/transactions', { token });
  const reference = deposits.body.data.find((row) => row.source === 'payment')!.reference;
  const refunded = await fetch(`${inject('e2ePaystackUrl')}/__refund`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ reference }),
  });
  expect(refunded.status).toBe(200);

  await bola.page.reload();
  await bola.page.getByRole('button', { name: /^Notifications/ }).click();
  await bola.page.getByText('Deposit refunded').waitFor();
  await screenshot(bola.page, 'friend-told-of-refund');

  await ada.page.reload();
  await ada.page.getByText('Bola A.').filter({ visible: true }).first().waitFor();
  await expect
    .poll(
      () =>
        ada.page
          .getByText(/\d pending/)
          .filter({ visible: true })
          .count(),
      { timeout: 20_000 },
    )
    .toBe(0);
  await ada.page.getByRole('button', { name: /^Notifications/ }).click();
  await ada.page.getByText('Referral commission taken back').waitFor();
  await screenshot(ada.page, 'referrer-told-of-reversal');
  await Promise.all([ada.context.close(), bola.context.close()]);
});
