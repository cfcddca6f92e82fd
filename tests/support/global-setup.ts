// Starts what the Worker tests talk to: a real Postgres (fresh database per run, migrated),
// the WebSocket bridge and the SQL-over-HTTP endpoint the Neon driver needs locally, and the
// fakes of outside services.
import { rmSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startFakes } from '../../local/fakes';
import { applyMigrations } from '../../local/stack/migrate';
import { startNeonHttp } from '../../local/stack/neon-http';
import { freePort } from '../../local/stack/ports';
import { startPostgres } from '../../local/stack/postgres';
import { startWsBridge } from '../../local/stack/ws-bridge';
import { TEST_SECRETS } from './secrets';

export default async function setup(project: TestProject) {
  const dataDir = path.resolve('.data', `test-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const postgres = await startPostgres({ dataDir, port: await freePort(), persistent: false, quiet: true });
  const database = `test_${Date.now()}`;
  await postgres.createDatabase(database);
  const databaseUrl = postgres.url(database);
  await applyMigrations(databaseUrl);
  const bridge = await startWsBridge({ port: 0, allowedTarget: { host: '127.0.0.1', port: postgres.port } });
  const sqlHttp = await startNeonHttp({ port: 0, allowedTarget: { host: '127.0.0.1', port: postgres.port } });
  const fakes = await startFakes({
    paystackSecretKey: TEST_SECRETS.PAYSTACK_SECRET_KEY,
    paystackLiveSecretKey: TEST_SECRETS.PAYSTACK_LIVE_SECRET_KEY,
    flutterwaveSecretKey: TEST_SECRETS.FLUTTERWAVE_SECRET_KEY,
    flutterwaveLiveSecretKey: TEST_SECRETS.FLUTTERWAVE_LIVE_SECRET_KEY,
    flutterwaveSecretHash: TEST_SECRETS.FLUTTERWAVE_SECRET_HASH,
    emailApiKey: TEST_SECRETS.EMAIL_API_KEY,
    smmApiKey: TEST_SECRETS.SMM_API_KEY,
    webhookUrl: null,
    appUrl: 'http://localhost:8787',
  });

  project.provide('databaseUrl', databaseUrl);
  project.provide('dbWsProxy', bridge.proxy);
  project.provide('dbHttpEndpoint', sqlHttp.url);
  project.provide('paystackUrl', fakes.paystackUrl);
  project.provide('smmProviderUrl', fakes.smmProviderUrl);
  project.provide('smmApiUrl', fakes.smmApiUrl);
  project.provide('ratesUrl', fakes.ratesUrl);
  project.provide('flutterwaveUrl', fakes.flutterwaveUrl);
  project.provide('emailApiUrl', fakes.emailApiUrl);
  project.provide('mailboxUrl', fakes.mailboxUrl);
  project.provide('webhookReceiverUrl', fakes.webhookReceiverUrl);
  project.provide('paystackSecretKey', TEST_SECRETS.PAYSTACK_SECRET_KEY);
  project.provide('smmApiKey', TEST_SECRETS.SMM_API_KEY);

  return async () => {
    await fakes.close();
    await bridge.close();
    await sqlHttp.close();
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    dbWsProxy: string;
    dbHttpEndpoint: string;
    paystackUrl: string;
    smmProviderUrl: string;
    smmApiUrl: string;
    ratesUrl: string;
    flutterwaveUrl: string;
    emailApiUrl: string;
    mailboxUrl: string;
    webhookReceiverUrl: string;
    paystackSecretKey: string;
    smmApiKey: string;
  }
}
