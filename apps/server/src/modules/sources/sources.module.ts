import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { CaptchaSolutionsRepository } from '../captcha/captcha.repository.ts';
import { AltchaCaptcha, SiteverifyCaptcha } from '../captcha/captcha.service.ts';
import { SAMPLES_DIR } from '../../paths.ts';
import { InstanceSecretsRepository } from '../instance/instance-secrets.repository.ts';
import type { SessionAuthenticator } from '../../plugins/auth.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { KidsProfiles } from '../customers/kids-profiles.ts';
import type { LibraryIndexer } from './library-index.ts';
import { openLibrary } from './library-setup.ts';
import { LinksFile } from './links-file.ts';
import { MEDIA_URL_SECRET_NAME, MediaUrlSigner } from './media-access.ts';
import { ScrapeTokens } from './scrape-token.ts';
import type { ReleaseMetadata } from './release-check.ts';
import { registerSourcesRoutes } from './sources.routes.ts';
import { SourcesService, type HumanCheck, type PlaybackAccess, type Viewers } from './sources.service.ts';
import { TakedownList } from './takedown.ts';
import { detectFfmpeg } from '../media/ffmpeg.ts';
import { RedisConversionPeers } from '../media/conversion-peers.ts';
import { MediaPipeline, type MediaPipelineOptions } from '../media/media-pipeline.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { registerThumbnailRoutes, Thumbnails } from '../media/thumbnails.ts';

/** A library index older than this is rebuilt on the next scrape (new files show up within a minute). */
const LIBRARY_MAX_AGE_MS = 60_000;
/** How long one solved captcha lets a client scrape. */
const SCRAPE_TOKEN_TTL_SECONDS = 10 * 60;
/**
 * How long a signed media URL works (decision 071): a long film plays without renewal; the player asks
 * for fresh URLs before, and the membership is checked on every request anyway.
 */
export const MEDIA_URL_TTL_MS = 4 * 60 * 60_000;

/** What tests (and only tests) replace in the sources module. */
export interface SourcesOverrides {
  humanCheck?: HumanCheck;
  samplesDir?: string;
  mediaUrlTtlMs?: number;
  /** Turns the conversions off as on a server without ffmpeg (tests of that case). */
  withoutFfmpeg?: boolean;
}

export interface SourcesContext {
  config: Config;
  database: DatabaseHandle;
  now: () => Date;
  fetch?: typeof fetch | undefined;
  overrides?: SourcesOverrides | undefined;
  /** Release dates of the scraped media (the metadata module); absent = no release check. */
  metadata?: ReleaseMetadata | undefined;
  /** The membership gate (issue 6); absent = anyone may resolve sources. */
  playbackAccess?: PlaybackAccess | undefined;
  /** The accounts module: media URLs are signed for the account that asked (decision 071). */
  accounts?:
    | {
        auth: SessionAuthenticator;
        customers: Pick<CustomersService, 'isAdmin' | 'openLibraryFor'>;
        kids: Pick<KidsProfiles, 'limitOf'>;
      }
    | undefined;
  /** Background jobs (seek thumbnails of library files, decision 086). */
  jobs?: JobQueue | undefined;
  /** Shared Redis (REDIS_URL): the servers behind a balancer share each conversion (decision 087). */
  redis?: Redis | undefined;
}

/**
 * The library folders: MEDIA_LIBRARY_DIR, several separated like PATH (`/srv/media:/mnt/disk2`). A link
 * inside one may lead into another; a link leading anywhere else is not followed (decision 071).
 */
export function libraryRoots(setting: string): string[] {
  return setting
    .split(path.delimiter)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => path.resolve(p));
}

/**
 * The instance's captcha for the scrape gate, built as the account module builds its own (same secret,
 * same used-solution table), so a challenge from /auth/captcha/challenge is accepted here.
 */
async function humanCheckFor(ctx: SourcesContext): Promise<HumanCheck> {
  const { config } = ctx;
  const nowMs = () => ctx.now().getTime();
  switch (config.CAPTCHA_PROVIDER) {
    case 'none':
      throw new Error('SCRAPE_REQUIRES_CAPTCHA=true needs a CAPTCHA_PROVIDER other than none');
    case 'altcha': {
      const hmacKey =
        config.CAPTCHA_SECRET ??
        (await new InstanceSecretsRepository(ctx.database.db).getOrCreate('altcha_hmac_key', nowMs()));
      return new AltchaCaptcha({
        hmacKey,
        maxNumber: config.ALTCHA_MAX_NUMBER,
        solutions: new CaptchaSolutionsRepository(ctx.database.db),
        now: nowMs,
      });
    }
    case 'turnstile':
    case 'recaptcha':
      if (!config.CAPTCHA_SECRET)
        throw new Error(
          `CAPTCHA_PROVIDER=${config.CAPTCHA_PROVIDER} needs CAPTCHA_SECRET (the siteverify secret key)`,
        );
      return new SiteverifyCaptcha(config.CAPTCHA_PROVIDER, {
        secret: config.CAPTCHA_SECRET,
        fetch: ctx.fetch ?? fetch,
      });
  }
}

/** Where conversions, converted subtitles and thumbnails are written. */
const transcodeDir = (config: Config) =>
  config.TRANSCODE_DIR ? path.resolve(config.TRANSCODE_DIR) : path.join(config.dataDir, 'transcodes');

/**
 * ffmpeg's conversions for the library (decision 085), when ffmpeg runs here: without it the library
 * offers only what the device plays as it is, and the admin self-test says what ffmpeg would add.
 */
async function mediaPipelineFor(
  server: FastifyInstance,
  ctx: SourcesContext,
  resolve: MediaPipelineOptions['resolve'],
): Promise<MediaPipeline | undefined> {
  const { config } = ctx;
  if (ctx.overrides?.withoutFfmpeg) return undefined;
  const tools = await detectFfmpeg(config.FFMPEG_PATH, config.FFPROBE_PATH);
  if (!tools.version) {
    server.log.warn(
      { ffmpeg: config.FFMPEG_PATH },
      'library: ffmpeg not found; files play only where the browser reads them as they are (see docs/operations.md)',
    );
    return undefined;
  }
  const workDir = transcodeDir(config);
  const log = (level: 'info' | 'warn', message: string, details: Record<string, unknown>) =>
    server.log[level](details, message);
  // What a previous run left (it stopped without cleaning up) is of no use: conversions restart on demand.
  await MediaPipeline.removeStale(workDir);
  const pipeline = new MediaPipeline({
    tools,
    workDir,
    limits: {
      maxTranscodes: config.TRANSCODE_MAX ?? availableParallelism(),
      maxRemuxes: config.REMUX_MAX,
      perViewer: config.TRANSCODE_MAX_PER_VIEWER,
    },
    hardware: config.HWACCEL,
    vaapiDevice: config.VAAPI_DEVICE,
    ...(ctx.redis
      ? { peers: new RedisConversionPeers({ redis: ctx.redis, prefix: config.REDIS_PREFIX, log }), resolve }
      : {}),
    log,
  });
  server.addHook('onClose', async () => pipeline.close());
  server.log.info({ ffmpeg: tools.version, workDir }, 'library: conversions with ffmpeg');
  return pipeline;
}

/** Sources and playback: the scrape API, the sample media and the media library, wired onto `server`. */
export async function registerSources(
  server: FastifyInstance,
  ctx: SourcesContext,
): Promise<{ service: SourcesService; library: LibraryIndexer | undefined }> {
  const { config } = ctx;
  const nowMs = () => ctx.now().getTime();
  const scrapeGate = config.SCRAPE_REQUIRES_CAPTCHA
    ? {
        humanCheck: ctx.overrides?.humanCheck ?? (await humanCheckFor(ctx)),
        tokens: new ScrapeTokens({
          secrets: new InstanceSecretsRepository(ctx.database.db),
          ttlSeconds: SCRAPE_TOKEN_TTL_SECONDS,
          now: nowMs,
        }),
      }
    : undefined;
  const links = config.LINKS_FILE ? new LinksFile(path.resolve(config.LINKS_FILE)) : undefined;
  if (links) {
    // Tell the operator at start-up, not at the first scrape, when their file is broken.
    await links
      .entries()
      .catch((error: unknown) => server.log.warn({ err: error }, 'LINKS_FILE cannot be used yet'));
  }
  const mediaUrls = new MediaUrlSigner(
    await new InstanceSecretsRepository(ctx.database.db).getOrCreate(MEDIA_URL_SECRET_NAME, nowMs()),
    { ttlMs: ctx.overrides?.mediaUrlTtlMs ?? MEDIA_URL_TTL_MS, now: nowMs },
  );
  // A peer's ask names a file and a plan: the service finds them as for its own requests.
  const pipeline: MediaPipeline | undefined = config.MEDIA_LIBRARY_DIR
    ? await mediaPipelineFor(server, ctx, (fileId, plan): ReturnType<SourcesService['libraryConversion']> =>
        service.libraryConversion(fileId, plan),
      )
    : undefined;
  // With ffmpeg found, ffprobe reads every library file (decision 085); the admin page reads the indexer's status.
  const library = config.MEDIA_LIBRARY_DIR
    ? openLibrary(server, {
        config,
        database: ctx.database,
        now: nowMs,
        roots: libraryRoots(config.MEDIA_LIBRARY_DIR),
        maxAgeMs: LIBRARY_MAX_AGE_MS,
        probe: pipeline !== undefined,
      })
    : undefined;
  // Seek thumbnails of library files, made by a background job (decision 086).
  const thumbnails =
    pipeline && ctx.jobs
      ? new Thumbnails({
          jobs: ctx.jobs,
          ffmpeg: config.FFMPEG_PATH,
          workDir: transcodeDir(config),
          log: (level, message, details) => server.log[level](details, message),
        })
      : undefined;
  const accounts = ctx.accounts;
  const viewers: Viewers | undefined = accounts
    ? {
        authenticate: (token, userAgent) => accounts.auth.authenticate(token, userAgent),
        isAdmin: (userId) => accounts.customers.isAdmin(userId),
        assertProfileOpen: async (auth, profile) => {
          await accounts.customers.openLibraryFor(auth, profile.id, profile.token);
        },
        limitOf: (auth, profileHeader) => accounts.kids.limitOf(auth, profileHeader),
      }
    : undefined;
  const service = new SourcesService({
    samplesDir: ctx.overrides?.samplesDir ?? SAMPLES_DIR,
    mediaUrls,
    ...(viewers ? { viewers } : {}),
    ...(library ? { library } : {}),
    ...(pipeline ? { pipeline } : {}),
    ...(thumbnails ? { thumbnails } : {}),
    ...(links ? { links } : {}),
    takedown: new TakedownList(
      config.TAKEDOWN_IDS,
      config.TAKEDOWN_FILE ? path.resolve(config.TAKEDOWN_FILE) : undefined,
    ),
    sourceOrder: config.SOURCE_ORDER,
    disabledSources: config.DISABLED_SOURCES,
    fetch: ctx.fetch ?? fetch,
    ...(scrapeGate ? { scrapeGate } : {}),
    ...(ctx.playbackAccess ? { playbackAccess: ctx.playbackAccess } : {}),
    ...(ctx.metadata ? { releases: { metadata: ctx.metadata, now: ctx.now } } : {}),
  });
  registerSourcesRoutes(server, service);
  if (thumbnails)
    registerThumbnailRoutes(server, {
      thumbnails,
      authorize: async (fileId, access) => ({
        cacheControl: service.mediaCacheControl(await service.authorizeMedia(`library:${fileId}`, access)),
      }),
      libraryFile: (fileId) => service.libraryFile(fileId),
    });
  return { service, library };
}
