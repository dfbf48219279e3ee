import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AuthMethod, CaptchaProvider, Variant } from '@marquee/contract';
import { DEFAULT_WEB_DIST_DIR } from './paths.ts';

const list = <T extends z.ZodType<string, string>>(item: T) =>
  z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(item));

const optionalString = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A URL setting whose value must end with `suffix` (`/3`, `/t/p`): operators may give it with or without. */
const baseUrlEnding = (suffix: string) =>
  z
    .string()
    .url()
    .transform((value) => {
      const url = new URL(value);
      const pathname = url.pathname.replace(/\/+$/, '');
      url.pathname = pathname.endsWith(suffix) ? pathname : `${pathname}${suffix}`;
      return url.toString().replace(/\/+$/, '');
    });

const urlWithScheme = (schemes: string[], example: string) =>
  z
    .string()
    .trim()
    .transform((s) => (s === '' ? undefined : s))
    .optional()
    .refine(
      (value) => value === undefined || (URL.canParse(value) && schemes.includes(new URL(value).protocol)),
      {
        message: `must be a URL like ${example}`,
      },
    );

/** Every setting the server reads, by its environment name. Documented in the README. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Behind a reverse proxy: `true` trusts X-Forwarded-For from any hop, or name the proxies (comma list
   * of addresses/CIDRs). Off by default, so clients cannot pick their own address for rate limits.
   */
  TRUST_PROXY: z.string().default('false'),
  /**
   * Connections one client address may hold open at once (slow clients, file descriptors); not applied
   * to the trusted proxies' addresses (TRUST_PROXY), whose connections carry many clients. 0: no cap.
   */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(100_000).default(256),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: urlWithScheme(['postgres:', 'postgresql:'], 'postgres://user:password@host:5432/marquee'),
  REDIS_URL: urlWithScheme(['redis:', 'rediss:'], 'redis://host:6379'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INSTANCE_NAME: z.string().default('Marquee'),
  VARIANT: Variant.default('discovery'),
  AUTH_METHODS: list(AuthMethod)
    .pipe(z.array(AuthMethod).min(1, 'name at least one sign-in method'))
    .default(['passphrase']),
  CAPTCHA_PROVIDER: CaptchaProvider.default('altcha'),
  CAPTCHA_SITE_KEY: optionalString,
  CAPTCHA_SECRET: optionalString,
  PAYMENT_GATEWAY: z.enum(['simulated', 'shkeeper']).default('simulated'),
  /**
   * The simulated gateway lets anyone "pay" (memberships for free). A subscription site refuses to start
   * with it unless this says so: for demos and tests only.
   */
  ALLOW_SIMULATED_PAYMENTS: bool.default(false),
  SHKEEPER_URL: optionalString,
  SHKEEPER_API_KEY: optionalString,
  ADMIN_EMAILS: list(z.string().email()).default([]),
  MEDIA_LIBRARY_DIR: optionalString,
  /**
   * Follow changes in MEDIA_LIBRARY_DIR (a file added, changed or removed starts a scan ~2 s later). Set
   * false for network shares, where watching is unreliable or costly: the library is still rescanned
   * every minute and from the admin page.
   */
  LIBRARY_WATCH: bool.default(true),
  /**
   * Watch parties (decision 110): signed-out viewers may join one by its invite link with a display name
   * (they still need to be able to play its title: on a subscription site only the free movie).
   */
  WATCH_PARTY_GUESTS: bool.default(false),
  /** ffmpeg, a name on the PATH or a path: converts library files browsers cannot play (HLS). */
  FFMPEG_PATH: z.string().trim().min(1).default('ffmpeg'),
  /** ffprobe, a name on the PATH or a path: reads every library file's format, so every container is indexed. */
  FFPROBE_PATH: z.string().trim().min(1).default('ffprobe'),
  /**
   * Chromaprint's fpcalc (Debian: libchromaprint-tools), a name on the PATH or a path: fingerprints the
   * library's audio to find intros and credits (decision 111); without it they are not detected.
   */
  FPCALC_PATH: z.string().trim().min(1).default('fpcalc'),
  /**
   * An online segment service speaking TheIntroDB's API (`https://api.theintrodb.org/v3`): the least
   * trusted source of intros, recaps, credits and previews (decision 111). Unset: never asked.
   */
  SEGMENTS_SERVICE_URL: urlWithScheme(['http:', 'https:'], 'https://api.theintrodb.org/v3'),
  /** Its API key, sent as `Authorization: Bearer …` (optional; a secret: never logged). */
  SEGMENTS_SERVICE_KEY: optionalString,
  DMCA_EMAIL: optionalString,
  TMDB_API_KEY: optionalString,
  /** TMDB's API hosts, with or without `/3` (it is added when missing). */
  TMDB_BASE_URL: baseUrlEnding('/3').default('https://api.themoviedb.org/3'),
  TMDB_FALLBACK_URL: baseUrlEnding('/3').default('https://api.tmdb.org/3'),
  /** TMDB's image host, with or without `/t/p`. */
  TMDB_IMAGE_URL: baseUrlEnding('/t/p').default('https://image.tmdb.org/t/p'),
  /** The legacy lookup that converts old JustWatch media keys (JW-…) to TMDB ids. */
  JUSTWATCH_URL: z.string().url().default('https://apis.justwatch.com'),
  /**
   * TMDB's time limits (decision 082): the primary host gets TMDB_TIMEOUT_MS, the fallback what is left
   * of TMDB_BUDGET_MS (at most TMDB_FALLBACK_TIMEOUT_MS). The budget covers every TMDB call of one API
   * request and stays under the 8 s the browser waits for a metadata answer.
   */
  TMDB_TIMEOUT_MS: z.coerce.number().int().positive().default(3_000),
  TMDB_FALLBACK_TIMEOUT_MS: z.coerce.number().int().positive().default(5_000),
  TMDB_BUDGET_MS: z.coerce
    .number()
    .int()
    .positive()
    .max(7_500, 'must be at most 7500: the browser waits 8 s for a metadata answer')
    .default(7_000),
  DOWNTIME_START: z.iso.datetime({ offset: true }).optional(),
  DOWNTIME_END: z.iso.datetime({ offset: true }).optional(),
  ALLOW_AUTOPLAY: bool.default(false),
  HAS_ONBOARDING: bool.default(false),
  FREE_MOVIE_TMDB_ID: z.string().regex(/^\d+$/).optional(),
  EXTENSION_CHROME_URL: optionalString,
  EXTENSION_FIREFOX_URL: optionalString,
  PROXY_INSTALL_URL: optionalString,
  DOCS_URL: optionalString,
  WEB_DIST_DIR: optionalString,
  CONFIG_FILE: optionalString,
  // ---- accounts and sync ----
  /** Shown by GET /meta to clients choosing a server. */
  INSTANCE_DESCRIPTION: optionalString,
  /** A session signs out after this many days without use (sliding). */
  SESSION_TTL_DAYS: z.coerce.number().positive().max(3650).default(21),
  /** ALTCHA proof-of-work difficulty (upper bound of the secret number; the widget tries on average half). */
  ALTCHA_MAX_NUMBER: z.coerce.number().int().min(10).max(10_000_000).default(100_000),
  /** Prefix of every Redis key this instance writes (several instances may share one Redis). */
  REDIS_PREFIX: z.string().default('marquee:'),
  /** GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`; without a token it is refused (decision 073). */
  METRICS_TOKEN: optionalString,
  /** true: GET /metrics answers without a token (only where nothing else reaches the port). Ignored with a token. */
  METRICS_PUBLIC: bool.default(false),
  /**
   * Which other sites' pages may call the account/sync, customer and scrape APIs from a browser
   * (decision 015): `*` = any (they use bearer tokens, never cookies), a comma list of exact origins
   * (`https://app.example,http://localhost:5173`), or `none` = no CORS at all (only this instance's pages).
   */
  CORS_ORIGINS: z
    .string()
    .default('*')
    .transform((value, ctx): '*' | 'none' | string[] => {
      const items = value
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (items.length === 1 && items[0]!.toLowerCase() === 'none') return 'none';
      if (items.length === 0 || items.includes('*')) return '*';
      for (const item of items) {
        if (!URL.canParse(item) || new URL(item).origin !== item) {
          ctx.addIssue({
            code: 'custom',
            message: `"${item}" is not an origin (scheme://host[:port], no path or trailing slash)`,
          });
        }
      }
      return items;
    }),
  // ---- sources and playback ----
  /** Source ids tried first, in this order (comma list); the rest follow by rank, `sample` always last. */
  SOURCE_ORDER: list(z.string().regex(/^[a-z0-9-]{1,64}$/)).default([]),
  /** Source or embed ids switched off (comma list), e.g. `sample` once the instance has its own media. */
  DISABLED_SOURCES: list(z.string().regex(/^[a-z0-9-]{1,64}$/)).default([]),
  /** JSON file of TMDB id (+ season/episode) → stream URL(s) for the `links` source; reread when it changes. */
  LINKS_FILE: optionalString,
  /** Taken-down titles (comma list of TMDB ids: `603`, `movie-603`, `tv-1396`): scrapes answer media_removed. */
  TAKEDOWN_IDS: list(z.string().regex(/^(?:(?:movie|tv|show|series)-)?\d{1,10}$/i)).default([]),
  /** A file of more taken-down ids, one or more a line, `#` comments; reread when it changes. */
  TAKEDOWN_FILE: optionalString,
  /** Server-side scraping needs a solved captcha (CAPTCHA_PROVIDER); one solve covers ten minutes. */
  SCRAPE_REQUIRES_CAPTCHA: bool.default(false),
  // ---- library conversions (decision 085) ----
  /** Video transcodes running at once (0 = none: library files play only as they are or remuxed). Default: CPU cores. */
  TRANSCODE_MAX: z.coerce.number().int().min(0).max(256).optional(),
  /** Remuxes (video copied, sound converted) running at once: cheap, mostly disk. */
  REMUX_MAX: z.coerce.number().int().min(0).max(256).default(16),
  /** Conversions one viewer (account, or address when signed out) runs at once; a new one replaces their oldest. */
  TRANSCODE_MAX_PER_VIEWER: z.coerce.number().int().min(1).max(16).default(2),
  /** Hardware video encoder for transcodes: `none` (x264 in software), `vaapi`, `qsv`, `nvenc`. */
  HWACCEL: z.enum(['none', 'vaapi', 'qsv', 'nvenc']).default('none'),
  /** The VAAPI render node when HWACCEL=vaapi. */
  VAAPI_DEVICE: z.string().default('/dev/dri/renderD128'),
  /** Where conversions are written; default `<DATA_DIR>/transcodes` (fast local disk; emptied at start). */
  TRANSCODE_DIR: optionalString,
  // ---- memberships (subscription variant) ----
  /** JSON list of plans `[{"id":1,"duration":12,"cost":30,"pref":"year"}, …]`; default: `DEFAULT_PLANS`. */
  PLANS: optionalString,
  /** Fiat currency of plan prices and payment requests (SHKeeper always knows USD and EUR). */
  PAYMENT_CURRENCY: z.enum(['USD', 'EUR']).default('USD'),
  /** This instance's public address (`https://watch.example`), for the gateway's callback URL; default: the request's. */
  PUBLIC_URL: z.string().url().optional(),
  // ---- Trakt (decision 101) ----
  /** The operator's Trakt app (https://trakt.tv/oauth/applications): viewers may link Trakt when both are set. */
  TRAKT_CLIENT_ID: optionalString,
  TRAKT_CLIENT_SECRET: optionalString,
  /** Trakt's API host. */
  TRAKT_API_URL: z.string().url().default('https://api.trakt.tv'),
  /** How often a linked library asks Trakt what changed there (one light request when nothing did). */
  TRAKT_SYNC_MINUTES: z.coerce.number().int().min(1).max(1440).default(10),
});

/** One membership plan as configured (PLANS). */
export const PlanConfig = z.object({
  id: z.number().int().positive(),
  /** Months. */
  duration: z.number().int().min(1).max(120),
  cost: z.number().positive().max(1_000_000),
  pref: z.enum(['month', 'year']).optional(),
});
export type PlanConfig = z.infer<typeof PlanConfig>;
/** Default plans (decision 041): plan 1 is 12 months at $30 per year, plan 2 is 1 month at $2.99 per month. */
export const DEFAULT_PLANS: PlanConfig[] = [
  { id: 1, duration: 12, cost: 30, pref: 'year' },
  { id: 2, duration: 1, cost: 2.99, pref: 'month' },
];

function parsePlans(text: string | undefined, problems: string[]): PlanConfig[] {
  if (text === undefined) return DEFAULT_PLANS;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    problems.push('PLANS: must be a JSON list of {id, duration, cost, pref}');
    return DEFAULT_PLANS;
  }
  const parsed = z.array(PlanConfig).min(1).safeParse(json);
  if (!parsed.success) {
    problems.push(...parsed.error.issues.map((i) => `PLANS.${i.path.join('.')}: ${i.message}`));
    return DEFAULT_PLANS;
  }
  if (new Set(parsed.data.map((p) => p.id)).size !== parsed.data.length)
    problems.push('PLANS: ids must be unique');
  return parsed.data;
}

/**
 * Settings that are valid one by one but not together. They read the raw values (defaults applied by
 * name), so they are reported even when other settings failed to parse.
 */
function combinationProblems(raw: Record<string, unknown>): string[] {
  const value = (key: string, fallback?: string) => (raw[key] === undefined ? fallback : String(raw[key]));
  const problems: string[] = [];
  const start = value('DOWNTIME_START');
  const end = value('DOWNTIME_END');
  if ((start === undefined) !== (end === undefined))
    problems.push('DOWNTIME_START and DOWNTIME_END must be set together');
  else if (start && end && Date.parse(end) <= Date.parse(start))
    problems.push('DOWNTIME_END must be after DOWNTIME_START');

  const gateway = value('PAYMENT_GATEWAY', 'simulated');
  if (gateway === 'shkeeper') {
    const missing = ['SHKEEPER_URL', 'SHKEEPER_API_KEY'].filter((key) => !value(key));
    if (missing.length) problems.push(`PAYMENT_GATEWAY=shkeeper needs ${missing.join(' and ')}`);
  }
  const allowSimulated = ['true', '1', 'yes'].includes(value('ALLOW_SIMULATED_PAYMENTS', 'false')!);
  if (value('VARIANT', 'discovery') === 'subscription' && gateway === 'simulated' && !allowSimulated) {
    problems.push(
      'VARIANT=subscription with the simulated payment gateway gives memberships away: set PAYMENT_GATEWAY=shkeeper ' +
        '(with SHKEEPER_URL and SHKEEPER_API_KEY), or ALLOW_SIMULATED_PAYMENTS=true for a demo or test instance',
    );
  }

  if (Boolean(value('TRAKT_CLIENT_ID')) !== Boolean(value('TRAKT_CLIENT_SECRET')))
    problems.push('TRAKT_CLIENT_ID and TRAKT_CLIENT_SECRET must be set together (your Trakt app gives both)');

  if (value('SEGMENTS_SERVICE_KEY') && !value('SEGMENTS_SERVICE_URL'))
    problems.push(
      'SEGMENTS_SERVICE_KEY needs SEGMENTS_SERVICE_URL (e.g. https://api.theintrodb.org/v3): the segment service is asked only when its URL is set',
    );

  const captcha = value('CAPTCHA_PROVIDER', 'altcha');
  if (captcha === 'turnstile' || captcha === 'recaptcha') {
    const missing = ['CAPTCHA_SITE_KEY', 'CAPTCHA_SECRET'].filter((key) => !value(key));
    if (missing.length)
      problems.push(
        `CAPTCHA_PROVIDER=${captcha} needs ${missing.join(' and ')} (from the provider's console)`,
      );
  }
  if (captcha === 'none' && ['true', '1', 'yes'].includes(value('SCRAPE_REQUIRES_CAPTCHA', 'false')!)) {
    problems.push('SCRAPE_REQUIRES_CAPTCHA=true needs a CAPTCHA_PROVIDER other than none');
  }
  return problems;
}

export type Env = z.infer<typeof EnvSchema>;

export interface Config extends Env {
  /** Absolute path of DATA_DIR. */
  dataDir: string;
  /** Absolute path of the built web app. */
  webDistDir: string;
  /** PLANS, parsed (or the defaults). */
  plans: PlanConfig[];
}

/** The configuration cannot be used: every problem found, one line each, named by setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      problems.length === 1
        ? `Invalid configuration: ${problems[0]}`
        : `Invalid configuration (${problems.length} problems):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}

/**
 * Reads the configuration once: an optional JSON file (CONFIG_FILE) overlaid by the environment,
 * validated as a whole. Throws a ConfigError that names every bad setting.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const problems: string[] = [];
  let fromFile: Record<string, unknown> = {};
  if (env.CONFIG_FILE) {
    try {
      fromFile = JSON.parse(readFileSync(env.CONFIG_FILE, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      throw new ConfigError([`CONFIG_FILE: cannot read ${env.CONFIG_FILE}: ${(error as Error).message}`]);
    }
  }
  const merged: Record<string, unknown> = {};
  const known = new Set(Object.keys(EnvSchema.shape));
  const unknown = Object.keys(fromFile).filter((key) => !known.has(key));
  if (unknown.length) problems.push(`CONFIG_FILE: unknown setting(s) ${unknown.join(', ')}`);
  for (const [key, value] of Object.entries(fromFile)) {
    if (!known.has(key)) continue;
    // Lists of plain values become comma lists; structured values (PLANS) stay JSON.
    if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null))
      merged[key] = value.join(',');
    else merged[key] = typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
  }
  // An empty variable means "not set" (as `FOO= npm start` and compose files produce), never "empty".
  for (const key of known) if (env[key] !== undefined && env[key] !== '') merged[key] = env[key];
  for (const key of known) if (merged[key] === '') delete merged[key];

  const parsed = EnvSchema.safeParse(merged);
  if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  problems.push(...combinationProblems(merged));
  const plans = parsePlans(typeof merged.PLANS === 'string' ? merged.PLANS : undefined, problems);
  if (problems.length || !parsed.success) throw new ConfigError(problems);
  const config = parsed.data;
  return {
    ...config,
    dataDir: path.resolve(config.DATA_DIR),
    webDistDir: config.WEB_DIST_DIR ? path.resolve(config.WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    plans,
  };
}
