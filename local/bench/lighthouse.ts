// `npm run lighthouse`: Lighthouse's mobile profile (simulated slow 4G, 4x CPU) and a low-end phone's
// (slow 4G, 6x CPU) on the shop as
// `npm start` serves it (built SPA, the Worker in workerd, embedded Postgres, sandbox providers), on a stack of
// its own with the bench's 5,000-service catalogue: /, /services and /auth/login as a visitor,
// /user/services and /user/create-order signed in as a fresh user. Prints, per page and profile, the
// four category scores, LCP, CLS, TBT and main-thread work (the median of LIGHTHOUSE_RUNS runs, 3 by
// default), whether the page meets its profile's figures, what did not pass, and the host's benchmark
// index; writes bench-results/lighthouse.json. LIGHTHOUSE_PROFILES=low-end runs one profile only.
import { randomBytes } from 'node:crypto';
import { startThrowawayStack } from '../stack/stack';
import { runScript } from '../stack/startup-error';
import { auditPages, PROFILES, type ProfileName } from './lighthouse-audit';
import { seedCatalogue } from './prepare';
import { signUp } from './shop-client';

function chosenProfiles(): ProfileName[] {
  const names = (process.env.LIGHTHOUSE_PROFILES ?? Object.keys(PROFILES).join(',')).split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(name in PROFILES));
  if (unknown.length > 0) throw new Error(`LIGHTHOUSE_PROFILES: no profile ${unknown.join(', ')} (there are ${Object.keys(PROFILES).join(', ')})`);
  return names as ProfileName[];
}

async function main() {
  console.log('Starting a stack of its own (SPA build, Postgres, sandbox providers, the Worker)...');
  const admin = { email: 'lighthouse-admin@example.com', password: randomBytes(18).toString('base64url') };
  const stack = await startThrowawayStack('lighthouse', { admin, workerOutput: 'ignore', scheduledJobs: false });
  try {
    const catalogue = await seedCatalogue(stack);
    if ('skipped' in catalogue) console.log(`Note: the 5,000-service catalogue was skipped: ${catalogue.skipped}`);
    const user = { email: `lighthouse-${process.pid}@example.com`, password: randomBytes(12).toString('base64url') };
    await signUp(stack.url, { fullName: 'Lighthouse User', ...user });
    await auditPages(stack.url, user, chosenProfiles());
  } finally {
    await stack.stop();
  }
}

runScript(main);
