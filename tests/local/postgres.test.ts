// PostgreSQL runs wherever a newcomer clones, root in a private home folder included.
import { existsSync, lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../local/stack/ports';
import { startPostgres } from '../../local/stack/postgres';

const asRoot = process.getuid?.() === 0;
// mkdtemp makes a mode-700 folder: as root, the postgres user cannot pass through it.
const privateFolder = mkdtempSync(path.join(os.tmpdir(), 'private-checkout-'));
afterAll(() => rmSync(privateFolder, { recursive: true, force: true }));

async function countRows(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('create table if not exists visits (at timestamptz default now())');
    await client.query('insert into visits default values');
    return Number((await client.query('select count(*) from visits')).rows[0].count);
  } finally {
    await client.end();
  }
}

describe.runIf(asRoot)('as root, below a folder the postgres user cannot enter', () => {
  it('keeps a persistent cluster across restarts, reached through .data', async () => {
    const dataDir = path.join(privateFolder, 'shop', '.data', 'pg');
    const port = await freePort();
    for (const expected of [1, 2]) {
      // forceRelocation also moves the binaries, as for a checkout (and its node_modules) in /root.
      const postgres = await startPostgres({ dataDir, port, persistent: true, quiet: true, forceRelocation: true });
      try {
        await postgres.createDatabase('shop');
        expect(await countRows(postgres.url('shop'))).toBe(expected);
      } finally {
        await postgres.stop();
      }
    }
    expect(lstatSync(dataDir).isSymbolicLink()).toBe(true);
    const real = readlinkSync(dataDir);
    expect(existsSync(path.join(real, 'PG_VERSION'))).toBe(true);
    rmSync(real, { recursive: true, force: true });
  });

  it('deletes a throwaway cluster and its link when stopped', async () => {
    const dataDir = path.join(privateFolder, 'shop', '.data', 'test-1', 'pg');
    const postgres = await startPostgres({ dataDir, port: await freePort(), persistent: false, quiet: true });
    const real = readlinkSync(dataDir);
    await postgres.createDatabase('scratch');
    expect(await countRows(postgres.url('scratch'))).toBe(1);
    await postgres.stop();
    expect(existsSync(real)).toBe(false);
    expect(lstatSync(dataDir, { throwIfNoEntry: false })).toBeUndefined();
  });
});

it('says in one sentence that PostgreSQL cannot start on a taken port', async () => {
  const holder = await startPostgres({ dataDir: path.join(privateFolder, 'holder', 'pg'), port: await freePort(), persistent: false, quiet: true });
  try {
    const second = startPostgres({ dataDir: path.join(privateFolder, 'second', 'pg'), port: holder.port, persistent: false, quiet: true });
    await expect(second).rejects.toThrow(new RegExp(`^Port ${holder.port}, which PostgreSQL needs, is already in use: `));
  } finally {
    await holder.stop();
  }
});
