import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { PROFILE_HEADER, PROFILE_TOKEN_HEADER, type PartyTitle } from '@marquee/contract';
import type { ScrapeMedia } from '@marquee/providers';
import type { Config } from '../../config.ts';
import { playbackTokenOf, requireSession } from '../../plugins/auth.ts';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import type { AccountsHandle } from '../accounts/accounts.module.ts';
import { kidsProfileRefused } from '../customers/kids-profiles.ts';
import type { SourcesService } from '../sources/sources.service.ts';
import {
  PARTY_STREAM_DEFAULTS,
  PartyStreams,
  registerPartyPublicRoutes,
  registerPartyRoutes,
  type PartyAccess,
  type PartyStreamOptions,
} from './parties.routes.ts';
import { PartiesService } from './parties.service.ts';
import { ProcessPartyStore, RedisPartyStore } from './party-store.ts';
import { ProcessPlayerStatusStore, RedisPlayerStatusStore } from './player-status.ts';

/** What the scrape API would be asked for to play a party's title. */
export function scrapeMediaOfTitle(title: PartyTitle): ScrapeMedia {
  const common = {
    title: title.title,
    releaseYear: title.releaseYear ?? 0,
    tmdbId: title.tmdbId,
    ...(title.imdbId ? { imdbId: title.imdbId } : {}),
  };
  if (title.type === 'movie') return { ...common, type: 'movie' };
  return { ...common, type: 'show', season: title.season!, episode: title.episode! };
}

export interface PartiesContext {
  config: Config;
  now: () => Date;
  accounts: AccountsHandle;
  sources: SourcesService;
  redis: Redis | undefined;
  limits: RateLimits;
  /** Tests shorten the streams' timings. */
  streams?: Partial<PartyStreamOptions> | undefined;
}

/**
 * Watch parties (decision 110): rooms in Redis when configured (shared by every process), else in this
 * process; a member must be able to play the party's title as the scrape API would let them.
 */
export async function registerParties(server: FastifyInstance, ctx: PartiesContext): Promise<PartiesService> {
  const { config, accounts, sources, redis } = ctx;
  const now = () => ctx.now().getTime();
  const shared = redis && config.REDIS_URL ? redis : undefined;
  const store = shared ? new RedisPartyStore(shared, config.REDIS_PREFIX) : new ProcessPartyStore(now);
  const statuses = shared
    ? new RedisPlayerStatusStore(shared, config.REDIS_PREFIX)
    : new ProcessPlayerStatusStore(now);
  const parties = new PartiesService({ store, statuses, limits: ctx.limits, now });
  const streams = new PartyStreams();
  server.addHook('preClose', async () => streams.closeAll());
  server.addHook('onClose', async () => store.close());

  const access: PartyAccess = {
    guests: config.WATCH_PARTY_GUESTS,
    authenticate: (token, userAgent) => accounts.auth.authenticate(token, userAgent),
    assertNotKid: async (auth, request) => {
      if (await accounts.kids.limitOf(auth, request.headers[PROFILE_HEADER])) throw kidsProfileRefused();
    },
    assertCanPlay: async (request, title) => {
      const media = scrapeMediaOfTitle(title);
      await sources.assertReleased(media);
      await sources.assertPlayable(playbackTokenOf(request), media, {
        id: request.headers[PROFILE_HEADER],
        token: request.headers[PROFILE_TOKEN_HEADER],
      });
    },
  };
  registerPartyPublicRoutes(server, parties, {
    access,
    limits: ctx.limits,
    streams,
    options: { ...PARTY_STREAM_DEFAULTS, ...ctx.streams },
  });
  await server.register(async (scope) => {
    requireSession(scope, accounts.auth);
    registerPartyRoutes(scope, parties, access);
  });
  return parties;
}
