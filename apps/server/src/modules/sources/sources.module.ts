import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { CaptchaSolutionsRepository } from '../captcha/captcha.repository.ts';
import { AltchaCaptcha, SiteverifyCaptcha } from '../captcha/captcha.service.ts';
import { SAMPLES_DIR } from '../../paths.ts';
import { InstanceSecretsRepository } from '../instance/instance-secrets.repository.ts';
import type { SessionAuthenticator } from '../../plugins/auth.ts';
import { LibraryIndexer } from './library-index.ts';
import { LinksFile } from './links-file.ts';
import { MEDIA_URL_SECRET_NAME, MediaUrlSigner } from './media-access.ts';
import { ScrapeTokens } from './scrape-token.ts';
import type { ReleaseMetadata } from './release-check.ts';
import { registerSourcesRoutes } from './sources.routes.ts';
import { SourcesService, type HumanCheck, type PlaybackAccess, type Viewers } from './sources.service.ts';
import { TakedownList } from './takedown.ts';

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
    { auth: SessionAuthenticator; customers: { isAdmin(userId: string): Promise<boolean> } } | undefined;
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

/** Sources and playback: the scrape API, the sample media and the media library, wired onto `server`. */
export async function registerSources(server: FastifyInstance, ctx: SourcesContext): Promise<SourcesService> {
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
  const accounts = ctx.accounts;
  const viewers: Viewers | undefined = accounts
    ? {
        authenticate: (token, userAgent) => accounts.auth.authenticate(token, userAgent),
        isAdmin: (userId) => accounts.customers.isAdmin(userId),
      }
    : undefined;
  const service = new SourcesService({
    samplesDir: ctx.overrides?.samplesDir ?? SAMPLES_DIR,
    mediaUrls,
    ...(viewers ? { viewers } : {}),
    ...(config.MEDIA_LIBRARY_DIR
      ? {
          library: new LibraryIndexer(libraryRoots(config.MEDIA_LIBRARY_DIR), {
            maxAgeMs: LIBRARY_MAX_AGE_MS,
            now: nowMs,
            log: (message, details) => server.log.warn(details, message),
          }),
        }
      : {}),
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
  return service;
}
