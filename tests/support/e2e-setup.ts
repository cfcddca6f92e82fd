// Browser tests run against the shop exactly as `npm start` runs it (built SPA, the Worker in workerd,
// embedded Postgres, sandbox providers), on a stack of their own: throwaway database, free ports,
// the SPA built into its own folder. A running `npm start` beside them is left as it was.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { root, startThrowawayStack } from '../../local/stack/stack';
import { StartupError } from '../../local/stack/startup-error';
import { CHROMIUM_PATH } from './browser';

export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password' };

/** What `npm start` serves, as far as a rebuild would change it. */
function servedBuild(): string {
  const index = path.join(root, 'dist', 'index.html');
  return existsSync(index) ? `${statSync(index).ino}:${statSync(index).mtimeMs}` : 'none';
}

export default async function setup(project: TestProject) {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new StartupError(`The browser tests need Chromium at ${CHROMIUM_PATH}: install it with apt-get install chromium, or set CHROMIUM_PATH to one.`);
  }
  const before = servedBuild();
  const stack = await startThrowawayStack('e2e', {
    admin: E2E_ADMIN,
    workerOutput: process.env.E2E_VERBOSE ? 'inherit' : 'ignore',
  });
  if (servedBuild() !== before) {
    await stack.stop();
    throw new Error('Starting the browser tests rewrote dist/, which a running npm start serves: throwaway stacks must build into their own folder.');
  }
  project.provide('shopUrl', stack.url);
  project.provide('e2ePaystackUrl', stack.fakes.paystackUrl);
  project.provide('e2eFlutterwaveUrl', stack.fakes.flutterwaveUrl);
  project.provide('e2eSmmProviderUrl', stack.fakes.smmProviderUrl);
  project.provide('e2eMailboxUrl', stack.fakes.mailboxUrl);
  project.provide('e2eWebhookReceiverUrl', stack.fakes.webhookReceiverUrl);
  project.provide('e2eAdmin', E2E_ADMIN);
  // For the few states no call can reach (an account suspended while its session stays live).
  project.provide('e2eDatabaseUrl', stack.databaseUrl);
  return () => stack.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    shopUrl: string;
    e2ePaystackUrl: string;
    e2eFlutterwaveUrl: string;
    e2eSmmProviderUrl: string;
    e2eMailboxUrl: string;
    e2eWebhookReceiverUrl: string;
    e2eAdmin: { email: string; password: string };
    e2eDatabaseUrl: string;
  }
}
