import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  syncConformanceCases,
  type Bookmark,
  type ProgressListItem,
  type RatingsPage,
  type SyncCase,
  type SyncCaseKind,
  type SyncRemovalScope,
  type WatchHistoryPage,
} from '@marquee/contract';
import {
  movieMeta,
  register,
  showMeta,
  startSyncApp,
  type SignedIn,
  type SyncTestApp,
} from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * The contract's sync cases (decisions 011, 072, 095, 103) through the server's routes and SQL, sent as
 * the clients send them: POST/DELETE a bookmark, PUT/DELETE a progress item, PUT/DELETE a play of the
 * watch history, PUT/DELETE a rating, the bookmark, progress, history and rating imports. The web runs the same table on its outbox rule
 * (apps/web/src/stores/library/sync-conformance.test.ts). Each run has a title of its own in one account;
 * the clock stands still during a run, so 'now' is its time.
 */

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const scopes: Record<SyncRemovalScope, { seasonId?: string; episodeId?: string }> = {
  episode: { seasonId: 's1', episodeId: 'e1' },
  season: { seasonId: 's1' },
  title: {},
  'other-episode': { seasonId: 's1', episodeId: 'e2' },
  'other-season': { seasonId: 's2' },
  'other-play': { seasonId: 's1', episodeId: 'e1' },
};
/** A case's play was watched this long before its base; `other-play` names one a day before that. */
const WATCHED_BEFORE = 60 * MIN;
const isPlay = (kind: SyncCaseKind) => kind === 'movie-play' || kind === 'episode-play';
const runs = syncConformanceCases.flatMap((c) => c.kinds.map((kind) => ({ ...c, kind })));

describe(`sync conformance on the server (${testDialect}, contract cases)`, () => {
  let t: SyncTestApp;
  let a: SignedIn;
  let next = 100_000;
  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
    a = await register(t.server);
  });
  afterAll(async () => t.close());

  /** Runs one case on a title of its own; answers what the key holds at the end. */
  async function run(kind: SyncCaseKind, c: SyncCase): Promise<SyncCase['expected']> {
    const tmdbId = String(next++);
    const base = t.clock.ms - DAY;
    const iso = (at: number | undefined) =>
      at === undefined ? {} : { updatedAt: new Date(base + at * MIN).toISOString() };
    const send = async (method: 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) => {
      const res = await t.server.inject({
        method,
        url: `/users/${a.user.id}${path}`,
        headers: a.headers,
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
    };
    const bookmark = (at: number | undefined, value: number) => ({
      tmdbId,
      meta: movieMeta(`v${value}`),
      ...iso(at),
    });
    const progress = (at: number | undefined, value: number) => ({
      tmdbId,
      duration: 3000,
      watched: value,
      ...(kind === 'movie'
        ? { meta: movieMeta() }
        : { meta: showMeta(), seasonId: 's1', episodeId: 'e1', seasonNumber: 1, episodeNumber: 1 }),
      ...iso(at),
    });
    const watchedAt = new Date(base - WATCHED_BEFORE).toISOString();
    const play = (at: number | undefined, value: number) => ({
      tmdbId,
      duration: 3000,
      watched: value,
      watchedAt,
      completed: true,
      ...(kind === 'movie-play'
        ? { meta: movieMeta() }
        : { meta: showMeta(), seasonId: 's1', episodeId: 'e1', seasonNumber: 1, episodeNumber: 1 }),
      ...iso(at),
    });
    const rating = (at: number | undefined, value: number) => ({
      tmdbId,
      type: 'movie',
      meta: movieMeta(),
      rating: value,
      ...iso(at),
    });
    const write = (at: number | undefined, value: number) =>
      kind === 'bookmark'
        ? send('POST', `/bookmarks/${tmdbId}`, bookmark(at, value))
        : kind === 'rating'
          ? send('PUT', `/ratings/${tmdbId}`, rating(at, value))
          : isPlay(kind)
            ? send('PUT', `/watch-history/${tmdbId}`, play(at, value))
            : send('PUT', `/progress/${tmdbId}`, progress(at, value));
    const remove = (at: number, scope: SyncRemovalScope = 'episode') => {
      const updatedAt = iso(at).updatedAt!;
      if (kind === 'bookmark')
        return send('DELETE', `/bookmarks/${tmdbId}?type=movie&updatedAt=${encodeURIComponent(updatedAt)}`);
      if (kind === 'rating') return send('DELETE', `/ratings/${tmdbId}`, { type: 'movie', updatedAt });
      if (isPlay(kind)) {
        // The case's play itself, or another play of it a day earlier; wider scopes name no play.
        const onePlay =
          scope === 'episode'
            ? { watchedAt }
            : scope === 'other-play'
              ? { watchedAt: new Date(base - WATCHED_BEFORE - DAY).toISOString() }
              : {};
        const ids = kind === 'movie-play' ? {} : scopes[scope];
        return send('DELETE', `/watch-history/${tmdbId}`, {
          type: kind === 'movie-play' ? 'movie' : 'show',
          ...ids,
          ...onePlay,
          updatedAt,
        });
      }
      return send(
        'DELETE',
        `/progress/${tmdbId}`,
        kind === 'movie' ? { type: 'movie', updatedAt } : { type: 'show', ...scopes[scope], updatedAt },
      );
    };

    if (c.start && 'row' in c.start) await write(c.start.row.at, c.start.row.value);
    if (c.start && 'removedAt' in c.start) {
      // A play's removal is the tombstone of a play held (095): write it first, at the removal's time.
      if (isPlay(kind)) await write(c.start.removedAt, 0);
      await remove(c.start.removedAt);
    }
    for (const step of c.steps) {
      if (step.op === 'write') await write(step.at, step.value);
      else if (step.op === 'remove') await remove(step.at, step.scope);
      else if (isPlay(kind))
        await send(
          'PUT',
          '/watch-history/import',
          step.items.map((i) => play(i.at, i.value)),
        );
      else if (kind === 'rating')
        await send(
          'PUT',
          '/ratings/import',
          step.items.map((i) => rating(i.at, i.value)),
        );
      else if (kind === 'bookmark')
        await send(
          'PUT',
          '/bookmarks',
          step.items.map((i) => bookmark(i.at, i.value)),
        );
      else
        await send(
          'PUT',
          '/progress/import',
          step.items.map((i) => progress(i.at, i.value)),
        );
    }

    const at = (text: string) => {
      const ms = Date.parse(text);
      return ms === t.clock.ms ? 'now' : (ms - base) / MIN;
    };
    if (kind === 'bookmark') {
      const list = await t.server.inject({ url: `/users/${a.user.id}/bookmarks`, headers: a.headers });
      const row = (JSON.parse(list.body) as Bookmark[]).find((b) => b.tmdbId === tmdbId);
      return row ? { at: at(row.updatedAt), value: Number(row.meta.title.slice(1)) } : null;
    }
    if (kind === 'rating') {
      const list = await t.server.inject({
        url: `/users/${a.user.id}/ratings?limit=2000`,
        headers: a.headers,
      });
      const row = (JSON.parse(list.body) as RatingsPage).items.find(
        (r) => r.tmdbId === tmdbId && r.type === 'movie',
      );
      return row ? { at: at(row.updatedAt), value: row.rating } : null;
    }
    if (isPlay(kind)) {
      // Pages carry every play (the whole list only the latest of each movie or episode).
      const read = await t.server.inject({
        url: `/users/${a.user.id}/watch-history?limit=1000`,
        headers: a.headers,
      });
      const row = (JSON.parse(read.body) as WatchHistoryPage).items.find(
        (p) =>
          p.tmdbId === tmdbId &&
          p.watchedAt === watchedAt &&
          (kind === 'movie-play' ? p.episode.id === undefined : p.episode.id === 'e1'),
      );
      return row ? { at: at(row.updatedAt), value: Number(row.watched) } : null;
    }
    const list = await t.server.inject({ url: `/users/${a.user.id}/progress`, headers: a.headers });
    const rows = (JSON.parse(list.body) as ProgressListItem[]).filter((p) => p.tmdbId === tmdbId);
    const row = rows.find((p) => (kind === 'movie' ? p.episode.id === null : p.episode.id === 'e1'));
    return row ? { at: at(row.updatedAt), value: Number(row.watched) } : null;
  }

  it.each(runs.map((r) => [`${r.kind}: ${r.name}`, r] as const))('%s', async (_name, c) => {
    expect(await run(c.kind, c)).toEqual(c.expected);
  });
});
