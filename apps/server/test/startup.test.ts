import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * What an operator sees when the server cannot start: the server's own entry point, run as a process,
 * exits with a message that names the cause and no stack trace.
 */

const serverDir = path.resolve(import.meta.dirname, '..');
const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-startup-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      // Only what the test gives (plus PATH/HOME for node), so the machine's own settings cannot leak in.
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        DATA_DIR: tmp,
        CAPTCHA_PROVIDER: 'none',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stderr }));
  });
}

const hasStackTrace = (text: string) => /^\s+at .+:\d+:\d+\)?$/m.test(text);

describe('starting the server', () => {
  it('lists every invalid setting at once and exits with 2', async () => {
    const { code, stderr } = await start({
      PORT: 'eighty',
      CAPTCHA_PROVIDER: 'turnstile',
      VARIANT: 'subscription',
    });
    expect(code).toBe(2);
    expect(stderr).toContain('Invalid configuration (3 problems)');
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('CAPTCHA_PROVIDER=turnstile needs CAPTCHA_SITE_KEY and CAPTCHA_SECRET');
    expect(stderr).toContain('ALLOW_SIMULATED_PAYMENTS');
    expect(hasStackTrace(stderr)).toBe(false);
  });

  it('says the port is taken when it is', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const { code, stderr } = await start({ PORT: String(port) });
      expect(code).toBe(1);
      expect(stderr).toContain(`Marquee could not start: port ${port} is already in use`);
      expect(hasStackTrace(stderr)).toBe(false);
    } finally {
      blocker.close();
    }
  });

  it('says the database cannot be reached when PostgreSQL is down', async () => {
    // Port 9 (discard) has no PostgreSQL: the connection is refused at once.
    const { code, stderr } = await start({ DATABASE_URL: 'postgres://postgres@127.0.0.1:9/marquee' });
    expect(code).toBe(1);
    expect(stderr).toContain(
      'Marquee could not start: cannot reach the database at 127.0.0.1:9 (ECONNREFUSED)',
    );
    expect(hasStackTrace(stderr)).toBe(false);
  });
});
