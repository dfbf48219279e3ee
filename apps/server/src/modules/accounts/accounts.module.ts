import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import {
  historyEndpoints as history,
  ratingsEndpoints as ratings,
  syncEndpoints as e,
  type Endpoint,
  type LibraryChangeKind,
} from '@marquee/contract';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { requireSession } from '../../plugins/auth.ts';
import { createRateLimits, type RateLimitOverrides, type RateLimits } from '../../plugins/rate-limit.ts';
import { CircuitBreaker, connectRedis } from '../../plugins/redis.ts';
import { ChallengesRepository } from '../auth/auth.repository.ts';
import { registerAuthRoutes } from '../auth/auth.routes.ts';
import { AuthService } from '../auth/auth.service.ts';
import { BookmarksRepository } from '../bookmarks/bookmarks.repository.ts';
import { registerBookmarkRoutes } from '../bookmarks/bookmarks.routes.ts';
import { BookmarksService } from '../bookmarks/bookmarks.service.ts';
import { GroupOrderRepository } from '../bookmarks/group-order.repository.ts';
import { registerGroupOrderRoutes } from '../bookmarks/group-order.routes.ts';
import { GroupOrderService } from '../bookmarks/group-order.service.ts';
import { CaptchaSolutionsRepository } from '../captcha/captcha.repository.ts';
import { CustomersRepository } from '../customers/customers.repository.ts';
import {
  registerCustomerPublicRoutes,
  registerCustomerRoutes,
  selectProfileLibrary,
} from '../customers/customers.routes.ts';
import { CustomersService } from '../customers/customers.service.ts';
import { PasswordHasher, type ScryptCost } from '../customers/password-hasher.ts';
import { KidsProfiles } from '../customers/kids-profiles.ts';
import { OwnerProof } from '../customers/owner-proof.ts';
import { ProfileLocks } from '../customers/profile-locks.ts';
import { ProfilePinsRepository } from '../customers/profile-pins.repository.ts';
import { DeviceLinksRepository } from '../device-links/device-links.repository.ts';
import {
  registerDeviceLinkPublicRoutes,
  registerDeviceLinkRoutes,
} from '../device-links/device-links.routes.ts';
import { DeviceLinksService } from '../device-links/device-links.service.ts';
import { PasskeysRepository } from '../passkeys/passkeys.repository.ts';
import {
  registerPasskeyPublicRoutes,
  registerPasskeyRoutes,
  relyingPartyOf,
} from '../passkeys/passkeys.routes.ts';
import { PasskeysService } from '../passkeys/passkeys.service.ts';
import { normaliseEmail } from '../customers/roles.ts';
import { SignInThrottle } from '../customers/sign-in-throttle.ts';
import { addReadinessCheck } from '../health/health.routes.ts';
import { HistoryRepository } from '../history/history.repository.ts';
import { registerHistoryRoutes } from '../history/history.routes.ts';
import { HistoryService } from '../history/history.service.ts';
import { MembershipRepository } from '../membership/membership.repository.ts';
import { protocolClientsCanSolveCaptcha } from '../captcha/captcha-policy.ts';
import { registerCaptchaRoutes } from '../captcha/captcha.routes.ts';
import {
  AltchaCaptcha,
  NoCaptcha,
  SiteverifyCaptcha,
  type CaptchaVerifier,
} from '../captcha/captcha.service.ts';
import { InstanceSecretsRepository } from '../instance/instance-secrets.repository.ts';
import { ProcessEventBus, RedisEventBus, type EventBus } from '../live/event-bus.ts';
import { correctChangeTimes } from '../live/device-clock.ts';
import { LIVE_DEFAULTS, LiveStreams, registerLiveRoutes, type LiveOptions } from '../live/live.routes.ts';
import { scheduleCleanup } from '../maintenance/cleanup.job.ts';
import { JobRuns } from '../maintenance/job-runs.ts';
import { registerMetaRoutes } from '../meta/meta.routes.ts';
import { registerMetricsRoutes } from '../metrics/metrics.routes.ts';
import { metricsFor } from '../metrics/metrics.ts';
import { ProgressRepository } from '../progress/progress.repository.ts';
import { registerProgressRoutes } from '../progress/progress.routes.ts';
import { ProgressService } from '../progress/progress.service.ts';
import { RatingsRepository } from '../ratings/ratings.repository.ts';
import { registerRatingsRoutes } from '../ratings/ratings.routes.ts';
import { RatingsService } from '../ratings/ratings.service.ts';
import { SettingsRepository } from '../settings/settings.repository.ts';
import { registerSettingsRoutes } from '../settings/settings.routes.ts';
import { SettingsService } from '../settings/settings.service.ts';
import { SessionsRepository } from '../users/sessions.repository.ts';
import { UserAccountsService } from '../users/user-accounts.service.ts';
import { registerUserRoutes } from '../users/users.routes.ts';
import { UsersRepository } from '../users/users.repository.ts';
import type { EpisodeIds } from '../trakt/trakt-history-sync.ts';
import { UsersService } from '../users/users.service.ts';
import { registerTraktRoutes } from '../trakt/trakt.routes.ts';
import { createTraktModule, type TraktModule } from '../trakt/trakt.module.ts';

/** The library writes other devices hear about, and what they change. */
const libraryWriteKinds = new Map<Endpoint, LibraryChangeKind>([
  [e.addBookmark, 'bookmarks'],
  [e.importBookmarks, 'bookmarks'],
  [e.deleteBookmark, 'bookmarks'],
  [e.putGroupOrder, 'bookmarks'],
  [e.putProgress, 'progress'],
  [e.importProgress, 'progress'],
  [e.deleteProgress, 'progress'],
  [e.cleanupProgress, 'progress'],
  [e.putSettings, 'settings'],
  [history.putWatchHistory, 'history'],
  [history.importWatchHistory, 'history'],
  [history.deleteWatchHistory, 'history'],
  [ratings.putRating, 'ratings'],
  [ratings.importRatings, 'ratings'],
  [ratings.deleteRating, 'ratings'],
]);

/** What tests (and only tests) replace in the account and sync server. */
export interface AccountsOverrides {
  /** Different bucket sizes, or false to switch rate limits off (fuzz tests). */
  rateLimits?: RateLimitOverrides;
  captcha?: CaptchaVerifier;
  /** Cleanup job period; default hourly. */
  cleanupIntervalMs?: number;
  /** Cheaper password hashing, so suites that register many email accounts stay fast. */
  passwordCost?: ScryptCost;
  /** Library streams: heartbeat, maximum age, streams per account. */
  live?: Partial<LiveOptions>;
  /** How often the Trakt sync looks for due passes (default every minute); false: never by itself. */
  traktTickMs?: number | false;
  /** The most live ratings a library holds (default RATINGS_MAX), so the limit is testable. */
  ratingsMax?: number;
}

/** What the other modules (memberships, admin tools) use of the account server. */
export interface AccountsHandle {
  auth: AuthService;
  limits: RateLimits;
  customers: CustomersService;
  /** Profile PINs (decision 104): playback checks the profile it plays for is open. */
  locks: ProfileLocks;
  /** Kids' profiles (decision 106): metadata and playback keep to a kid's limit. */
  kids: KidsProfiles;
  users: UserAccountsService;
  /** The shared Redis connection when REDIS_URL is set (rate limits; the self-test pings it). */
  redis: Redis | undefined;
  /** The library streams of this process and the event bus that feeds them. */
  live: LiveStreams;
  /** The Trakt sync (decision 101). */
  trakt: TraktModule;
}

export interface AccountsContext {
  config: Config;
  database: DatabaseHandle;
  now: () => Date;
  fetch?: typeof fetch | undefined;
  overrides?: AccountsOverrides | undefined;
  /** TMDB's season and episode ids of an episode (plays pulled from Trakt name them). */
  episodeIds: EpisodeIds;
}

async function captchaFor(
  ctx: AccountsContext,
  solutions: CaptchaSolutionsRepository,
  nowMs: () => number,
): Promise<CaptchaVerifier> {
  const { config } = ctx;
  switch (config.CAPTCHA_PROVIDER) {
    case 'none':
      return new NoCaptcha();
    case 'altcha': {
      // The operator's secret, else one the instance makes once and shares through the database.
      const hmacKey =
        config.CAPTCHA_SECRET ??
        (await new InstanceSecretsRepository(ctx.database.db).getOrCreate('altcha_hmac_key', nowMs()));
      return new AltchaCaptcha({ hmacKey, maxNumber: config.ALTCHA_MAX_NUMBER, solutions, now: nowMs });
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

/**
 * The account and sync server (issue 3): passphrase auth, users, sessions, bookmarks, progress,
 * settings, /meta, metrics, captcha, rate limits and cleanup, wired onto `server`; and (issue 6) email
 * accounts with household profiles, whose libraries the sync routes select with X-Profile-Id.
 */
export async function registerAccountsAndSync(
  server: FastifyInstance,
  ctx: AccountsContext,
): Promise<AccountsHandle> {
  const { config, database } = ctx;
  const db = database.db;
  const now = () => ctx.now().getTime();

  const { redis, limits } = await sharedLimits(server, ctx);

  const bus: EventBus =
    redis && config.REDIS_URL
      ? new RedisEventBus(redis, config.REDIS_PREFIX, server.log)
      : new ProcessEventBus();
  // Streams close when their session ends, wherever it was ended (checked against the database).
  const live = new LiveStreams(bus, { ...LIVE_DEFAULTS, ...ctx.overrides?.live }, (ids) =>
    sessions.liveIds(ids, now()),
  );
  // Streams end before the server waits for its connections to close: clients reconnect elsewhere.
  server.addHook('preClose', async () => live.closeAll());

  const usersRepo = new UsersRepository(db, database.dialect);
  const users = new UserAccountsService(usersRepo);
  const sessions = new SessionsRepository(db);
  const challenges = new ChallengesRepository(db);
  const captchaSolutions = new CaptchaSolutionsRepository(db);
  const repos = libraryRepositories(database);

  const captcha = ctx.overrides?.captcha ?? (await captchaFor(ctx, captchaSolutions, now));
  const metrics = await metricsFor(Boolean(config.METRICS_TOKEN) || config.METRICS_PUBLIC, () =>
    users.countByNamespace(20),
  );
  const auth = new AuthService({
    db,
    users,
    sessions,
    challenges,
    captcha,
    captchaOptional: !protocolClientsCanSolveCaptcha(captcha.provider, config.CAPTCHA_SITE_KEY),
    now,
    sessionTtlMs: config.SESSION_TTL_DAYS * 24 * 60 * 60_000,
  });

  const { customers, locks, kids, hasher, owner } = createCustomers(ctx, {
    users,
    auth,
    captcha,
    limits,
    sessions,
  });
  const waysIn = createWaysIn(ctx, { auth, customers, users, hasher, limits, owner, challenges });

  const trakt = startTrakt(server, ctx, { repos, live });

  if (!server.hasRequestDecorator('auth')) server.decorateRequest('auth', null);
  // Every signed-in route registered from here on, in every module, is refused to a kids' profile
  // unless the contract opens it to kids (decision 106).
  kids.guard(server);
  registerMetricsRoutes(server, metrics, limits, config.METRICS_TOKEN);
  registerMetaRoutes(server, config);
  registerCaptchaRoutes(server, captcha, limits);
  registerAuthRoutes(server, auth, limits);
  registerCustomerPublicRoutes(server, customers, limits);
  waysIn.registerPublic(server);
  await server.register(async (scope) => {
    requireSession(scope, auth);
    registerUserRoutes(
      scope,
      new UsersService(usersRepo, sessions, now, undefined, (id) => live.endSession(id)),
    );
    registerCustomerRoutes(scope, customers, locks, kids);
    waysIn.registerSignedIn(scope);
    await scope.register(async (library) =>
      registerLibrary(library, {
        db,
        now,
        limits,
        live,
        users,
        customers,
        repos,
        dataDir: config.dataDir,
        trakt,
        ratingsMax: ctx.overrides?.ratingsMax,
      }),
    );
  });

  const stopCleanup = scheduleCleanup(
    { challenges, sessions, captchaSolutions, deviceLinks: waysIn.deviceLinks, ...repos },
    {
      intervalMs: ctx.overrides?.cleanupIntervalMs ?? 60 * 60_000,
      now,
      log: server.log,
      jobs: new JobRuns(db),
    },
  );
  server.addHook('onClose', async () => {
    await stopCleanup();
    await bus.close();
    if (redis) await redis.quit().catch(() => redis.disconnect());
  });
  return { auth, limits, customers, locks, kids, users, redis, live, trakt };
}

/** Redis when configured, and the rate limits kept there (in this process while it does not answer). */
async function sharedLimits(
  server: FastifyInstance,
  ctx: AccountsContext,
): Promise<{ redis: Redis | undefined; limits: RateLimits }> {
  const { config } = ctx;
  // Short timeouts and a circuit breaker: a Redis outage never holds a request (decision 070).
  const connection = config.REDIS_URL ? await connectRedis(config.REDIS_URL, server.log) : undefined;
  const redis = connection?.client;
  if (connection) addReadinessCheck(server, 'redis', async () => connection.problem());
  const limits = createRateLimits({
    redis,
    prefix: config.REDIS_PREFIX,
    overrides: ctx.overrides?.rateLimits,
    breaker: new CircuitBreaker({
      onChange: (state) => {
        if (state === 'open') server.log.warn('redis failed: rate limits use this process for a while');
        if (state === 'closed') server.log.info('redis answers again: rate limits are shared');
      },
    }),
  });
  return { redis, limits };
}

/**
 * The ways into an account besides its password or words: a code approved on a signed-in device
 * (decisions 105, 107) and passkeys (decision 109); their public routes and their signed-in ones.
 */
function createWaysIn(
  ctx: AccountsContext,
  deps: {
    auth: AuthService;
    customers: CustomersService;
    users: UserAccountsService;
    hasher: PasswordHasher;
    limits: RateLimits;
    owner: OwnerProof;
    challenges: ChallengesRepository;
  },
): {
  deviceLinks: DeviceLinksRepository;
  registerPublic(server: FastifyInstance): void;
  registerSignedIn(scope: FastifyInstance): void;
} {
  const { db } = ctx.database;
  const now = () => ctx.now().getTime();
  const { auth, customers, users, hasher, limits } = deps;
  const deviceLinksRepo = new DeviceLinksRepository(db);
  const deviceLinks = new DeviceLinksService({
    links: deviceLinksRepo,
    auth,
    customers,
    users,
    hasher,
    limits,
    now,
  });
  const passkeys = new PasskeysService({
    passkeys: new PasskeysRepository(db),
    challenges: deps.challenges,
    users,
    auth,
    customers,
    owner: deps.owner,
    now,
    rpName: 'Marquee',
  });
  const relyingParty = relyingPartyOf(ctx.config.PUBLIC_URL);
  return {
    deviceLinks: deviceLinksRepo,
    registerPublic(server) {
      registerDeviceLinkPublicRoutes(server, deviceLinks, limits);
      registerPasskeyPublicRoutes(server, passkeys, limits, relyingParty);
    },
    registerSignedIn(scope) {
      registerDeviceLinkRoutes(scope, deviceLinks);
      registerPasskeyRoutes(scope, passkeys, relyingParty);
    },
  };
}

/** Email accounts, household profiles, their PINs and kids' limits (decisions 040, 104, 106). */
function createCustomers(
  ctx: AccountsContext,
  deps: {
    users: UserAccountsService;
    auth: AuthService;
    captcha: CaptchaVerifier;
    limits: RateLimits;
    sessions: SessionsRepository;
  },
): {
  customers: CustomersService;
  locks: ProfileLocks;
  kids: KidsProfiles;
  hasher: PasswordHasher;
  owner: OwnerProof;
} {
  const { db } = ctx.database;
  const now = () => ctx.now().getTime();
  const { users, limits } = deps;
  const customers = new CustomersRepository(db);
  const hasher = new PasswordHasher(ctx.overrides?.passwordCost);
  let unlockKey: Promise<string> | undefined;
  const owner = new OwnerProof({ users, hasher, limits, prover: deps.auth });
  const locks = new ProfileLocks({
    pins: new ProfilePinsRepository(db),
    customers,
    users,
    hasher,
    limits,
    owner,
    // Made once per instance; a failed read is tried again at the next unlock.
    key: () =>
      (unlockKey ??= new InstanceSecretsRepository(db)
        .getOrCreate('profile_unlock_key', now())
        .catch((error: unknown) => {
          unlockKey = undefined;
          throw error;
        })),
    now,
  });
  const kids = new KidsProfiles({ customers, sessions: deps.sessions, locks, authenticator: deps.auth });
  const service = new CustomersService({
    db,
    users,
    customers,
    auth: deps.auth,
    hasher,
    locks,
    kids,
    captcha: deps.captcha,
    memberships: new MembershipRepository(db),
    adminEmails: new Set(ctx.config.ADMIN_EMAILS.map(normaliseEmail)),
    now,
    throttle: new SignInThrottle(limits),
  });
  return { customers: service, locks, kids, hasher, owner };
}

/** The repositories of every kind of library: the routes, the cleanup and the Trakt sync share them. */
function libraryRepositories({ db, dialect }: DatabaseHandle) {
  return {
    bookmarks: new BookmarksRepository(db, dialect),
    progress: new ProgressRepository(db, dialect),
    history: new HistoryRepository(db, dialect),
    ratings: new RatingsRepository(db, dialect),
  };
}
type LibraryRepositories = ReturnType<typeof libraryRepositories>;

/** The Trakt sync (decision 101), stopped before the database closes. */
function startTrakt(
  server: FastifyInstance,
  ctx: AccountsContext,
  deps: { repos: Pick<LibraryRepositories, 'history' | 'bookmarks' | 'ratings'>; live: LiveStreams },
): TraktModule {
  const trakt = createTraktModule({
    config: ctx.config,
    db: ctx.database.db,
    repos: deps.repos,
    episodeIds: ctx.episodeIds,
    announce: (lib, kind) => deps.live.announceServerChange(lib, kind, server.log),
    jobs: new JobRuns(ctx.database.db),
    now: () => ctx.now().getTime(),
    log: server.log,
    fetch: ctx.fetch,
    tickMs: ctx.overrides?.traktTickMs,
  });
  server.addHook('onClose', async () => trakt.close());
  return trakt;
}

interface LibraryScope {
  db: DatabaseHandle['db'];
  now: () => number;
  limits: RateLimits;
  live: LiveStreams;
  users: UserAccountsService;
  customers: CustomersService;
  repos: LibraryRepositories;
  /** Where the settings key file lives (decision 094). */
  dataDir: string;
  trakt: TraktModule;
  ratingsMax: number | undefined;
}

/**
 * The library routes (bookmarks, group order, progress, history, ratings, settings, the live stream) in their
 * scope: the profile chosen by `X-Profile-Id`, change times in the server's clock (decision 079), and
 * every successful write announced to the account's other devices.
 */
function registerLibrary(library: FastifyInstance, deps: LibraryScope): void {
  const { db, now, limits, live, repos } = deps;
  selectProfileLibrary(library, deps.customers);
  library.addHook('preHandler', async (request) => {
    if (request.method !== 'GET') correctChangeTimes(request, now());
  });
  library.addHook('onResponse', async (request, reply) => {
    const kind = libraryWriteKinds.get(request.routeOptions.config.contract!);
    if (kind && reply.statusCode < 300) live.announce(request, kind);
  });
  registerLiveRoutes(library, live);
  registerBookmarkRoutes(library, new BookmarksService(db, repos.bookmarks, now), limits);
  registerGroupOrderRoutes(library, new GroupOrderService(new GroupOrderRepository(db), now));
  registerProgressRoutes(library, new ProgressService(db, repos.progress, now), limits);
  registerHistoryRoutes(library, new HistoryService(db, repos.history, now), limits);
  registerRatingsRoutes(
    library,
    new RatingsService(db, repos.ratings, now, { maxRatings: deps.ratingsMax }),
    limits,
  );
  registerTraktRoutes(library, deps.trakt, limits);
  registerSettingsRoutes(
    library,
    new SettingsService(db, new SettingsRepository(db), deps.users, now, {
      secrets: { dataDir: deps.dataDir },
      log: library.log,
    }),
  );
}
