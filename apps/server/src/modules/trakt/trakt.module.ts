import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { LibraryChangeKind } from '@marquee/contract';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import type { BookmarksRepository } from '../bookmarks/bookmarks.repository.ts';
import { BookmarksService } from '../bookmarks/bookmarks.service.ts';
import type { HistoryRepository } from '../history/history.repository.ts';
import { HistoryService } from '../history/history.service.ts';
import type { LibraryRef } from '../library/library.ts';
import type { RatingsRepository } from '../ratings/ratings.repository.ts';
import { RatingsService } from '../ratings/ratings.service.ts';
import { scheduleRecurring, type JobRuns } from '../maintenance/job-runs.ts';
import { SettingsSecrets } from '../settings/settings-secrets.ts';
import { TraktApi } from './trakt-api.ts';
import { TraktHistorySync, type EpisodeIds } from './trakt-history-sync.ts';
import { TraktRatingsSync, type RatingsAccess } from './trakt-ratings-sync.ts';
import { TraktLinkService } from './trakt-link.service.ts';
import { TraktScrobbler } from './trakt-scrobble.ts';
import { TraktSync } from './trakt-sync.ts';
import { TraktTokens } from './trakt-tokens.ts';
import { TraktWatchlistSync } from './trakt-watchlist-sync.ts';
import { TraktRepository } from './trakt.repository.ts';

export interface TraktModuleDeps {
  config: Pick<
    Config,
    'TRAKT_CLIENT_ID' | 'TRAKT_CLIENT_SECRET' | 'TRAKT_API_URL' | 'TRAKT_SYNC_MINUTES' | 'dataDir'
  >;
  db: Kysely<Database>;
  repos: { history: HistoryRepository; bookmarks: BookmarksRepository; ratings: RatingsRepository };
  /** TMDB's season and episode ids of an episode (the metadata service). */
  episodeIds: EpisodeIds;
  announce: (lib: LibraryRef, kind: LibraryChangeKind) => void;
  jobs: JobRuns;
  now: () => number;
  log: FastifyBaseLogger;
  fetch?: typeof fetch | undefined;
  /** Tests: how often the sync looks for due passes (default every minute); false: only when asked. */
  tickMs?: number | false | undefined;
}

export interface TraktModule {
  link: TraktLinkService;
  scrobbler: TraktScrobbler | undefined;
  sync: TraktSync | undefined;
  /** Stops the schedule and waits for scrobbles on their way. */
  close(): Promise<void>;
}

/** The Trakt sync's parts (decision 101); without TRAKT_CLIENT_ID only the status route answers. */
export function createTraktModule(deps: TraktModuleDeps): TraktModule {
  const { config, db, now } = deps;
  const repo = new TraktRepository(db);
  if (!config.TRAKT_CLIENT_ID || !config.TRAKT_CLIENT_SECRET)
    return {
      link: new TraktLinkService(repo, undefined, undefined, now),
      scrobbler: undefined,
      sync: undefined,
      close: async () => {},
    };
  const api = new TraktApi({
    baseUrl: config.TRAKT_API_URL,
    clientId: config.TRAKT_CLIENT_ID,
    clientSecret: config.TRAKT_CLIENT_SECRET,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  const tokens = new TraktTokens(repo, api, SettingsSecrets.inDataDir(config.dataDir), now);
  const history = new HistoryService(db, deps.repos.history, now);
  const sync = new TraktSync({
    repo,
    api,
    tokens,
    history: new TraktHistorySync({
      repo,
      history,
      historyRepo: deps.repos.history,
      episodeIds: deps.episodeIds,
      now,
    }),
    watchlist: new TraktWatchlistSync(
      repo,
      new BookmarksService(db, deps.repos.bookmarks, now),
      deps.repos.bookmarks,
    ),
    ratings: new TraktRatingsSync(
      repo,
      ratingsAccess(new RatingsService(db, deps.repos.ratings, now), deps.repos.ratings, now),
    ),
    announce: deps.announce,
    now,
    log: deps.log,
    intervalMs: config.TRAKT_SYNC_MINUTES * 60_000,
  });
  const scrobbler = new TraktScrobbler(repo, api, tokens, now, deps.log);
  const stop =
    deps.tickMs === false
      ? async () => {}
      : scheduleRecurring('trakt-sync', () => sync.runDue(), {
          intervalMs: deps.tickMs ?? 60_000,
          now,
          log: deps.log,
          jobs: deps.jobs,
        });
  return {
    link: new TraktLinkService(repo, api, tokens, now, (lib) => sync.kick(lib)),
    scrobbler,
    sync,
    close: async () => {
      await stop();
      await sync.settle();
      await scrobbler.settle();
    },
  };
}

/** The library's ratings as the Trakt pass reads and writes them: titles with a TMDB id only. */
function ratingsAccess(service: RatingsService, repo: RatingsRepository, now: () => number): RatingsAccess {
  return {
    list: async (lib) =>
      (await repo.liveRows(lib)).flatMap((row) => {
        const tmdb = /^\d{1,10}$/.test(row.tmdb_id) ? Number(row.tmdb_id) : NaN;
        if (!Number.isSafeInteger(tmdb) || tmdb <= 0) return [];
        const meta = JSON.parse(row.meta) as { title?: string; year?: number | null };
        return [
          {
            type: row.media_type,
            tmdb,
            rating: row.rating,
            ratedAt: Number(row.rated_at),
            title: meta.title ?? '',
            year: meta.year ?? null,
          },
        ];
      }),
    // A change made now: Trakt's rating replaces the one held (the merge decided it should).
    put: async (lib, ratings) => {
      const updatedAt = new Date(now()).toISOString();
      await service.import(
        lib,
        ratings.map((r) => ({
          tmdbId: String(r.tmdb),
          type: r.type,
          meta: { title: r.title, year: r.year, type: r.type },
          rating: r.rating,
          ...(r.ratedAt > 0 ? { ratedAt: new Date(Math.min(r.ratedAt, now())).toISOString() } : {}),
          updatedAt,
        })),
      );
    },
    remove: async (lib, r) => {
      await service.remove(lib, String(r.tmdb), r.type, undefined);
    },
  };
}
