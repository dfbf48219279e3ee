import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Endpoint, RuntimeConfig } from '@marquee/contract';
import type { Config } from './config.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db/database.ts';
import {
  registerAccountsAndSync,
  type AccountsHandle,
  type AccountsOverrides,
} from './modules/accounts/accounts.module.ts';
import { registerAdminRoutes } from './modules/admin/admin.routes.ts';
import { SelfTestService } from './modules/admin/self-test.service.ts';
import { registerConfigRoutes } from './modules/config/config.routes.ts';
import { runtimeConfigFrom } from './modules/config/runtime-config.ts';
import { registerHealthRoutes } from './modules/health/health.routes.ts';
import { Catalog, LazyCatalog, loadCatalogData } from './modules/metadata/catalog/catalog.ts';
import { ImagesService } from './modules/metadata/images.service.ts';
import { MetadataCacheRepository } from './modules/metadata/metadata-cache.repository.ts';
import { scheduleMetadataCacheSweep } from './modules/metadata/metadata-cache.sweep.ts';
import { registerMetadataRoutes } from './modules/metadata/metadata.routes.ts';
import { MetadataService } from './modules/metadata/metadata.service.ts';
import { JustWatchClient } from './modules/metadata/justwatch/justwatch.client.ts';
import { registerMembership, type MembershipOverrides } from './modules/membership/membership.module.ts';
import type { MembershipService } from './modules/membership/membership.service.ts';
import { TmdbClient } from './modules/metadata/tmdb/tmdb.client.ts';
import type { TmdbApi } from './modules/metadata/tmdb/tmdb.types.ts';
import { registerJobs } from './modules/jobs/jobs.module.ts';
import { registerCast } from './modules/cast/cast.module.ts';
import { registerParties } from './modules/parties/parties.module.ts';
import type { PartyStreamOptions } from './modules/parties/parties.routes.ts';
import { JobRuns } from './modules/maintenance/job-runs.ts';
import type { LibraryIndexer } from './modules/sources/library-index.ts';
import { registerSources, type SourcesOverrides } from './modules/sources/sources.module.ts';
import { registerSegments } from './modules/segments/segments.module.ts';
import type { SourcesService } from './modules/sources/sources.service.ts';
import type { TraktModule } from './modules/trakt/trakt.module.ts';
import { registerWebRoutes } from './modules/web/web.routes.ts';
import { registerDelivery } from './plugins/delivery.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerBodyParsing } from './plugins/body-parsing.ts';
import { registerCors } from './plugins/cors.ts';
import { frameworkErrorOptions } from './plugins/framework-errors.ts';
import { registerInputHygiene } from './plugins/input-hygiene.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { zodSchemaController } from './plugins/schema-compilers.ts';

export interface AppDependencies {
  /** An open database; when absent the app opens (and closes) the configured one. */
  database?: DatabaseHandle;
  /** Replaces the metadata source (tests inject a catalog with a fixed clock). */
  metadataApi?: TmdbApi;
  fetch?: typeof fetch;
  now?: () => Date;
  logger?: boolean | object;
  /** Test seams of the account and sync server (rate limits, captcha, cleanup period). */
  accounts?: AccountsOverrides;
  /** Test seams of the sources module (captcha of the scrape gate, sample folder). */
  sources?: SourcesOverrides;
  /** Test seams of the membership module (payment gateway). */
  membership?: MembershipOverrides;
  /** How often expired metadata cache rows are swept (default hourly; tests shorten it). */
  metadataCacheSweepMs?: number;
  /** Timings of the watch parties' streams (tests shorten them). */
  parties?: Partial<PartyStreamOptions>;
}

/** One method and URL the server answers, and the contract declaration it was registered from. */
export interface RegisteredRoute {
  method: string;
  url: string;
  contract: Endpoint | undefined;
}

export interface App {
  server: FastifyInstance;
  /** Every route registered (HEAD routes Fastify adds included), in order; the contract tests read it. */
  routes: readonly RegisteredRoute[];
  database: DatabaseHandle;
  metadata: MetadataService;
  runtimeConfig: () => RuntimeConfig;
  /** The Trakt sync (decision 101): tests run its due passes without waiting for its schedule. */
  trakt: TraktModule;
}

let sharedCatalog: Catalog | undefined;
/** The catalog JSON is parsed once per process (tests build many apps), when a title is first asked for. */
function defaultCatalog(now: () => Date): LazyCatalog {
  return new LazyCatalog(() => (sharedCatalog ??= new Catalog(loadCatalogData(), now)));
}

function trustProxySetting(value: string): boolean | string[] {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0' || value === '') return false;
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/**
 * Closes a connection beyond `max` open ones from the same address (0: no cap). The trusted proxies'
 * addresses are exempt: their connections carry everyone (their own per-address limit applies there:
 * deploy/nginx.conf's limit_conn).
 */
function capConnectionsPerAddress(server: FastifyInstance, max: number, trusted: boolean | string[]): void {
  if (max === 0 || trusted === true) return;
  const exempt = trusted === false ? () => false : proxyAddr.compile(trusted);
  const open = new Map<string, number>();
  server.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || exempt(address, 0)) return;
    const count = (open.get(address) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/**
 * The app, step by step in a fixed order: Fastify runs plugins and hooks in the order they are added,
 * and each module may use those registered before it.
 */
export async function buildApp(config: Config, deps: AppDependencies = {}): Promise<App> {
  const now = deps.now ?? (() => new Date());
  const server = createServer(config, deps);
  const routes = recordRoutes(server);
  await registerPlugins(server, config);

  const ownsDatabase = !deps.database;
  const database = deps.database ?? (await openOwnDatabase(config, server.log));
  const metadata = createMetadata(config, deps, database, now);
  const freeMovieTitle = await loadFreeMovieTitle(config, metadata.service, server.log);
  const runtimeConfig = () => runtimeConfigFrom(config, metadata.api.kind, freeMovieTitle);

  registerOpenApi(server);
  const trakt = await registerModules({ config, deps, now, server, database, metadata, runtimeConfig });

  server.addHook('onClose', async () => {
    metadata.service.close();
    if (ownsDatabase) await database.destroy();
  });

  return { server, routes, database, metadata: metadata.service, runtimeConfig, trakt };
}

function createServer(config: Config, deps: AppDependencies): FastifyInstance {
  const server = Fastify({
    logger: deps.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxySetting(config.TRUST_PROXY),
    requestIdHeader: 'x-request-id',
    schemaController: zodSchemaController,
    ...frameworkErrorOptions,
  });
  capConnectionsPerAddress(server, config.MAX_CONNECTIONS_PER_ADDRESS, trustProxySetting(config.TRUST_PROXY));
  return server;
}

/** Every route added from now on (the hook comes before any route). */
function recordRoutes(server: FastifyInstance): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      routes.push({ method, url: route.url, contract: route.config?.contract });
  });
  return routes;
}

async function registerPlugins(server: FastifyInstance, config: Config): Promise<void> {
  registerErrorHandling(server);
  registerInputHygiene(server);
  await registerDelivery(server, config);
  // Both apply to every route added after them (CORS opts same-origin routes out as they are added).
  registerBodyParsing(server);
  await registerCors(server, config.CORS_ORIGINS);
}

/** The configured database, opened and migrated (a database handed in is the caller's). */
async function openOwnDatabase(config: Config, log: FastifyBaseLogger): Promise<DatabaseHandle> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir, log });
  await migrateToLatest(database.db);
  return database;
}

interface MetadataParts {
  api: TmdbApi;
  cache: MetadataCacheRepository | undefined;
  service: MetadataService;
  images: ImagesService;
}

function createMetadata(
  config: Config,
  deps: AppDependencies,
  database: DatabaseHandle,
  now: () => Date,
): MetadataParts {
  const api: TmdbApi =
    deps.metadataApi ??
    (config.TMDB_API_KEY
      ? new TmdbClient({
          apiKey: config.TMDB_API_KEY,
          baseUrl: config.TMDB_BASE_URL,
          fallbackUrl: config.TMDB_FALLBACK_URL,
          timeoutMs: config.TMDB_TIMEOUT_MS,
          fallbackTimeoutMs: config.TMDB_FALLBACK_TIMEOUT_MS,
          budgetMs: config.TMDB_BUDGET_MS,
          ...(deps.fetch ? { fetch: deps.fetch } : {}),
        })
      : defaultCatalog(now));
  // Only TMDB's answers are cached (the catalog answers from memory).
  const cache = api.kind === 'tmdb' ? new MetadataCacheRepository(database.db) : undefined;
  const service = new MetadataService({
    api,
    // With TMDB, the embedded catalog's titles (read on the first search that needs them) correct typos.
    ...(cache ? { cache, spelling: defaultCatalog(now) } : {}),
    legacy: new JustWatchClient(config.JUSTWATCH_URL, 10_000, deps.fetch),
    now: () => now().getTime(),
  });
  const images = new ImagesService(api, config.TMDB_IMAGE_URL, deps.fetch);
  return { api, cache, service, images };
}

async function loadFreeMovieTitle(
  config: Config,
  metadata: MetadataService,
  log: FastifyBaseLogger,
): Promise<string | null> {
  if (!config.FREE_MOVIE_TMDB_ID) return null;
  return metadata
    .details('movie', config.FREE_MOVIE_TMDB_ID)
    .then((m) => m.title)
    .catch((error: unknown) => {
      log.warn({ err: error }, 'free movie of the month could not be loaded');
      return null;
    });
}

/** What the modules are built from: the configuration, the test seams and the earlier steps' parts. */
interface AppParts {
  config: Config;
  deps: AppDependencies;
  now: () => Date;
  server: FastifyInstance;
  database: DatabaseHandle;
  metadata: MetadataParts;
  runtimeConfig: () => RuntimeConfig;
}

async function registerModules(parts: AppParts): Promise<TraktModule> {
  const { config, deps, now, server, database, metadata } = parts;
  registerHealthRoutes(server, database.db);
  registerConfigRoutes(server, parts.runtimeConfig);
  const accounts = await registerAccountsAndSync(server, {
    config,
    database,
    now,
    fetch: deps.fetch,
    overrides: deps.accounts,
    episodeIds: async (show, season, episode) => {
      const found = await metadata.service.season(show, season);
      const ids = found.episodes.find((e) => e.number === episode);
      return ids ? { seasonId: found.id, episodeId: ids.id } : undefined;
    },
  });
  // After the accounts module, whose rate limits the title match counts in.
  registerMetadataRoutes(server, metadata.service, metadata.images, accounts.limits, (request) =>
    accounts.kids.limitOfRequest(request),
  );
  const jobs = await registerJobs(server, {
    config,
    authenticator: accounts.auth,
    customers: accounts.customers,
  });
  if (metadata.cache) {
    const stopSweep = scheduleMetadataCacheSweep({
      cache: metadata.cache,
      jobs,
      runs: new JobRuns(database.db),
      now: () => now().getTime(),
      log: server.log,
      intervalMs: deps.metadataCacheSweepMs,
    });
    server.addHook('onClose', stopSweep);
  }
  const membership = await registerMembership(server, {
    config,
    database,
    now,
    fetch: deps.fetch,
    accounts,
    overrides: deps.membership,
  });
  const { service: sources, library } = await registerSources(server, {
    config,
    database,
    now,
    fetch: deps.fetch,
    overrides: deps.sources,
    metadata: metadata.service,
    playbackAccess: membership,
    accounts,
    jobs,
    redis: accounts.redis,
  });
  // Skip intro and credits (decision 111): detection on the library, read under the media's own token.
  await registerSegments(server, {
    config,
    database,
    now,
    sources,
    library,
    jobs,
    auth: accounts.auth,
    limits: accounts.limits,
    fetch: deps.fetch,
  });
  await registerParties(server, {
    config,
    now,
    accounts,
    sources,
    redis: accounts.redis,
    limits: accounts.limits,
    streams: deps.parties,
  });
  // Captions relayed for a Chromecast (decision 113), counted in the accounts module's rate limits.
  registerCast(server, { config, now, redis: accounts.redis, limits: accounts.limits });
  await registerAdminAndWebRoutes(parts, { accounts, membership, sources, library });
  return accounts.trakt;
}

async function registerAdminAndWebRoutes(
  { config, now, server, database, metadata, runtimeConfig }: AppParts,
  modules: {
    accounts: AccountsHandle;
    membership: MembershipService;
    sources: SourcesService;
    library: LibraryIndexer | undefined;
  },
): Promise<void> {
  const { accounts, membership, sources, library } = modules;
  const selfTest = new SelfTestService({
    config,
    database,
    server,
    metadataApi: metadata.api,
    redis: accounts.redis,
    gatewayHealth: () => membership.gatewayHealth(),
    sources,
    now: () => now().getTime(),
  });
  await registerAdminRoutes(server, {
    selfTest,
    authenticator: accounts.auth,
    customers: accounts.customers,
    library,
  });
  await registerWebRoutes(server, config, runtimeConfig, {
    titleBackdrop: async (type, id, language, region) =>
      (await metadata.service.detailsAtHand(type, id, language, region))?.backdrop ?? null,
  });
}
