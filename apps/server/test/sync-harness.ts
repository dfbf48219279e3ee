import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AuthResponse } from '@marquee/contract';
import { buildApp, type App, type AppDependencies } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { deriveKeys, newMnemonic, type PassphraseKeys } from './passphrase-client.ts';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, testRedisUrl, type TestDatabase } from './test-database.ts';

/** A clock tests move by hand. */
export class TestClock {
  constructor(public ms = Date.UTC(2026, 0, 15, 12)) {}
  now = () => new Date(this.ms);
  advance(ms: number) {
    this.ms += ms;
  }
}

export interface SyncTestApp {
  app: App;
  server: FastifyInstance;
  db: TestDatabase;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

/** With TEST_REDIS_URL set, rate limits live in Redis (under a prefix of their own per app). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    CAPTCHA_PROVIDER: 'none',
    DATA_DIR: '/tmp/marquee-test',
    WEB_DIST_DIR: '/nonexistent',
    ...(testRedisUrl
      ? { REDIS_URL: testRedisUrl, REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:` }
      : {}),
    ...env,
  });
}

/** One app on a fresh database (SQLite in memory, or a new PostgreSQL schema when TEST_DATABASE_URL is set). */
export async function startSyncApp(
  options: { env?: Record<string, string>; deps?: AppDependencies; db?: TestDatabase } = {},
): Promise<SyncTestApp> {
  const db = options.db ?? (await createTestDatabase());
  const clock = new TestClock();
  const config = testConfig(options.env);
  const app = await buildApp(config, { database: db, now: clock.now, logger: false, ...options.deps });
  await app.server.ready();
  return {
    app,
    server: app.server,
    db,
    clock,
    config,
    async close() {
      await app.server.close();
      if (!options.db) await db.destroy();
    },
  };
}

export interface SignedIn extends AuthResponse {
  keys: PassphraseKeys;
  headers: { authorization: string };
}

const json = <T>(res: LightMyRequestResponse): T => JSON.parse(res.body) as T;

/**
 * A fresh proof that `who` holds the 12 words, as the web sends it to approve a code, change a PIN or
 * add a passkey: a login challenge just issued, signed by the account's key.
 */
export async function wordsProof(server: FastifyInstance, keys: PassphraseKeys) {
  const start = await server.inject({
    method: 'POST',
    url: '/auth/login/start',
    payload: { publicKey: keys.publicKey },
  });
  const { challenge } = json<{ challenge: string }>(start);
  return { publicKey: keys.publicKey, challenge: { code: challenge, signature: keys.sign(challenge) } };
}

/** Registers a new passphrase account the way the clients do (start → sign → complete). */
export async function register(
  server: FastifyInstance,
  options: {
    mnemonic?: string;
    device?: string;
    captchaToken?: string;
    namespace?: string;
    /** The client's address (rate limits count per address). */
    remoteAddress?: string;
  } = {},
): Promise<SignedIn> {
  const keys = deriveKeys(options.mnemonic ?? newMnemonic());
  const from = options.remoteAddress ? { remoteAddress: options.remoteAddress } : {};
  const start = await server.inject({
    method: 'POST',
    url: '/auth/register/start',
    ...from,
    payload: { captchaToken: options.captchaToken },
  });
  if (start.statusCode !== 200) throw new Error(`register/start ${start.statusCode} ${start.body}`);
  const { challenge } = json<{ challenge: string }>(start);
  const complete = await server.inject({
    method: 'POST',
    url: '/auth/register/complete',
    ...from,
    headers: { 'user-agent': 'vitest' },
    payload: {
      namespace: options.namespace ?? 'movie-web',
      publicKey: keys.publicKey,
      challenge: { code: challenge, signature: keys.sign(challenge) },
      device: keys.encryptDevice(options.device ?? 'Test device'),
      profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' },
    },
  });
  if (complete.statusCode !== 200)
    throw new Error(`register/complete ${complete.statusCode} ${complete.body}`);
  const body = json<AuthResponse>(complete);
  return { ...body, keys, headers: { authorization: `Bearer ${body.token}` } };
}

/** Signs an existing account in on another "device". */
export async function login(
  server: FastifyInstance,
  keys: PassphraseKeys,
  device = 'Second device',
): Promise<SignedIn> {
  const start = await server.inject({
    method: 'POST',
    url: '/auth/login/start',
    payload: { publicKey: keys.publicKey },
  });
  if (start.statusCode !== 200) throw new Error(`login/start ${start.statusCode} ${start.body}`);
  const { challenge } = json<{ challenge: string }>(start);
  const complete = await server.inject({
    method: 'POST',
    url: '/auth/login/complete',
    headers: { 'user-agent': 'vitest' },
    payload: {
      namespace: 'movie-web',
      publicKey: keys.publicKey,
      challenge: { code: challenge, signature: keys.sign(challenge) },
      device: keys.encryptDevice(device),
    },
  });
  if (complete.statusCode !== 200) throw new Error(`login/complete ${complete.statusCode} ${complete.body}`);
  const body = json<AuthResponse>(complete);
  return { ...body, keys, headers: { authorization: `Bearer ${body.token}` } };
}

export const movieMeta = (title = 'The Matrix', year: number | null = 1999) => ({
  title,
  year,
  poster: 'https://image.example/p.jpg',
  type: 'movie',
});
export const showMeta = (title = 'Breaking Bad', year: number | null = 2008) => ({
  title,
  year,
  type: 'show',
});
