/**
 * Starting a Marquee server for a benchmark: the production build (`node apps/server/dist/main.js`),
 * built first if needed, on a free port with its own data folder. Benchmarks measure what operators run.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../../deploy/test/node-flags.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVER_ENTRY = path.join(ROOT, 'apps/server/dist/main.js');
/** The production start as the README gives it: node, its flags (decision 090), the entry. */
export const SERVER_COMMAND: readonly string[] = [process.execPath, ...SERVER_NODE_FLAGS, SERVER_ENTRY];

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** `npm run build` (it skips what is current). */
export function ensureBuilt(): void {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error('build failed');
}

/** Polls `url` until it answers 2xx; returns the milliseconds since `since` (performance.now()). */
export async function waitUntilUp(
  url: string,
  child: ChildProcess,
  since: number,
  intervalMs = 10,
): Promise<number> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return performance.now() - since;
    } catch {
      // not listening yet
    }
    if (performance.now() - since > 60_000) throw new Error(`${url} did not answer within 60 s`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200 from /healthz. */
  readyMs: number;
  stop(): Promise<void>;
}

/** Starts `command` (default: the production server) with a fresh DATA_DIR, an embedded catalog and no captcha. */
export async function startServer(
  env: Record<string, string> = {},
  command: readonly string[] = SERVER_COMMAND,
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-bench-'));
  const started = performance.now();
  const [bin, ...args] = command as [string, ...string[]];
  const child = spawn(bin, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      CAPTCHA_PROVIDER: 'none',
      DATABASE_URL: '',
      REDIS_URL: '',
      TMDB_API_KEY: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const readyMs = await waitUntilUp(`${url}/healthz`, child, started);
  return {
    url,
    child,
    readyMs,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      for (const pid of [...descendants(child.pid!), child.pid!]) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
      if (child.exitCode === null) await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resident memory of one process, in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process below `pid` (children, grandchildren …). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirProc()) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // exited meanwhile
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

const readdirProc = () => readdirSync('/proc').filter((n) => /^\d+$/.test(n));

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
