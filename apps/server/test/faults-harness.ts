import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import path from 'node:path';

/** Helpers of the fault tests (faults-*.test.ts): real child processes we may kill and restart. */

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Polls `probe` until it returns a value (no fixed sleeps), failing after `ms`. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 30_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Whether something answers PING with +PONG on `port`. */
function pingRedis(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    let answer = '';
    socket.setTimeout(1_000, () => socket.destroy());
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => {
      answer += d.toString();
      if (answer.includes('\r\n')) {
        socket.end();
        resolve(answer.startsWith('+PONG'));
      }
    });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(answer.startsWith('+PONG')));
  });
}

/** A redis-server of our own (never the shared one): stop() kills it like a crash, start() brings it back on the same port. */
export class RedisChild {
  private child: ChildProcess | null = null;
  private constructor(readonly port: number) {}

  static async start(): Promise<RedisChild> {
    const redis = new RedisChild(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    await eventually(`redis-server on ${this.port}`, async () => {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}`);
      return (await pingRedis(this.port)) ? true : undefined;
    });
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: string[];
  alive(): boolean;
  stop(): Promise<void>;
}

const serverDir = path.resolve(import.meta.dirname, '..');

/** `node src/main.ts` as an operator runs it; resolves once /healthz answers. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await eventually(
    'the server to start',
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output.join('')}`);
      return (await fetch(`${url}/healthz`)
        .then((r) => r.ok)
        .catch(() => false))
        ? true
        : undefined;
    },
    60_000,
    200,
  );
  return {
    url,
    child,
    output,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

/**
 * A TCP proxy in front of PostgreSQL that the test can cut (every connection dropped, new ones
 * refused: the database is unreachable) and restore on the same port, without touching the server.
 */
export class CuttableProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private constructor(
    readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<CuttableProxy> {
    const proxy = new CuttableProxy(await freePort(), target);
    await proxy.restore();
    return proxy;
  }

  /** `url` with its host and port replaced by the proxy's. */
  via(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = createConnection(this.target);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise((r) => server.close(r));
  }
}
