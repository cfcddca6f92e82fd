// Browser tests run against the shop exactly as `npm start` runs it (built SPA, wrangler dev,
// embedded Postgres, sandbox providers), on a throwaway database and its own ports.
import type { TestProject } from 'vitest/node';
import { startThrowawayStack } from '../../local/stack';

export const E2E_ADMIN = { email: 'e2e-admin@example.com', password: 'e2e-admin-password' };

export default async function setup(project: TestProject) {
  const stack = await startThrowawayStack('e2e', {
    port: Number(process.env.E2E_PORT ?? 8877),
    build: true,
    admin: E2E_ADMIN,
    wranglerOutput: process.env.E2E_VERBOSE ? 'inherit' : 'ignore',
  });
  project.provide('shopUrl', stack.url);
  project.provide('e2ePaystackUrl', stack.fakes.paystackUrl);
  project.provide('e2eSmmProviderUrl', stack.fakes.smmProviderUrl);
  project.provide('e2eAdmin', E2E_ADMIN);
  return () => stack.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    shopUrl: string;
    e2ePaystackUrl: string;
    e2eSmmProviderUrl: string;
    e2eAdmin: { email: string; password: string };
  }
}
