import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'marquee-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(name: string, content: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, content);
  return file;
}

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig defaults', () => {
  it('starts a discovery instance on port 8080 with its data in ./data', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      HOST: '0.0.0.0',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      INSTANCE_NAME: 'Marquee',
      VARIANT: 'discovery',
      AUTH_METHODS: ['passphrase'],
      CAPTCHA_PROVIDER: 'altcha',
      PAYMENT_GATEWAY: 'simulated',
      ADMIN_EMAILS: [],
      ALLOW_AUTOPLAY: false,
      HAS_ONBOARDING: false,
    });
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(path.isAbsolute(config.webDistDir)).toBe(true);
    expect(config.webDistDir.endsWith(path.join('apps', 'web', 'dist'))).toBe(true);
  });

  it('uses the embedded database, no Redis and the embedded catalog when nothing is set', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.REDIS_URL).toBeUndefined();
    expect(config.TMDB_API_KEY).toBeUndefined();
    expect(config.DMCA_EMAIL).toBeUndefined();
    expect(config.DOWNTIME_START).toBeUndefined();
    expect(config.FREE_MOVIE_TMDB_ID).toBeUndefined();
  });

  it('talks to TMDB on its two hosts within 7 s for one request: 3 s primary, the rest for the fallback (decision 082)', () => {
    expect(loadConfig({})).toMatchObject({
      TMDB_BASE_URL: 'https://api.themoviedb.org/3',
      TMDB_FALLBACK_URL: 'https://api.tmdb.org/3',
      TMDB_IMAGE_URL: 'https://image.tmdb.org/t/p',
      TMDB_TIMEOUT_MS: 3_000,
      TMDB_FALLBACK_TIMEOUT_MS: 5_000,
      TMDB_BUDGET_MS: 7_000,
    });
  });

  it('refuses a TMDB budget the browser would not wait for', () => {
    expect(loadConfig({ TMDB_BUDGET_MS: '7500' }).TMDB_BUDGET_MS).toBe(7_500);
    expect(configError({ TMDB_BUDGET_MS: '20000' }).message).toContain('TMDB_BUDGET_MS');
  });

  it('reads only the environment it is given', () => {
    vi.stubEnv('PORT', '1234');
    vi.stubEnv('VARIANT', 'subscription');
    try {
      expect(loadConfig({})).toMatchObject({ PORT: 8080, VARIANT: 'discovery' });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('loadConfig from the environment', () => {
  it('reads and converts every kind of setting', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/var/lib/marquee',
      DATABASE_URL: 'postgres://db/marquee',
      VARIANT: 'subscription',
      AUTH_METHODS: 'passphrase, email',
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SITE_KEY: 'site-key',
      CAPTCHA_SECRET: 'captcha-secret',
      PAYMENT_GATEWAY: 'shkeeper',
      SHKEEPER_URL: 'https://pay.example',
      SHKEEPER_API_KEY: 'key',
      ADMIN_EMAILS: 'a@example.org,b@example.org',
      ALLOW_AUTOPLAY: 'yes',
      HAS_ONBOARDING: '1',
      TMDB_API_KEY: 'eyJ.token.here',
      TMDB_TIMEOUT_MS: '100',
      FREE_MOVIE_TMDB_ID: '603',
      WEB_DIST_DIR: '/srv/web',
    });
    expect(config).toMatchObject({
      PORT: 9000,
      DATABASE_URL: 'postgres://db/marquee',
      VARIANT: 'subscription',
      AUTH_METHODS: ['passphrase', 'email'],
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SITE_KEY: 'site-key',
      PAYMENT_GATEWAY: 'shkeeper',
      ADMIN_EMAILS: ['a@example.org', 'b@example.org'],
      ALLOW_AUTOPLAY: true,
      HAS_ONBOARDING: true,
      TMDB_API_KEY: 'eyJ.token.here',
      TMDB_TIMEOUT_MS: 100,
      FREE_MOVIE_TMDB_ID: '603',
    });
    expect(config.dataDir).toBe('/var/lib/marquee');
    expect(config.webDistDir).toBe('/srv/web');
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('reads the flag %j as %s', (value, expected) => {
    expect(loadConfig({ ALLOW_AUTOPLAY: value }).ALLOW_AUTOPLAY).toBe(expected);
  });

  it('treats a blank optional setting as not set', () => {
    const config = loadConfig({ DATABASE_URL: '', TMDB_API_KEY: '   ', DMCA_EMAIL: '' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.TMDB_API_KEY).toBeUndefined();
    expect(config.DMCA_EMAIL).toBeUndefined();
  });

  it('accepts port 0 (any free port) and 65535', () => {
    expect(loadConfig({ PORT: '0' }).PORT).toBe(0);
    expect(loadConfig({ PORT: '65535' }).PORT).toBe(65535);
  });
});

describe('invalid configuration', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['VARIANT', 'premium'],
    ['AUTH_METHODS', 'passphrase,password'],
    ['CAPTCHA_PROVIDER', 'hcaptcha'],
    ['PAYMENT_GATEWAY', 'stripe'],
    ['ADMIN_EMAILS', 'admin@example.org,not-an-email'],
    ['LOG_LEVEL', 'loud'],
    ['ALLOW_AUTOPLAY', 'maybe'],
    ['TMDB_BASE_URL', 'not a url'],
    ['TMDB_TIMEOUT_MS', '0'],
    ['DOWNTIME_START', 'tomorrow'],
    ['FREE_MOVIE_TMDB_ID', 'the-matrix'],
  ])('refuses %s=%j with a ConfigError naming the setting', (name, value) => {
    const env: Record<string, string> = { [name]: value };
    if (name === 'DOWNTIME_START') env.DOWNTIME_END = '2030-01-01T00:00:00Z';
    expect(configError(env).message).toContain(name);
  });

  it('names every bad setting at once', () => {
    const message = configError({ PORT: 'x', VARIANT: 'y', CAPTCHA_PROVIDER: 'z' }).message;
    expect(message).toContain('PORT');
    expect(message).toContain('VARIANT');
    expect(message).toContain('CAPTCHA_PROVIDER');
  });

  it('never echoes a secret in the message', () => {
    const message = configError({
      TMDB_API_KEY: 'eyJ.super.secret',
      SHKEEPER_API_KEY: 'shh-secret',
      PORT: 'nope',
    }).message;
    expect(message).not.toContain('super.secret');
    expect(message).not.toContain('shh-secret');
  });
});

describe('provider-downtime window', () => {
  it('is read as a pair of ISO instants', () => {
    const config = loadConfig({
      DOWNTIME_START: '2030-01-01T00:00:00Z',
      DOWNTIME_END: '2030-01-01T06:00:00+02:00',
    });
    expect(config.DOWNTIME_START).toBe('2030-01-01T00:00:00Z');
    expect(config.DOWNTIME_END).toBe('2030-01-01T06:00:00+02:00');
  });

  it('needs both ends', () => {
    const halves: Record<string, string>[] = [
      { DOWNTIME_START: '2030-01-01T00:00:00Z' },
      { DOWNTIME_END: '2030-01-01T00:00:00Z' },
    ];
    for (const env of halves) {
      const message = configError(env).message;
      expect(message).toContain('DOWNTIME_START');
      expect(message).toContain('DOWNTIME_END');
    }
  });
});

describe('CONFIG_FILE', () => {
  it('supplies settings, with JSON numbers, booleans and lists', () => {
    const file = configFile(
      'full.json',
      JSON.stringify({
        PORT: 9001,
        VARIANT: 'subscription',
        AUTH_METHODS: ['passphrase', 'email'],
        ALLOW_AUTOPLAY: true,
        ADMIN_EMAILS: ['owner@example.org'],
        DMCA_EMAIL: 'dmca@example.org',
        ALLOW_SIMULATED_PAYMENTS: true,
      }),
    );
    expect(loadConfig({ CONFIG_FILE: file })).toMatchObject({
      PORT: 9001,
      VARIANT: 'subscription',
      AUTH_METHODS: ['passphrase', 'email'],
      ALLOW_AUTOPLAY: true,
      ADMIN_EMAILS: ['owner@example.org'],
      DMCA_EMAIL: 'dmca@example.org',
      CONFIG_FILE: file,
    });
  });

  it('is overridden by the environment, setting by setting', () => {
    const file = configFile(
      'overlay.json',
      JSON.stringify({
        PORT: 9001,
        INSTANCE_NAME: 'From the file',
        VARIANT: 'subscription',
        ALLOW_SIMULATED_PAYMENTS: true,
      }),
    );
    const config = loadConfig({ CONFIG_FILE: file, INSTANCE_NAME: 'From the environment', PORT: '9002' });
    expect(config).toMatchObject({
      PORT: 9002,
      INSTANCE_NAME: 'From the environment',
      VARIANT: 'subscription',
    });
  });

  it('is validated like the environment', () => {
    const file = configFile('bad-value.json', JSON.stringify({ VARIANT: 'premium' }));
    expect(configError({ CONFIG_FILE: file }).message).toContain('VARIANT');
  });

  it('refuses a file that is missing or not JSON, naming CONFIG_FILE', () => {
    expect(configError({ CONFIG_FILE: path.join(dir, 'missing.json') }).message).toContain('CONFIG_FILE');
    const broken = configFile('broken.json', '{ "PORT": 80,');
    expect(configError({ CONFIG_FILE: broken }).message).toContain('CONFIG_FILE');
  });

  it('refuses settings it does not know (a typo must not pass silently)', () => {
    const file = configFile('typo.json', JSON.stringify({ PROT: 9000 }));
    expect(configError({ CONFIG_FILE: file }).message).toContain('PROT');
  });
});

describe('empty variables mean "not set"', () => {
  it('keeps the defaults for PORT, VARIANT and AUTH_METHODS', () => {
    expect(loadConfig({ PORT: '', VARIANT: '', AUTH_METHODS: '' })).toMatchObject({
      PORT: 8080,
      VARIANT: 'discovery',
      AUTH_METHODS: ['passphrase'],
    });
  });

  it('refuses a list of sign-in methods that names none', () => {
    expect(configError({ AUTH_METHODS: ' , ' }).message).toContain('AUTH_METHODS');
  });

  it('refuses a downtime window that ends before it starts', () => {
    expect(
      configError({ DOWNTIME_START: '2026-11-21T12:00:00Z', DOWNTIME_END: '2026-11-21T10:00:00Z' }).message,
    ).toContain('DOWNTIME_END');
  });
});

describe('membership settings', () => {
  it('defaults to the two plans of decision 041 in USD', () => {
    const config = loadConfig({});
    expect(config.plans).toEqual([
      { id: 1, duration: 12, cost: 30, pref: 'year' },
      { id: 2, duration: 1, cost: 2.99, pref: 'month' },
    ]);
    expect(config.PAYMENT_CURRENCY).toBe('USD');
  });

  it('reads PLANS as JSON from the environment and as a list from CONFIG_FILE', () => {
    expect(loadConfig({ PLANS: '[{"id":7,"duration":3,"cost":8.5}]' }).plans).toEqual([
      { id: 7, duration: 3, cost: 8.5 },
    ]);
    const dir = mkdtempSync(path.join(tmpdir(), 'marquee-plans-'));
    const file = path.join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        PLANS: [{ id: 1, duration: 6, cost: 12, pref: 'month' }],
        ADMIN_EMAILS: ['a@example.org'],
      }),
    );
    const config = loadConfig({ CONFIG_FILE: file });
    expect(config.plans).toEqual([{ id: 1, duration: 6, cost: 12, pref: 'month' }]);
    expect(config.ADMIN_EMAILS).toEqual(['a@example.org']);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses bad PLANS and a SHKeeper gateway without its address and key', () => {
    expect(() => loadConfig({ PLANS: 'cheap' })).toThrow(ConfigError);
    expect(() => loadConfig({ PLANS: '[]' })).toThrow(/PLANS/);
    expect(() => loadConfig({ PLANS: '[{"id":1,"duration":0,"cost":3}]' })).toThrow(/PLANS/);
    expect(() =>
      loadConfig({ PLANS: '[{"id":1,"duration":1,"cost":3},{"id":1,"duration":2,"cost":5}]' }),
    ).toThrow(/unique/);
    expect(() => loadConfig({ PAYMENT_GATEWAY: 'shkeeper' })).toThrow(/SHKEEPER_URL and SHKEEPER_API_KEY/);
    expect(
      loadConfig({ PAYMENT_GATEWAY: 'shkeeper', SHKEEPER_URL: 'http://pay:5000', SHKEEPER_API_KEY: 'k' })
        .PAYMENT_GATEWAY,
    ).toBe('shkeeper');
  });
});

describe('configuration that cannot trap an operator', () => {
  it('names every problem at once, one line each, the combinations included', () => {
    const error = configError({
      PORT: 'abc',
      VARIANT: 'subscription',
      CAPTCHA_PROVIDER: 'turnstile',
      PAYMENT_GATEWAY: 'shkeeper',
      DATABASE_URL: 'mysql://db/marquee',
      DOWNTIME_START: '2026-12-01T10:00:00Z',
    });
    expect(error.problems).toHaveLength(5);
    expect(error.message).toMatch(/^Invalid configuration \(5 problems\):\n {2}- /);
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'CAPTCHA_SITE_KEY and CAPTCHA_SECRET',
      'SHKEEPER_URL and SHKEEPER_API_KEY',
      'DOWNTIME_END',
    ]) {
      expect(error.message).toContain(name);
    }
  });

  it('needs the keys of the captcha it is told to use (no crash at the first sign-up)', () => {
    expect(configError({ CAPTCHA_PROVIDER: 'turnstile' }).message).toContain(
      'CAPTCHA_PROVIDER=turnstile needs CAPTCHA_SITE_KEY and CAPTCHA_SECRET',
    );
    expect(configError({ CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SITE_KEY: 'k' }).problems).toEqual([
      "CAPTCHA_PROVIDER=recaptcha needs CAPTCHA_SECRET (from the provider's console)",
    ]);
    expect(
      loadConfig({ CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SITE_KEY: 'k', CAPTCHA_SECRET: 's' })
        .CAPTCHA_PROVIDER,
    ).toBe('recaptcha');
    expect(configError({ CAPTCHA_PROVIDER: 'none', SCRAPE_REQUIRES_CAPTCHA: 'true' }).message).toContain(
      'SCRAPE_REQUIRES_CAPTCHA',
    );
  });

  it('refuses a subscription site on the simulated gateway unless the operator says so', () => {
    expect(configError({ VARIANT: 'subscription' }).message).toContain('ALLOW_SIMULATED_PAYMENTS=true');
    expect(configError({ VARIANT: 'subscription', PAYMENT_GATEWAY: 'simulated' }).message).toContain(
      'PAYMENT_GATEWAY=shkeeper',
    );
    expect(loadConfig({ VARIANT: 'subscription', ALLOW_SIMULATED_PAYMENTS: 'true' }).PAYMENT_GATEWAY).toBe(
      'simulated',
    );
    const real = loadConfig({
      VARIANT: 'subscription',
      PAYMENT_GATEWAY: 'shkeeper',
      SHKEEPER_URL: 'https://pay.example',
      SHKEEPER_API_KEY: 'k',
    });
    expect(real.PAYMENT_GATEWAY).toBe('shkeeper');
    // A discovery site takes no payments: nothing to refuse.
    expect(loadConfig({}).PAYMENT_GATEWAY).toBe('simulated');
  });

  it.each([
    ['https://api.themoviedb.org', 'https://api.themoviedb.org/3'],
    ['https://api.themoviedb.org/', 'https://api.themoviedb.org/3'],
    ['https://api.themoviedb.org/3', 'https://api.themoviedb.org/3'],
    ['https://api.themoviedb.org/3/', 'https://api.themoviedb.org/3'],
    ['https://tmdb-proxy.example/tmdb', 'https://tmdb-proxy.example/tmdb/3'],
  ])('accepts the TMDB host %s with or without /3', (given, used) => {
    expect(loadConfig({ TMDB_BASE_URL: given, TMDB_FALLBACK_URL: given })).toMatchObject({
      TMDB_BASE_URL: used,
      TMDB_FALLBACK_URL: used,
    });
  });

  it.each([
    ['https://image.tmdb.org', 'https://image.tmdb.org/t/p'],
    ['https://image.tmdb.org/t/p/', 'https://image.tmdb.org/t/p'],
    ['https://images.example/tmdb', 'https://images.example/tmdb/t/p'],
  ])('accepts the image host %s with or without /t/p', (given, used) => {
    expect(loadConfig({ TMDB_IMAGE_URL: given }).TMDB_IMAGE_URL).toBe(used);
  });

  it('asks an online segment service only when the operator names one, over http(s)', () => {
    expect(loadConfig({}).SEGMENTS_SERVICE_URL).toBeUndefined();
    expect(
      loadConfig({ SEGMENTS_SERVICE_URL: 'https://api.theintrodb.org/v3', SEGMENTS_SERVICE_KEY: 'k' }),
    ).toMatchObject({ SEGMENTS_SERVICE_URL: 'https://api.theintrodb.org/v3', SEGMENTS_SERVICE_KEY: 'k' });
    expect(configError({ SEGMENTS_SERVICE_URL: 'ftp://segments.example' }).message).toContain(
      'SEGMENTS_SERVICE_URL: must be a URL like https://api.theintrodb.org/v3',
    );
    expect(configError({ SEGMENTS_SERVICE_URL: 'api.theintrodb.org/v3' }).problems).toHaveLength(1);
    // A key alone would look like the service is on: it is refused, and the key is not echoed.
    const keyAlone = configError({ SEGMENTS_SERVICE_KEY: 'secret-key-value' });
    expect(keyAlone.problems).toEqual([
      expect.stringContaining('SEGMENTS_SERVICE_KEY needs SEGMENTS_SERVICE_URL'),
    ]);
    expect(keyAlone.message).not.toContain('secret-key-value');
  });

  it('refuses database and cache URLs of the wrong kind, naming an example', () => {
    expect(configError({ DATABASE_URL: 'file:./marquee.db' }).message).toContain(
      'DATABASE_URL: must be a URL like postgres://',
    );
    expect(configError({ REDIS_URL: '127.0.0.1:6379' }).message).toContain(
      'REDIS_URL: must be a URL like redis://',
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://u:p@db:5432/m', REDIS_URL: 'rediss://cache:6380' }),
    ).toMatchObject({
      DATABASE_URL: 'postgresql://u:p@db:5432/m',
      REDIS_URL: 'rediss://cache:6380',
    });
  });
});
