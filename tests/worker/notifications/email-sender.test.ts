// Emails name the shop and write money as the pages do: the sender is EMAIL_FROM or one named after
// the site name, every email is signed with it, and amounts read "NGN 5,000.00" as on every screen.
import { describe, expect, it } from 'vitest';
import { formatNaira } from '../../../worker/lib/decimal';
import { emailSender, signedText } from '../../../worker/providers/email';
import { getSiteSettings } from '../../../worker/services/settings';
import { call, registerAndLogin, withDb } from '../../support/api';
import { mailsTo } from '../fixtures/mailbox';

/** How the SPA writes money (web/src/lib/moneyFormat.ts formatAmount). */
const pages = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'NGN', minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('money in the bell and emails', () => {
  it('is written exactly as the pages write it', () => {
    expect(formatNaira(500_000n)).toBe('NGN\u00a05,000.00');
    for (const kobo of [0n, 5n, 99n, 123_450n, 100_000_000n, 123_456_789_012n, -5n, -123_450n]) {
      expect(formatNaira(kobo)).toBe(
        pages.format(
          `${kobo < 0n ? '-' : ''}${(kobo < 0n ? -kobo : kobo) / 100n}.${String((kobo < 0n ? -kobo : kobo) % 100n).padStart(2, '0')}` as `${number}`,
        ),
      );
    }
  });
});

describe('the email sender', () => {
  const appUrl = 'https://boost.example.ng';

  it('is EMAIL_FROM when it is configured', () => {
    expect(emailSender({ EMAIL_FROM: 'Boost NG <hello@boost.example.ng>', APP_URL: appUrl }, 'Boost NG')).toBe('Boost NG <hello@boost.example.ng>');
  });

  it('without EMAIL_FROM, is no-reply at the shop host, named after the site', () => {
    expect(emailSender({ APP_URL: appUrl }, 'Boost NG')).toBe('"Boost NG" <no-reply@boost.example.ng>');
    expect(emailSender({ EMAIL_FROM: ' ', APP_URL: 'http://localhost:8787' }, 'Boost NG')).toBe('"Boost NG" <no-reply@localhost>');
  });

  it('keeps a site name with quotes or line breaks to one safe header', () => {
    expect(emailSender({ APP_URL: appUrl }, 'Ada "Boost"\r\nBcc: x@y.z')).toBe('"Ada \\"Boost\\" Bcc: x@y.z" <no-reply@boost.example.ng>');
  });

  it('signs the text with the site name', () => {
    expect(signedText('Hello.\n\n', 'Boost NG')).toBe('Hello.\n\n— Boost NG');
  });

  it('sends a real email from the site name and signs it', async () => {
    const account = await registerAndLogin();
    await call('auth/forgot-password', { body: { email: account.email } });
    const siteName = (await withDb((db) => getSiteSettings(db))).siteName;
    const mail = (await mailsTo(account.email)).at(-1)!;
    expect(mail.subject).toBe('Reset your password');
    expect(mail.from).toBe(`"${siteName}" <no-reply@localhost>`);
    expect(mail.text.endsWith(`\n\n— ${siteName}`)).toBe(true);
    expect(mail.text).toContain('reset-password?token=');
  });
});
