import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createServer } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

/** The repository root (the build output the deploy suites run lives under it). */
export const ROOT = path.resolve(import.meta.dirname, '../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * What a service manager gives a process: a path and a home, nothing of this shell's settings (a
 * DATABASE_URL or TEST_* from the CI environment must not leak into the servers under test).
 */
export function cleanEnv(extra: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...extra };
}

export interface Proc {
  name: string;
  child: ChildProcess;
  /** Everything it wrote (stdout and stderr), for failure messages. */
  output(): string;
}

export function spawnProc(
  name: string,
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Proc {
  const chunks: string[] = [];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => {
    chunks.push(d.toString());
    if (chunks.length > 400) chunks.splice(0, chunks.length - 400);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('error', (error) => chunks.push(`spawn failed: ${error.message}\n`));
  return { name, child, output: () => chunks.join('') };
}

export const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;

/** Stops a process and waits until it is gone (SIGKILL when it does not go in time). */
export async function stopProc(proc: Proc | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!proc || hasExited(proc.child) || proc.child.pid === undefined) return;
  const exited = new Promise((resolve) => proc.child.once('exit', resolve));
  proc.child.kill(signal);
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** Runs a command to its end; resolves with its exit code and output (never throws on a failure code). */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ code: number | null; output: string }> {
  const proc = spawnProc(command, command, args, {
    cwd: options.cwd,
    env: options.env ?? ({ ...process.env } as Record<string, string>),
  });
  return new Promise((resolve) =>
    proc.child.once('close', (code) => resolve({ code, output: proc.output() })),
  );
}

/** Polls `probe` until it returns a value (not undefined); fails early when `proc` exits. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  options: { timeoutMs?: number; procs?: Proc[] } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let lastError = '';
  for (;;) {
    for (const proc of options.procs ?? []) {
      if (hasExited(proc.child))
        throw new Error(`${proc.name} exited while waiting for ${what}:\n${proc.output()}`);
    }
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      const outputs = (options.procs ?? []).map((p) => `--- ${p.name}:\n${p.output()}`).join('\n');
      throw new Error(`timed out waiting for ${what} (${lastError})\n${outputs}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

/**
 * One HTTP request on its own connection, exactly as given. `localAddress` picks the client's address
 * (any 127.x.y.z on Linux), so one test can be several clients behind the proxy.
 */
export function http(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    localAddress?: string;
  } = {},
): Promise<HttpResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers: {
          ...(options.body !== undefined
            ? { 'content-length': String(Buffer.byteLength(options.body)) }
            : {}),
          ...options.headers,
        },
        agent: false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            text: () => body.toString('utf8'),
            json: <T>() => JSON.parse(body.toString('utf8')) as T,
          });
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${url}: no answer in 30 s`)));
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export const json = (value: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});

export interface MarqueeProc extends Proc {
  url: string;
  port: number;
}

/** Starts the production server in `cwd` as the README tells operators; resolves once /healthz says 200. */
export async function startMarquee(
  name: string,
  options: { cwd: string; env: Record<string, string>; port?: number },
): Promise<MarqueeProc> {
  const port = options.port ?? (await freePort());
  const proc = spawnProc(name, process.execPath, [...SERVER_NODE_FLAGS, 'apps/server/dist/main.js'], {
    cwd: options.cwd,
    env: cleanEnv({ HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...options.env, PORT: String(port) }),
  });
  const url = `http://127.0.0.1:${port}`;
  const started = { ...proc, url, port };
  try {
    await waitFor(
      `${name} /healthz`,
      async () => ((await http(`${url}/healthz`)).status === 200 ? true : undefined),
      { procs: [proc] },
    );
  } catch (error) {
    await stopProc(proc, 'SIGKILL');
    throw error;
  }
  return started;
}

/** Deletes every key under `prefix` (what a test's servers left in the shared Redis). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/** A new PostgreSQL database, dropped (with any open connections) by `drop`. */
export async function createPgDatabase(
  adminUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect().catch((error: unknown) => {
    throw new Error(`PostgreSQL is required at ${adminUrl} (CI runs it): ${String(error)}`);
  });
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** Server-sent events of a finished stream. */
export function parseEvents(text: string): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l && !l.startsWith(':'));
    if (lines.length === 0) continue;
    let event = 'message';
    const data: string[] = [];
    for (const line of lines) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    events.push({ event, data: data.length ? JSON.parse(data.join('\n')) : null });
  }
  return events;
}

/**
 * Cleanup that runs even when a test or a setup step fails, and — should the test process itself be
 * ended — still kills the processes it started.
 */
export class Cleanup {
  private readonly steps: { name: string; run: () => Promise<void> | void }[] = [];
  private readonly procs = new Set<Proc>();
  private readonly onExit = () => {
    for (const proc of this.procs) if (!hasExited(proc.child)) proc.child.kill('SIGKILL');
  };

  constructor() {
    process.once('exit', this.onExit);
  }

  add(name: string, run: () => Promise<void> | void): void {
    this.steps.push({ name, run });
  }

  proc<P extends Proc>(proc: P): P {
    this.procs.add(proc);
    this.add(`stop ${proc.name}`, () => stopProc(proc));
    return proc;
  }

  /** Runs every step, last added first; reports all failures together. */
  async run(): Promise<void> {
    const failures: string[] = [];
    for (const step of this.steps.reverse()) {
      try {
        await step.run();
      } catch (error) {
        failures.push(`${step.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    this.steps.length = 0;
    process.off('exit', this.onExit);
    if (failures.length) throw new Error(`cleanup failed:\n${failures.join('\n')}`);
  }
}
