// `npm start`: the whole shop on http://localhost:8787 (PORT overrides), data kept in .data/.
import path from 'node:path';
import { type FaultPreset, PRESETS } from '../fakes/smm-faults';
import { portsFrom } from './ports';
import { root, startStack } from './stack';
import { describeStartupFailure, StartupError } from './startup-error';

const adminEmail = process.env.ADMIN_EMAIL ?? 'admin@example.com';

/** SMM_FAKE=rough: the sandbox SMM panel misbehaves as real panels do (local/fakes/smm-faults.ts); calm by default. */
function smmMode(): FaultPreset {
  const mode = process.env.SMM_FAKE || 'calm';
  if (!Object.hasOwn(PRESETS, mode)) throw new StartupError(`SMM_FAKE=${mode} is no mode of the sandbox SMM panel: use ${Object.keys(PRESETS).join(' or ')}.`);
  return mode as FaultPreset;
}

async function main() {
  const smm = smmMode();
  console.log('Starting the shop (building the SPA, Postgres, sandbox providers, the Worker)...');
  const stack = await startStack({
    ports: portsFrom(Number(process.env.PORT ?? 8787)),
    dataDir: path.join(root, '.data'),
    persistent: true,
    distDir: path.join(root, 'dist'),
    build: process.env.SKIP_BUILD !== '1',
    admin: { email: adminEmail, password: process.env.ADMIN_PASSWORD },
    workerOutput: 'inherit',
    smmMode: smm,
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the shop...');
    await stack.stop();
    process.exit(code);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    // Miniflare's own handler ends the process at once, before Postgres has stopped; stop() disposes of Miniflare with the rest.
    process.removeAllListeners(signal);
    process.on(signal, () => void stop(0));
  }

  const adminLine =
    stack.admin.created && !process.env.ADMIN_PASSWORD
      ? `${adminEmail} / ${stack.admin.password}   (shown once; set ADMIN_PASSWORD to choose it)`
      : `${adminEmail} (the password set earlier, or ADMIN_PASSWORD)`;
  console.log(
    [
      '',
      `  The shop            ${stack.url}`,
      `  Administrator       ${adminLine}`,
      `  Sandbox Paystack    ${stack.fakes.paystackUrl}`,
      `  Sandbox Flutterwave ${stack.fakes.flutterwaveUrl}   (choose it in Admin → Payment Settings)`,
      `  Sandbox mailbox     ${stack.fakes.mailboxUrl}/   (confirmation and reset links; also printed here)`,
      `  Webhook receiver    ${stack.fakes.webhookReceiverUrl}/   (point a webhook at any path here; deliveries also printed here)`,
      `  Sandbox SMM panel   ${stack.fakes.smmApiUrl}${smm === 'rough' ? '   (rough: misbehaving as real panels do)' : ''}`,
      `  Postgres            ${stack.databaseUrl}`,
      '',
      '  Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  console.error(describeStartupFailure(error));
  process.exit(1);
});
