// The chosen service named in full on a phone (issue 28): at 390 px the card of the service picked on the
// order screen shows its whole name, wrapped over several lines, where it used to end "Instagram F…" and
// two services whose names differ only towards their end looked the same. The demo catalogue's
// "Instagram Followers [Real Mixed] [Refill 30D] [Max 100K] [Start 0-1H]" is such a name.
import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { newUserSignedIn, sharedBrowser } from './shop';

const browser = sharedBrowser();

describe('the chosen service on a phone', () => {
  it('shows its whole name, wrapped, inside the screen', async () => {
    const { context, page } = await newUserSignedIn(browser(), 'Ngozi Longname', PHONE);
    try {
      await page.goto('/user/create-order');
      await page.getByPlaceholder('Search services by name or ID').fill('Refill 30D');
      const option = page
        .getByRole('listbox', { name: 'Services' })
        .getByRole('option', { name: /Instagram Followers \[Real Mixed\] \[Refill 30D\]/ })
        .first();
      await option.waitFor();
      const optionName = option.locator('p').first();
      const full = ((await optionName.textContent()) ?? '').replace(/^#\d+\s*/, '');
      expect(full).toMatch(/^Instagram Followers \[Real Mixed\] \[Refill 30D\] \[Max 100K\] \[Start 0-1H\]/);
      await option.click();

      const name = page.locator('form p', { hasText: full }).first();
      await name.waitFor();
      await screenshot(page, 'order-chosen-service-phone');
      const seen = await name.evaluate((el) => {
        const box = el.getBoundingClientRect();
        const lineHeight = Number.parseFloat(getComputedStyle(el).lineHeight);
        return {
          text: el.textContent,
          // Nothing hidden: the text fits its box, which ends inside the screen, over more than one line.
          clipped: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
          right: box.right,
          lines: Math.round(box.height / lineHeight),
          pageWidth: document.documentElement.scrollWidth,
        };
      });
      expect(seen.text).toBe(full);
      expect(seen.clipped).toBe(false);
      expect(seen.right).toBeLessThanOrEqual(PHONE.width);
      expect(seen.lines).toBeGreaterThan(1);
      expect(seen.pageWidth).toBeLessThanOrEqual(PHONE.width);
      // The card's buttons are still there and inside the screen.
      const change = await page.getByRole('button', { name: 'Change' }).boundingBox();
      expect(change).not.toBeNull();
      expect(change!.x + change!.width).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await context.close();
    }
  });
});
