import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { SERVER_NODE_FLAGS } from '../../deploy/test/node-flags.ts';
import { SEGMENTS_SHOW_DIR, TEST_LIBRARY_DIR } from './e2e/support/media-library.ts';

const port = Number(process.env.E2E_PORT ?? 4180);
/** A second instance with ALTCHA registration captcha (e2e/captcha.spec.ts). */
const altchaPort = Number(process.env.E2E_ALTCHA_PORT ?? 4181);
/** A third instance: the subscription site with email accounts and the simulated gateway (e2e/subscription.spec.ts). */
const subPort = Number(process.env.E2E_SUB_PORT ?? 4182);
/** A discovery and a subscription instance for e2e/a11y.spec.ts and e2e/phone.spec.ts. */
const a11yPort = Number(process.env.E2E_A11Y_PORT ?? 4183);
const a11ySubPort = Number(process.env.E2E_A11Y_SUB_PORT ?? 4184);
/** An instance whose media library holds the files real collections hold (e2e/media-library.spec.ts). */
const libraryPort = Number(process.env.E2E_LIBRARY_PORT ?? 4185);
/** e2e/history.spec.ts's own discovery instance (registration limits, see below). */
const historyPort = Number(process.env.E2E_HISTORY_PORT ?? 4187);
/** A local Trakt (apps/server/test/fake-trakt-cli.ts) for e2e/trakt.spec.ts: its API, and its control port. */
const traktPort = Number(process.env.E2E_TRAKT_PORT ?? 4188);
const traktControlPort = Number(process.env.E2E_TRAKT_CONTROL_PORT ?? 4189);
process.env.E2E_TRAKT_CONTROL ??= `http://127.0.0.1:${traktControlPort}`;
/** The history instance links Trakt through it. */
const TRAKT = {
  TRAKT_CLIENT_ID: 'e2e-trakt-client',
  TRAKT_CLIENT_SECRET: 'e2e-trakt-secret',
  TRAKT_API_URL: `http://127.0.0.1:${traktPort}`,
};
/**
 * The same library on compose.yaml's topology: three servers on PostgreSQL + Redis behind nginx
 * (deploy/test/library-topology.ts); e2e/media-library.spec.ts runs again against it.
 */
const libraryTopologyPort = Number(process.env.E2E_LIBRARY_TOPOLOGY_PORT ?? 4186);
/** Its servers' DATA_DIR: the spec checks in `transcodes` that one server converted for all three. */
// Made once by the runner; its workers load this file again and read the same folder from the environment.
process.env.E2E_LIBRARY_TOPOLOGY_DATA ??= path.join(
  mkdtempSync(path.join(tmpdir(), 'marquee-e2e-topology-')),
  'data',
);
const libraryTopologyData = process.env.E2E_LIBRARY_TOPOLOGY_DATA;

/**
 * Watch parties (e2e/party.spec.ts): two servers on PostgreSQL + Redis, each behind an nginx of its own,
 * and a control port that restarts one (deploy/test/party-topology.ts).
 */
const partyPorts = [
  process.env.E2E_PARTY_A_PORT ?? '4193',
  process.env.E2E_PARTY_B_PORT ?? '4194',
  process.env.E2E_PARTY_CONTROL_PORT ?? '4195',
];

/** Intros and credits (e2e/segments.spec.ts): a library of one show whose segments the server detects. */
const segmentsPort = Number(process.env.E2E_SEGMENTS_PORT ?? 4196);

/** The discovery site: passphrase accounts, no captcha. */
const DISCOVERY = { DMCA_EMAIL: 'dmca@marquee.test', CAPTCHA_PROVIDER: 'none' };
/** The subscription site of e2e/subscription.spec.ts. */
const SUBSCRIPTION = {
  VARIANT: 'subscription',
  AUTH_METHODS: 'email',
  PAYMENT_GATEWAY: 'simulated',
  ALLOW_SIMULATED_PAYMENTS: 'true',
  CAPTCHA_PROVIDER: 'none',
  ADMIN_EMAILS: 'admin@marquee.test',
  // The Matrix plays without a membership; every other title needs one.
  FREE_MOVIE_TMDB_ID: '603',
};

/** The production server on `port` with a data folder of its own, SQLite, no Redis and no TMDB. */
function instance(port: number, env: Record<string, string>) {
  return {
    command: `node ${SERVER_NODE_FLAGS.join(' ')} dist/main.js`,
    cwd: '../server',
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), `marquee-e2e-${port}-`)),
      LOG_LEVEL: 'warn',
      // As behind the README's nginx: the loopback is the proxy, and X-Forwarded-For names the client.
      // Tests that register an account say so (support/visitor.ts): each registration comes from a
      // visitor's own address, as real ones do, so the per-address registration limits stay the
      // production ones and dozens of tests in a row never share one address's budget.
      TRUST_PROXY: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      TMDB_API_KEY: '',
      // Nothing listens there: old JustWatch keys must fail cleanly offline.
      JUSTWATCH_URL: 'http://127.0.0.1:9',
      ...env,
    },
  };
}

// Debian's Chromium, never a downloaded browser (see README: apt-get install -y chromium).
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // A test's own waits for a player (a source, autoplay or the big Play, time moving: up to 50 s in
  // e2e/support/player.ts) must fit in its time on a busy 2-core machine; 30 s ran out in CI.
  timeout: 60_000,
  // A state a page reaches on its own (a row loaded and rendered in the background) took over the default
  // 5 s on a busy 2-core machine: assertions wait up to 10 s.
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '../../.tmp/e2e-results.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'retain-on-failure',
    // The app's service worker (decision 078) only in e2e/offline.spec.ts: elsewhere it would change
    // what page.route sees and when a reloaded page's files arrive.
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'chromium' },
    {
      name: 'library-topology',
      testMatch: /media-library\.spec\.ts$/,
      metadata: {
        libraryOrigin: `http://127.0.0.1:${libraryTopologyPort}`,
        topology: true,
        transcodeDir: path.join(libraryTopologyData, 'transcodes'),
      },
    },
  ],
  webServer: [
    instance(port, DISCOVERY),
    instance(altchaPort, {
      CAPTCHA_PROVIDER: 'altcha',
      ALTCHA_MAX_NUMBER: '20000',
    }),
    instance(subPort, SUBSCRIPTION),
    // e2e/a11y.spec.ts and e2e/phone.spec.ts sign up on both kinds of site at several sizes: instances of
    // their own, so their accounts do not use up the registration rate limits the other specs share.
    instance(a11yPort, DISCOVERY),
    instance(a11ySubPort, SUBSCRIPTION),
    // e2e/history.spec.ts signs up two accounts: on an instance of its own for the same reason. It
    // links Trakt (e2e/trakt.spec.ts) through the local Trakt started before it.
    {
      command: `node --import tsx apps/server/test/fake-trakt-cli.ts ${traktPort} ${traktControlPort}`,
      cwd: '../..',
      url: `http://127.0.0.1:${traktControlPort}/health`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
    instance(historyPort, { ...DISCOVERY, ...TRAKT }),
    {
      ...instance(libraryPort, { ...DISCOVERY, MEDIA_LIBRARY_DIR: TEST_LIBRARY_DIR }),
      // The library is made with ffmpeg first (a few seconds; reused when it is already there).
      command: `node --import tsx ../../scripts/make-test-library.ts ${TEST_LIBRARY_DIR} && node ${SERVER_NODE_FLAGS.join(' ')} dist/main.js`,
      timeout: 180_000,
    },
    {
      ...instance(segmentsPort, { ...DISCOVERY, MEDIA_LIBRARY_DIR: SEGMENTS_SHOW_DIR }),
      // The show is made with ffmpeg first (about 20 s; reused when it is already there).
      command: `node --import tsx ../../scripts/make-segments-show.ts ${SEGMENTS_SHOW_DIR} && node ${SERVER_NODE_FLAGS.join(' ')} dist/main.js`,
      timeout: 180_000,
    },
    {
      command: `node --import tsx deploy/test/party-topology.ts ${partyPorts.join(' ')}`,
      cwd: '../..',
      url: `http://127.0.0.1:${partyPorts[2]}/health`,
      reuseExistingServer: false,
      timeout: 120_000,
      // It drops its database and Redis keys on SIGTERM.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: { LOG_LEVEL: 'warn' },
    },
    {
      // After the library instance, which made the library.
      command: `node --import tsx deploy/test/library-topology.ts ${libraryTopologyPort} ${TEST_LIBRARY_DIR} ${libraryTopologyData}`,
      cwd: '../..',
      url: `http://127.0.0.1:${libraryTopologyPort}/healthz`,
      reuseExistingServer: false,
      timeout: 180_000,
      // It drops its database and Redis keys on SIGTERM.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: { LOG_LEVEL: 'warn' },
    },
  ],
});
