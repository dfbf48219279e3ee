import { execFile } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Redis } from 'ioredis';
import { APP_VERSION, accountPaths, type SelfTestCheck, type SelfTestResponse } from '@marquee/contract';
import { NotFoundError, type ScrapeMedia } from '@marquee/providers';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { TmdbClient } from '../metadata/tmdb/tmdb.client.ts';
import type { TmdbApi } from '../metadata/tmdb/tmdb.types.ts';
import type { GatewayHealth } from '../membership/payment-gateway.ts';
import type { SourcesService } from '../sources/sources.service.ts';

/** Longest one check may take; a stuck dependency fails its check, never the whole page. */
export const CHECK_TIMEOUT_MS = 20_000;

export interface SelfTestDeps {
  config: Config;
  database: DatabaseHandle;
  server: FastifyInstance;
  metadataApi: TmdbApi;
  redis: Redis | undefined;
  gatewayHealth: () => Promise<GatewayHealth>;
  sources: SourcesService;
  now: () => number;
}

type Outcome = { status: SelfTestCheck['status']; reason: string };

/** A URL with its user and password removed (configuration is shown, secrets never). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return '(not a URL)';
  }
}

const isSet = (value: unknown) => (value ? 'set' : 'not set');

/** The first line of `<tool> -version` ("ffprobe version 5.1.6-0+deb12u1 …"), or null when it does not run. */
function toolVersion(command: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, ['-hide_banner', '-version'], { timeout: 10_000, windowsHide: true }, (error, stdout) =>
      resolve(error ? null : (String(stdout).split('\n')[0]?.trim() ?? null) || command),
    );
  });
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The titles providers are asked for: the free movie if there is one, else The Matrix; a well-known episode. */
function testMedia(config: Config): { movie: ScrapeMedia; show: ScrapeMedia } {
  return {
    movie: {
      type: 'movie',
      title: 'The Matrix',
      releaseYear: 1999,
      tmdbId: config.FREE_MOVIE_TMDB_ID ?? '603',
    },
    show: {
      type: 'show',
      title: 'Breaking Bad',
      releaseYear: 2008,
      tmdbId: '1396',
      season: { number: 1, tmdbId: '3572' },
      episode: { number: 1, tmdbId: '62085' },
    },
  };
}

/**
 * The instance self-test of the admin panel (decision 041): configuration, database, account backend,
 * metadata source, Redis, payment gateway and every provider, each with pass/fail and a reason.
 */
export class SelfTestService {
  constructor(private readonly d: SelfTestDeps) {}

  configuration(): SelfTestResponse['config'] {
    const c = this.d.config;
    return {
      appVersion: APP_VERSION,
      instanceName: c.INSTANCE_NAME,
      variant: c.VARIANT,
      authMethods: c.AUTH_METHODS.join(', '),
      captchaProvider: c.CAPTCHA_PROVIDER,
      captchaSecret: isSet(c.CAPTCHA_SECRET),
      database: c.DATABASE_URL
        ? `postgresql ${withoutCredentials(c.DATABASE_URL)}`
        : `sqlite in ${c.dataDir}`,
      redis: c.REDIS_URL ? withoutCredentials(c.REDIS_URL) : null,
      metadataSource: this.d.metadataApi.kind,
      tmdbApiKey: isSet(c.TMDB_API_KEY),
      paymentGateway: c.PAYMENT_GATEWAY,
      shkeeperUrl: c.SHKEEPER_URL ? withoutCredentials(c.SHKEEPER_URL) : null,
      shkeeperApiKey: isSet(c.SHKEEPER_API_KEY),
      publicUrl: c.PUBLIC_URL ?? null,
      currency: c.PAYMENT_CURRENCY,
      plans: c.plans
        .map((p) => `#${p.id}: ${p.duration} month(s) for ${p.cost} ${c.PAYMENT_CURRENCY}`)
        .join('; '),
      adminEmails: c.ADMIN_EMAILS.length,
      freeMovieTmdbId: c.FREE_MOVIE_TMDB_ID ?? null,
      mediaLibraryDir: c.MEDIA_LIBRARY_DIR ?? null,
      libraryWatch: c.LIBRARY_WATCH,
      ffmpegPath: c.FFMPEG_PATH,
      ffprobePath: c.FFPROBE_PATH,
      linksFile: c.LINKS_FILE ?? null,
      sourceOrder: c.SOURCE_ORDER.join(', '),
      disabledSources: c.DISABLED_SOURCES.join(', '),
      scrapeRequiresCaptcha: c.SCRAPE_REQUIRES_CAPTCHA,
      sessionTtlDays: c.SESSION_TTL_DAYS,
      trustProxy: c.TRUST_PROXY,
      dmcaEmail: isSet(c.DMCA_EMAIL),
      metricsToken: isSet(c.METRICS_TOKEN),
    };
  }

  async run(origin: string): Promise<SelfTestResponse> {
    const started = this.d.now();
    const checks: Promise<SelfTestCheck>[] = [
      this.check('config', 'Configuration', async () => this.configCheck()),
      this.check('database', 'Database', () => this.databaseCheck()),
      this.check('account-backend', 'Account backend (/meta)', () => this.metaCheck()),
      this.check('metadata', 'Metadata source', () => this.metadataCheck()),
      this.check('redis', 'Redis', () => this.redisCheck()),
      this.check('ffmpeg', 'ffmpeg and ffprobe', () => this.ffmpegCheck()),
      this.check('payment-gateway', 'Payment gateway', async () => {
        const health = await this.d.gatewayHealth();
        return { status: health.ok ? 'pass' : 'fail', reason: health.reason };
      }),
    ];
    const providerChecks = this.providerChecks(origin);
    const all = [...(await Promise.all(checks)), ...(await providerChecks)];
    return {
      ok: all.every((c) => c.status !== 'fail'),
      startedAt: new Date(started).toISOString(),
      durationMs: this.d.now() - started,
      config: this.configuration(),
      checks: all,
      tmdb: this.tmdbStats(),
    };
  }

  /** TMDB's recent latency and errors as this process saw them (its metadata check included). */
  tmdbStats(): SelfTestResponse['tmdb'] {
    const api = this.d.metadataApi;
    if (!(api instanceof TmdbClient)) return null;
    const summary = api.stats.summary();
    const round = (ms: number | null) => (ms === null ? null : Math.round(ms));
    return { ...summary, p50Ms: round(summary.p50Ms), p95Ms: round(summary.p95Ms) };
  }

  private async check(id: string, name: string, run: () => Promise<Outcome>): Promise<SelfTestCheck> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Outcome>((resolve) => {
      timer = setTimeout(
        () => resolve({ status: 'fail', reason: `no answer within ${CHECK_TIMEOUT_MS / 1000} s` }),
        CHECK_TIMEOUT_MS,
      );
    });
    const outcome = await Promise.race([
      run().catch((error: unknown): Outcome => ({ status: 'fail', reason: message(error) })),
      timeout,
    ]);
    clearTimeout(timer);
    return { id, name, ...outcome, durationMs: Math.round(performance.now() - started) };
  }

  private configCheck(): Outcome {
    const c = this.d.config;
    const problems: string[] = [];
    const notes: string[] = [];
    if (c.VARIANT === 'subscription' && !c.AUTH_METHODS.includes('email'))
      problems.push('VARIANT=subscription without email sign-in (AUTH_METHODS): customers cannot register');
    if (c.VARIANT === 'subscription' && c.PAYMENT_GATEWAY === 'simulated')
      notes.push('payments are simulated (PAYMENT_GATEWAY=simulated)');
    if (c.VARIANT === 'subscription' && c.PAYMENT_GATEWAY === 'shkeeper' && !c.PUBLIC_URL)
      notes.push('PUBLIC_URL is not set: the callback URL is taken from each request');
    if (c.CAPTCHA_PROVIDER === 'none') notes.push('no captcha on sign-up');
    if (problems.length) return { status: 'fail', reason: [...problems, ...notes].join('; ') };
    return {
      status: 'pass',
      reason: `Configuration is valid (${c.VARIANT} site)${notes.length ? `; note: ${notes.join('; ')}` : ''}`,
    };
  }

  private async databaseCheck(): Promise<Outcome> {
    await sql`select 1`.execute(this.d.database.db);
    const users = await this.d.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const kind = this.d.database.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite';
    const count = Number(users.n);
    return { status: 'pass', reason: `${kind} answers; ${count} ${count === 1 ? 'account' : 'accounts'}` };
  }

  private async metaCheck(): Promise<Outcome> {
    const res = await this.d.server.inject({ method: 'GET', url: accountPaths.meta });
    if (res.statusCode !== 200) return { status: 'fail', reason: `GET /meta answered ${res.statusCode}` };
    const meta = JSON.parse(res.body) as { name?: string; version?: string; hasCaptcha?: boolean };
    return {
      status: 'pass',
      reason: `"${meta.name}" version ${meta.version}${meta.hasCaptcha ? ', with captcha' : ''}`,
    };
  }

  private async metadataCheck(): Promise<Outcome> {
    const api = this.d.metadataApi;
    if (api.kind === 'tmdb') {
      const genres = await api.genres('movie');
      return { status: 'pass', reason: `TMDB accepted the API key (${genres.genres.length} movie genres)` };
    }
    const size = (api as TmdbApi & { size?: { movies: number; shows: number } }).size;
    if (!size || size.movies === 0) return { status: 'fail', reason: 'The embedded catalog is empty' };
    return {
      status: 'pass',
      reason: `Embedded catalog loaded: ${size.movies} movies, ${size.shows} shows (no TMDB_API_KEY)`,
    };
  }

  /**
   * Whether ffprobe and ffmpeg run (FFPROBE_PATH, FFMPEG_PATH) and what they add to the media library:
   * ffprobe lets every container be indexed, ffmpeg converts what a browser cannot play. Missing tools fail
   * the check only when there is a library to use them on.
   */
  private async ffmpegCheck(): Promise<Outcome> {
    const c = this.d.config;
    const [ffprobe, ffmpeg] = await Promise.all([toolVersion(c.FFPROBE_PATH), toolVersion(c.FFMPEG_PATH)]);
    const found = (name: string, version: string | null, path: string) =>
      version ? version.replace(/ Copyright.*$/, '') : `${name} not found (${path})`;
    const adds = [
      ffprobe
        ? 'every library file is read by ffprobe, so every container ffmpeg reads is indexed (MKV, MP4, AVI, TS, WMV, …)'
        : 'without ffprobe only MP4 and Matroska files are indexed',
      ffmpeg
        ? 'files a browser cannot play are converted (remuxed or transcoded to HLS)'
        : 'without ffmpeg files a browser cannot play are not offered',
    ];
    const reason = `${found('ffprobe', ffprobe, c.FFPROBE_PATH)}; ${found('ffmpeg', ffmpeg, c.FFMPEG_PATH)}: ${adds.join('; ')}`;
    if (ffprobe && ffmpeg) return { status: 'pass', reason };
    if (!c.MEDIA_LIBRARY_DIR)
      return { status: 'skip', reason: `${reason} (no MEDIA_LIBRARY_DIR: not needed)` };
    return {
      status: 'fail',
      reason: `${reason}. Install ffmpeg (Debian: apt-get install ffmpeg) or set FFPROBE_PATH/FFMPEG_PATH`,
    };
  }

  private async redisCheck(): Promise<Outcome> {
    if (!this.d.config.REDIS_URL || !this.d.redis)
      return { status: 'skip', reason: 'REDIS_URL is not set: rate limits are kept in this process' };
    const answer = await this.d.redis.ping();
    return answer === 'PONG'
      ? { status: 'pass', reason: 'Redis answers PING' }
      : { status: 'fail', reason: `Redis answered ${answer}` };
  }

  /** Every enabled source is asked for a well-known title; embeds are tried with what the sources offered. */
  private async providerChecks(origin: string): Promise<SelfTestCheck[]> {
    const [embeds, sources] = this.d.sources.metadata();
    const media = testMedia(this.d.config);
    const offered = new Map<string, string>();
    const sourceChecks = await Promise.all(
      sources.map((source) =>
        this.check(`source:${source.id}`, `Source: ${source.name}`, async () => {
          const target = source.mediaTypes?.includes('movie') === false ? media.show : media.movie;
          const label =
            target.type === 'movie' ? `${target.title} (${target.releaseYear})` : `${target.title} S01E01`;
          try {
            const output = await this.d.sources.scrapeSource(source.id, target, {
              origin,
              signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
              events: { update: () => {} },
            });
            for (const embed of output.embeds)
              if (!offered.has(embed.embedId)) offered.set(embed.embedId, embed.url);
            const streams = output.stream?.length ?? 0;
            return {
              status: 'pass',
              reason: `Answers: ${streams} stream(s), ${output.embeds.length} embed(s) for ${label}`,
            };
          } catch (error) {
            if (error instanceof NotFoundError)
              return { status: 'pass', reason: `Answers: nothing for ${label}` };
            throw error;
          }
        }),
      ),
    );
    const embedChecks = await Promise.all(
      embeds.map((embed) => {
        const url = offered.get(embed.id);
        if (!url) {
          return Promise.resolve<SelfTestCheck>({
            id: `embed:${embed.id}`,
            name: `Embed: ${embed.name}`,
            status: 'skip',
            reason: 'No source offered this embed for the test title',
            durationMs: 0,
          });
        }
        return this.check(`embed:${embed.id}`, `Embed: ${embed.name}`, async () => {
          const output = await this.d.sources.scrapeEmbed(embed.id, url, {
            origin,
            signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
            events: { update: () => {} },
          });
          return {
            status: output.stream.length > 0 ? 'pass' : 'fail',
            reason: `Answers: ${output.stream.length} stream(s)`,
          };
        });
      }),
    );
    return [...sourceChecks, ...embedChecks];
  }
}
