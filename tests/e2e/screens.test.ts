// Every screen at phone and desktop widths: it renders without a script error or a stray 404,
// and leaves a screenshot in test-results/screenshots/ to look at. On a 1366x768 laptop, with long
// names, emails, links and large amounts in the data, every admin table fits without scrolling
// sideways with its Status and actions in view, and the dashboard's figures and chart labels are
// whole; on a phone a long site name and a long URL in About Us push nothing off the screen.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, eachAreaAtBothWidths, MAIN_SCREENS, newUser, newUserSignedIn, openPage, sharedBrowser, signedInPage, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();

/** The main screens, and the administrators' team and own account besides. */
const SCREENS = { ...MAIN_SCREENS, admin: [...MAIN_SCREENS.admin, '/admin/administrators', '/admin/account-settings'] };

async function tour(page: Page, paths: string[]) {
  const scriptErrors: string[] = [];
  page.on('pageerror', (error) => scriptErrors.push(`${page.url()}: ${error.message}`));
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('404 Not Found').count(), path).toBe(0);
    await screenshot(page, `screen${path === '/' ? '-home' : path.replace(/\//g, '-')}`);
  }
  expect(scriptErrors).toEqual([]);
}

describe('every screen', () => {
  eachAreaAtBothWidths(browser, SCREENS, tour);
});

const LAPTOP = { width: 1366, height: 768 };

interface TableReport {
  tables: number;
  withStatus: number;
  problems: string[];
}

/** Every visible table: its scroll container does not scroll sideways, and its Status header and buttons are inside the viewport. */
async function tablesThatDoNotFit(page: Page): Promise<TableReport> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const visible = (el: Element) => el.getClientRects().length > 0;
    const offScreen = (el: Element) => {
      const box = el.getBoundingClientRect();
      return box.left < 0 || box.right > width + 0.5;
    };
    const problems: string[] = [];
    let withStatus = 0;
    const tables = [...document.querySelectorAll('table')].filter(visible);
    for (const table of tables) {
      const name = table.querySelector('caption')?.textContent ?? 'a table';
      let scroller: HTMLElement = table.parentElement!;
      for (let el: HTMLElement | null = table.parentElement; el; el = el.parentElement) {
        if (['auto', 'scroll'].includes(getComputedStyle(el).overflowX)) {
          scroller = el;
          break;
        }
      }
      if (scroller.scrollWidth > scroller.clientWidth) problems.push(`${name} scrolls sideways: ${scroller.scrollWidth} > ${scroller.clientWidth}`);
      const status = [...table.querySelectorAll('th')].find((th) => visible(th) && th.textContent?.trim().toLowerCase() === 'status');
      if (status) {
        withStatus += 1;
        if (offScreen(status)) problems.push(`${name}: Status header off screen`);
      }
      for (const action of table.querySelectorAll('tbody button, tbody a.btn-sm')) {
        if (visible(action) && offScreen(action)) problems.push(`${name}: "${action.getAttribute('aria-label') ?? action.textContent}" off screen`);
      }
    }
    if (document.documentElement.scrollWidth > width) problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
    return { tables: tables.length, withStatus, problems };
  });
}

async function expectTablesFit(page: Page, name: string, expected: { tables: number; withStatus: number }) {
  await page.locator('table:visible tbody tr').first().waitFor();
  await page.waitForLoadState('networkidle');
  await screenshot(page, `fit-${name}`);
  const report = await tablesThatDoNotFit(page);
  expect(report.problems, name).toEqual([]);
  expect({ tables: report.tables, withStatus: report.withStatus }, name).toEqual(expected);
}

/** Whatever in the first <header> can be clicked lies inside the viewport, and the page does not scroll sideways. */
async function expectHeaderFits(page: Page, where: string) {
  const report = await page.evaluate(() => {
    const width = window.innerWidth;
    const header = document.querySelector('header');
    const off = [...(header?.querySelectorAll('a, button') ?? [])]
      .filter((el) => el.getClientRects().length > 0)
      .filter((el) => el.getBoundingClientRect().right > width + 0.5 || el.getBoundingClientRect().left < -0.5)
      .map((el) => el.getAttribute('aria-label') ?? el.textContent);
    return { off, pageWidth: document.documentElement.scrollWidth, width };
  });
  expect(report.off, where).toEqual([]);
  expect(report.pageWidth, where).toBeLessThanOrEqual(report.width);
}

/** The dashboard's figures are never cut, and the money axis is as wide as its longest label ("800.0K" whole, not "300.0K"). */
async function expectDashboardWhole(page: Page, name: string) {
  const ticks = page.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value');
  await ticks.first().waitFor();
  await page.waitForLoadState('networkidle');
  const figures = await page.locator('section[aria-label="Totals"] .card p.tabular-nums').evaluateAll((values) =>
    values.map((p) => ({
      text: p.textContent,
      cut: p.scrollWidth > p.clientWidth || p.getBoundingClientRect().right > p.closest('.card')!.getBoundingClientRect().right,
    })),
  );
  // Deposits hold the large credit (and whatever other tests deposited).
  expect(Number(figures[0].text?.replace(/[^\d.]/g, '')), JSON.stringify(figures)).toBeGreaterThanOrEqual(987_654_321);
  expect(figures.filter((f) => f.cut)).toEqual([]);
  const axisLabels = () =>
    ticks.evaluateAll((labels) =>
      labels.map((label) => ({
        text: label.textContent ?? '',
        inside: label.getBoundingClientRect().left >= label.closest('svg')!.getBoundingClientRect().left - 0.5,
      })),
    );
  await expect.poll(async () => (await axisLabels()).filter((label) => !label.inside)).toEqual([]);
  const labels = (await axisLabels()).map((label) => label.text);
  expect(
    labels.every((label) => /^-?\d+(\.\d)?[KMBT]?$/.test(label)),
    labels.join(' '),
  ).toBe(true);
  expect(
    labels.some((label) => /[MB]$/.test(label)),
    labels.join(' '),
  ).toBe(true);
  await screenshot(page, name);
  expect((await tablesThatDoNotFit(page)).problems).toEqual([]);
}

describe('admin screens on a 1366x768 laptop', () => {
  // Data as wide as it gets: a long name and email, a large balance, a long order link.
  const suffix = unique('');
  let customer: Awaited<ReturnType<typeof newUser>>;
  beforeAll(async () => {
    customer = await newUser(`Chukwuemekaoluwaseun Adebayo-Okonkwo Ifeanyichukwu ${suffix}`);
    const adminToken = await signInByApi(admin.email, admin.password);
    const credited = await api('user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: '987654321.00', reference: `Layout check ${suffix}`, userId: customer.id },
    });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);
    const likes = await api<{ data: Array<{ id: number; type: string; platform: string; min: number }> }>('services?search=Likes&limit=100');
    const service = likes.body.data.find((s) => s.platform === 'Instagram' && s.type === 'Default')!;
    const link = `https://www.instagram.com/p/${'averyveryverylongpostidentifier'.repeat(4)}${suffix}`;
    const placed = await api('user/orders', { token: customer.token, body: { serviceId: service.id, link, quantity: Math.max(service.min, 100) } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  });

  it('fit every table without scrolling sideways, with Status and the actions in view', async () => {
    const { context, page } = await signedInPage(browser(), admin, 'admin', LAPTOP);
    const screens: Array<[string, string, { tables: number; withStatus: number }]> = [
      [`/admin/users?search=${encodeURIComponent(customer.email)}`, 'admin-users', { tables: 1, withStatus: 1 }],
      ['/admin/users', 'admin-users-all', { tables: 1, withStatus: 1 }],
      ['/admin/administrators', 'admin-administrators', { tables: 1, withStatus: 1 }],
      ['/admin/services', 'admin-services', { tables: 1, withStatus: 0 }],
      ['/admin/services?tab=categories', 'admin-categories', { tables: 1, withStatus: 0 }],
      ['/admin/services?tab=pricing', 'admin-pricing', { tables: 1, withStatus: 0 }],
      ['/admin/orders', 'admin-orders', { tables: 1, withStatus: 1 }],
      ['/admin/transactions', 'admin-transactions', { tables: 1, withStatus: 0 }],
    ];
    for (const [path, name, expected] of screens) {
      await page.goto(path);
      await expectTablesFit(page, name, expected);
    }

    // The user's page, each tab.
    await page.goto(`/admin/users?search=${encodeURIComponent(customer.email)}`);
    await page
      .getByRole('table', { name: 'Users' })
      .getByRole('button', { name: `Manage ${customer.fullName}` })
      .click();
    await page.waitForURL('**/admin/manage-user');
    await expectTablesFit(page, 'admin-user-overview', { tables: 1, withStatus: 1 });
    await page.getByRole('tab', { name: 'Wallet' }).click();
    await expectTablesFit(page, 'admin-user-wallet', { tables: 1, withStatus: 0 });
    await page.getByRole('tab', { name: 'Orders' }).click();
    await expectTablesFit(page, 'admin-user-orders', { tables: 1, withStatus: 1 });

    // The full audit log: a list in a dialog, which must not scroll sideways either.
    await page.goto('/admin/dashboard');
    await page.getByRole('region', { name: 'Recent changes' }).getByRole('listitem').first().waitFor();
    await page.getByRole('button', { name: 'Full audit log' }).click();
    const log = page.getByRole('dialog', { name: 'Audit log' });
    await log.getByRole('listitem').first().waitFor();
    await screenshot(page, 'fit-admin-audit-log');
    expect(await log.evaluate((dialog) => dialog.scrollWidth <= dialog.clientWidth)).toBe(true);
    await context.close();
  }, 240_000);

  it('show whole amounts and chart labels on the dashboard, on a laptop and on a phone', async () => {
    for (const viewport of [LAPTOP, PHONE]) {
      const { context, page } = await signedInPage(browser(), admin, 'admin', viewport);
      await page.goto('/admin/dashboard');
      await expectDashboardWhole(page, 'fit-admin-dashboard');
      await context.close();
    }
  }, 240_000);
});

describe('long site settings on a phone', () => {
  it('keep the public, user and admin headers on screen and wrap a long URL in About Us', async () => {
    const adminToken = await signInByApi(admin.email, admin.password);
    const before = (await api<{ data: Record<string, unknown> }>('admin/settings/site', { token: adminToken })).body.data;
    const siteName = 'Lagos Growth Marketing Agency International Premium Social Media Services Panel'.slice(0, 80);
    const url = `https://example.com/${'a-very-long-path-segment-without-spaces-'.repeat(6)}end`;
    const saved = await api('admin/settings/site', {
      method: 'PUT',
      token: adminToken,
      body: { ...before, siteName, aboutUs: `Read all about us at ${url} and come back.` },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    try {
      const visitor = await openPage(browser(), PHONE);
      await visitor.page.goto('/about-us');
      await visitor.page.getByText(url, { exact: false }).waitFor();
      await screenshot(visitor.page, 'long-site-name-about');
      await expectHeaderFits(visitor.page, 'public header');
      const about = visitor.page.getByText(url, { exact: false });
      expect(await about.evaluate((p) => p.scrollWidth <= p.clientWidth)).toBe(true);
      await visitor.context.close();

      const user = await newUserSignedIn(browser(), 'Phone Header', PHONE);
      // The address moves before the user area has replaced the sign-in page (its code loads on demand): wait for the area itself.
      await user.page.getByRole('button', { name: 'Account menu' }).waitFor();
      await user.page.getByRole('link', { name: `${siteName} home` }).waitFor();
      await user.page.waitForLoadState('networkidle');
      await screenshot(user.page, 'long-site-name-user');
      await expectHeaderFits(user.page, 'user header');
      await user.page.getByRole('button', { name: 'Account menu' }).click();
      expect(
        await user.page
          .getByRole('menuitem', { name: 'My Account' })
          .evaluate((item) => item.textContent === 'My Account' && getComputedStyle(item).textTransform === 'none'),
      ).toBe(true);
      await user.context.close();

      for (const viewport of [PHONE, LAPTOP]) {
        const adminView = await signedInPage(browser(), admin, 'admin', viewport);
        await adminView.page.getByText('Provider balances', { exact: true }).waitFor();
        // Beside the sidebar the shop's name is shown, cut short; on phones only the menu button and the title.
        // The name arrives with the site settings, after the dashboard may already be on screen.
        const shopLink = adminView.page.getByRole('link', { name: `${siteName} home`, includeHidden: true });
        await shopLink.waitFor({ state: 'attached' });
        expect(await shopLink.isVisible()).toBe(viewport === LAPTOP);
        await screenshot(adminView.page, 'long-site-name-admin');
        await expectHeaderFits(adminView.page, `admin header at ${viewport.width}`);
        await adminView.context.close();
      }
    } finally {
      expect((await api('admin/settings/site', { method: 'PUT', token: adminToken, body: before })).status).toBe(200);
    }
  }, 240_000);
});
