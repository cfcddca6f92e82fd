// axe-core (the engine behind Lighthouse's accessibility score) finds nothing on the main screens, on a
// phone and on a laptop: contrast, ARIA roles and their children, heading order, names and labels, landmarks.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect } from 'vitest';
import { eachAreaAtBothWidths, MAIN_SCREENS, sharedBrowser } from './shop';

const browser = sharedBrowser();
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Every axe rule but one Lighthouse leaves out too: the picker's scrolling list is worked from its combobox, not by Tab. */
async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Violation[] }> } }).axe;
    const result = await axe.run(document, { rules: { 'scrollable-region-focusable': { enabled: false } }, resultTypes: ['violations'] });
    return result.violations;
  });
  return found.flatMap((v) => v.nodes.map((n) => `${v.id} at ${n.target.join(' ')}: ${n.failureSummary ?? ''}`));
}

async function audit(page: Page, paths: string[]) {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await page.locator('main h1').first().waitFor();
    found.push(...(await violations(page)).map((line) => `${path} ${line}`));
  }
  expect(found).toEqual([]);
}

describe('axe finds nothing', () => {
  eachAreaAtBothWidths(browser, MAIN_SCREENS, audit);
});
