// A start-up failure of the local stack ends with one plain sentence and a non-zero exit.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { expect, it } from 'vitest';
import { freePort } from '../../local/stack/ports';

function runStart(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['tsx', 'local/stack/start.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

it('npm start with its port taken says so in one sentence and exits non-zero', async () => {
  const port = await freePort();
  const holder = net.createServer().listen(port, '127.0.0.1');
  await new Promise((resolve) => holder.once('listening', resolve));
  try {
    const { code, stderr } = await runStart({ PORT: String(port), SKIP_BUILD: '1' });
    expect(code).toBe(1);
    const lines = stderr
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('npm warn'));
    expect(lines).toEqual([
      `Port ${port}, which the shop needs, is already in use (another npm start still running?): stop whatever holds it, or start on other ports with PORT=<port> npm start.`,
    ]);
  } finally {
    holder.close();
  }
});
