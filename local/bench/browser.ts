// The SPA as a phone sees it: its first-load JavaScript, and the time Chromium takes to show the
// first row of the 5,000-service list.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import type { RunningStack } from '../stack/stack';
import { percentile } from './measure';
import type { BenchUser } from './prepare';

/**
 * The scripts the SPA's index.html loads before a page works: its entry and modulepreloads, whether
 * as tags or asked for by its inline script once the page has painted (web/prerender.ts).
 */
export function firstLoadJavaScript(dist: string): { files: Array<{ file: string; bytes: number; gzipBytes: number }>; gzipBytes: number } {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const sources = [
    ...[...html.matchAll(/<script\b[^>]*\btype="module"[^>]*>/g)].map((tag) => /\bsrc="([^"]+)"/.exec(tag[0])?.[1]),
    ...[...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)].map((tag) => /\bhref="([^"]+)"/.exec(tag[0])?.[1]),
    ...[...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].flatMap((script) => [...script[1].matchAll(/"(\/assets\/[^"]+\.js)"/g)].map((file) => file[1])),
  ].filter((source): source is string => Boolean(source) && !/^https?:/.test(source!));
  const files = [...new Set(sources)].map((source) => {
    const content = readFileSync(path.join(dist, source.replace(/^\//, '')));
    return { file: source, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

/** Page loads per screen for the time to the first service row. */
export const BROWSER_LOADS = 5;

export interface ScreenTiming {
  screen: string;
  p50: number;
  max: number;
}

/**
 * Time from navigation to the first service row on screen, with the bench's 5,000 services, in
 * Debian's Chromium at phone width with an empty cache each time: the public /services, and
 * /user/services signed in (the session set up once through the login form, then loaded into
 * each fresh context).
 */
export async function timeToServicesList(stack: RunningStack, user: BenchUser): Promise<ScreenTiming[] | { skipped: string }> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) return { skipped: `no Chromium at ${executablePath} (apt-get install chromium)` };
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const viewport = { width: 390, height: 844 };
    const signingIn = await browser.newContext({ baseURL: stack.url, viewport });
    const loginPage = await signingIn.newPage();
    await loginPage.goto('/auth/login');
    await loginPage.getByLabel('Email').fill(user.email);
    await loginPage.getByLabel('Password', { exact: true }).fill(user.password);
    await loginPage.getByRole('button', { name: 'Sign In' }).click();
    await loginPage.waitForURL((url) => url.pathname.startsWith('/user'));
    const session = await signingIn.storageState();
    await signingIn.close();

    const load = async (screen: string, storageState?: typeof session) => {
      const context = await browser.newContext({ baseURL: stack.url, viewport, storageState });
      try {
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(screen, { waitUntil: 'commit' });
        await page.getByRole('list', { name: 'Services' }).getByRole('listitem').first().waitFor({ state: 'visible', timeout: 30_000 });
        return performance.now() - started;
      } finally {
        await context.close();
      }
    };
    const timings: ScreenTiming[] = [];
    for (const [screen, storageState] of [
      ['/services', undefined],
      ['/user/services', session],
    ] as const) {
      const loads: number[] = [];
      for (let i = 0; i < BROWSER_LOADS; i++) loads.push(await load(screen, storageState));
      loads.sort((a, b) => a - b);
      timings.push({ screen, p50: percentile(loads, 0.5), max: loads[loads.length - 1] });
    }
    return timings;
  } finally {
    await browser.close();
  }
}
