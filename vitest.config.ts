import path from 'node:path';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { TEST_SECRETS } from './tests/support/secrets';

const alias = {
  '@schemas': path.resolve('worker/schemas'),
  '@vocabulary': path.resolve('vocabulary/index.ts'),
  '@': path.resolve('web/src'),
};

export default defineConfig({
  test: {
    // The Worker's per-request access lines are for production logs; in test output they would bury the failures.
    onConsoleLog: (log) => !log.includes('"msg":"request"'),
    // sweetalert2 gives focus back on a timer of its own after a dialog closes (tests/web/setup.ts waits for it);
    // on a loaded machine that timer can still fire once a file's jsdom is gone, where it finds no HTMLElement.
    // Only that: any other error after a test ends still fails the run.
    onUnhandledError: (error) => !(error.name === 'ReferenceError' && error.message === 'HTMLElement is not defined' && error.stack?.includes('sweetalert2')),
    projects: [
      {
        // Worker tests run inside workerd, against real Postgres through the Neon driver.
        plugins: [
          cloudflareTest(({ inject }) => ({
            main: './worker/index.ts',
            miniflare: {
              compatibilityDate: '2026-04-20',
              // As in wrangler.toml: the Worker under test consumes its own queues (order submissions, payment events, webhook deliveries, admin jobs).
              queueProducers: {
                ORDER_SUBMISSIONS: 'smm-order-submissions',
                PAYMENT_EVENTS: 'payment-events',
                WEBHOOK_DELIVERIES: 'webhook-deliveries',
                ADMIN_JOBS: 'admin-jobs',
              },
              queueConsumers: {
                'smm-order-submissions': { maxBatchSize: 10, maxBatchTimeout: 0.05, maxRetries: 5 },
                'payment-events': { maxBatchSize: 10, maxBatchTimeout: 0.05, maxRetries: 100 },
                'webhook-deliveries': { maxBatchSize: 10, maxBatchTimeout: 0.05, maxRetries: 100 },
                'admin-jobs': { maxBatchSize: 1, maxBatchTimeout: 0.05, maxRetries: 0 },
              },
              r2Buckets: ['EXPORT_FILES'],
              bindings: {
                DATABASE_URL: inject('databaseUrl'),
                DB_WS_PROXY: inject('dbWsProxy'),
                DB_HTTP_ENDPOINT: inject('dbHttpEndpoint'),
                APP_URL: 'http://localhost:8787',
                ENVIRONMENT: 'test',
                JWT_SECRET: TEST_SECRETS.JWT_SECRET,
                ENCRYPTION_KEY: TEST_SECRETS.ENCRYPTION_KEY,
                PAYSTACK_SECRET_KEY: TEST_SECRETS.PAYSTACK_SECRET_KEY,
                PAYSTACK_BASE_URL: inject('paystackUrl'),
                FLUTTERWAVE_BASE_URL: inject('flutterwaveUrl'),
                RATES_API_URL: inject('ratesUrl'),
                // The sandbox mailbox: tests read emailed links there, as a person reads them in their inbox.
                EMAIL_API_URL: inject('emailApiUrl'),
                EMAIL_API_KEY: TEST_SECRETS.EMAIL_API_KEY,
              },
            },
          })),
        ],
        test: {
          name: 'worker',
          include: ['tests/worker/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Browser tests: Chromium against the stack `npm start` runs, on their own ports.
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/e2e-setup.ts'],
          environment: 'node',
          testTimeout: 90_000,
          hookTimeout: 240_000,
          fileParallelism: false,
        },
      },
      {
        // The local stack's own plumbing in Node: Postgres wherever the checkout sits, plain start-up failures.
        test: {
          name: 'local',
          include: ['tests/local/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
      {
        // The simulator that proves the books (npm run simulate), bounded: seeded random operations
        // against a stack of its own with the sandbox SMM panel rough, the books checked after each step.
        test: {
          name: 'simulate',
          include: ['tests/simulate/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30 * 60_000,
          hookTimeout: 240_000,
        },
      },
      {
        // `wrangler deploy --dry-run` in Node: the Worker bundles, and stays within the size limit.
        test: {
          name: 'deploy',
          include: ['tests/deploy/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
        },
      },
      {
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          // A bound for a busy machine, not a wait: tests end when their conditions hold.
          testTimeout: 30_000,
          setupFiles: ['tests/web/setup.ts'],
        },
      },
    ],
  },
});
