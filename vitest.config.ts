import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { TEST_SECRETS } from './tests/support/secrets';

const alias = {
  '@schemas': path.resolve('worker/schemas'),
  '@': path.resolve('web/src'),
};

export default defineConfig({
  test: {
    projects: [
      {
        // Worker tests run inside workerd, against real Postgres through the Neon driver.
        plugins: [
          cloudflareTest(({ inject }) => ({
            main: './worker/index.ts',
            miniflare: {
              compatibilityDate: '2026-04-20',
              bindings: {
                DATABASE_URL: inject('databaseUrl'),
                DB_WS_PROXY: inject('dbWsProxy'),
                APP_URL: 'http://localhost:8787',
                ENVIRONMENT: 'test',
                JWT_SECRET: TEST_SECRETS.JWT_SECRET,
                ENCRYPTION_KEY: TEST_SECRETS.ENCRYPTION_KEY,
                PAYSTACK_SECRET_KEY: TEST_SECRETS.PAYSTACK_SECRET_KEY,
                PAYSTACK_BASE_URL: inject('paystackUrl'),
                RATES_API_URL: inject('ratesUrl'),
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
        plugins: [react()],
        resolve: { alias },
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/web/setup.ts'],
        },
      },
    ],
  },
});
