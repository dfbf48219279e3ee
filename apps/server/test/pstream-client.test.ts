import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { login, register, startSyncApp, type SignedIn, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * p-stream's client (5.3.7, the newest of the family) against Marquee, call by call as it behaves:
 * sign-up, sign-in, restore, migration and its everyday writes, from its own origin. Written from its
 * documented behaviour (decisions 094, 095 and the bookmark groups of issue 27).
 */
const ORIGIN = 'https://pstream.example';
const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;

describe(`p-stream's client (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => t.close());

  /** A call as p-stream's client makes it: bearer token, its origin, JSON. Every answer must be readable by its script. */
  async function call(
    who: SignedIn,
    method: string,
    path: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse> {
    const res = await t.server.inject({
      method: method as 'GET',
      url: path.replace(':id', who.user.id),
      headers: { ...who.headers, origin: ORIGIN },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    expect(res.headers['access-control-allow-origin'], `${method} ${path}`).toBe('*');
    return res;
  }

  /** Its restore: @me, then five reads at once; any failure but group-order's 404 shows an error screen. */
  async function restore(who: SignedIn) {
    const me = await call(who, 'GET', '/users/@me');
    expect(me.statusCode).toBe(200);
    const [bookmarks, progress, history, settings, groupOrder] = await Promise.all([
      call(who, 'GET', '/users/:id/bookmarks'),
      call(who, 'GET', '/users/:id/progress'),
      call(who, 'GET', '/users/:id/watch-history'),
      call(who, 'GET', '/users/:id/settings'),
      call(who, 'GET', '/users/:id/group-order'),
    ]);
    for (const res of [bookmarks, progress, history, settings, groupOrder]) expect(res.statusCode).toBe(200);
    return {
      me: body(me),
      bookmarks: body<any[]>(bookmarks),
      progress: body<any[]>(progress),
      history: body<any[]>(history),
      settings: body(settings),
      groupOrder: body<{ groupOrder: string[] }>(groupOrder).groupOrder,
    };
  }

  const meta = { title: 'Breaking Bad', year: 2008, poster: 'https://image.example/bb.jpg', type: 'show' };
  const movie = { title: 'Arrival', year: 2016, poster: 'https://image.example/a.jpg', type: 'movie' };
  /** The settings its Settings page saves at once (its register step sends most of them too). */
  const settingsPage = {
    applicationLanguage: 'fr',
    applicationTheme: 'blue',
    proxyUrls: null,
    febboxKey: 'febbox-secret-token',
    debridToken: 'debrid-secret-token',
    debridService: 'realdebrid',
    enableThumbnails: true,
    enableAutoplay: false,
    enableSkipCredits: true,
    enableDiscover: true,
    enableFeatured: false,
    enableDetailsModal: true,
    enableImageLogos: true,
    enableCarouselView: false,
    enableMinimalCards: true,
    forceCompactEpisodeView: false,
    sourceOrder: ['a', 'b'],
    enableSourceOrder: true,
    enableLastSuccessfulSource: true,
    embedOrder: ['c'],
    enableEmbedOrder: false,
    proxyTmdb: false,
    enableLowPerformanceMode: false,
    enableNativeSubtitles: true,
    enableHoldToBoost: true,
    homeSectionOrder: ['watching', 'bookmarks'],
    manualSourceSelection: false,
    enableDoubleClickToSeek: true,
    enableAutoResumeOnPlaybackError: true,
    enablePauseOverlay: false,
    customTheme: { primary: '#111111', secondary: '#222222', tertiary: '#333333' },
  };

  it('signs up, saves its settings and restores with nothing missing', async () => {
    const who = await register(t.server, { device: 'p-stream on Firefox' });
    const put = await call(who, 'PUT', '/users/:id/settings', settingsPage);
    expect(put.statusCode).toBe(200);
    const restored = await restore(who);
    expect(restored.history).toEqual([]);
    expect(restored.groupOrder).toEqual([]);
    expect(restored.settings).toMatchObject(settingsPage);
  });

  it('migrates a device’s library in (progress, history, bookmarks with groups, group order, settings) and reads it back whole', async () => {
    const who = await register(t.server);
    const watchedAt = '2025-03-01T21:00:00.000Z';
    const [progress, history, bookmarks, order, settings] = await Promise.all([
      call(who, 'PUT', '/users/:id/progress/import', [
        {
          tmdbId: '1396',
          meta,
          watched: 1200,
          duration: 2900,
          seasonId: '3572',
          episodeId: '62086',
          seasonNumber: 1,
          episodeNumber: 2,
          updatedAt: '2025-03-02T20:00:00.000Z',
        },
      ]),
      call(who, 'PUT', '/users/:id/watch-history/import', [
        {
          tmdbId: '1396',
          meta,
          watched: 2800,
          duration: 2900,
          watchedAt,
          completed: true,
          seasonId: '3572',
          episodeId: '62085',
          seasonNumber: 1,
          episodeNumber: 1,
        },
        { tmdbId: '329865', meta: movie, watched: 6600, duration: 6960, watchedAt, completed: true },
      ]),
      call(who, 'PUT', '/users/:id/bookmarks', [
        { tmdbId: '1396', meta, group: ['Rewatch', 'Crime'], favoriteEpisodes: ['62085'] },
        { tmdbId: '329865', meta: movie, group: 'Sci-fi' },
      ]),
      call(who, 'PUT', '/users/:id/group-order', ['Sci-fi', 'Crime', 'Rewatch']),
      call(who, 'PUT', '/users/:id/settings', {
        defaultSubtitleLanguage: 'fr',
        enableNumberKeySeeking: true,
      }),
    ]);
    for (const res of [progress, history, bookmarks, order, settings])
      expect(res.statusCode, res.body).toBe(200);

    const restored = await restore(who);
    expect(restored.progress).toHaveLength(1);
    expect(restored.history.map((h) => `${h.tmdbId}/${h.episode.id ?? ''}`).sort()).toEqual([
      '1396/62085',
      '329865/',
    ]);
    expect(restored.history.find((h) => h.tmdbId === '329865')).toMatchObject({
      watchedAt,
      completed: true,
      episode: {},
      season: {},
    });
    const bb = restored.bookmarks.find((b) => b.tmdbId === '1396');
    expect(bb).toMatchObject({ group: ['Rewatch', 'Crime'], favoriteEpisodes: ['62085'] });
    expect(restored.bookmarks.find((b) => b.tmdbId === '329865')).toMatchObject({
      group: ['Sci-fi'],
      favoriteEpisodes: [],
    });
    expect(restored.groupOrder).toEqual(['Sci-fi', 'Crime', 'Rewatch']);
    expect(restored.settings).toMatchObject({ defaultSubtitleLanguage: 'fr', enableNumberKeySeeking: true });
  });

  it('signs in on a second device, sees the nickname set on the first, and its everyday writes reach both', async () => {
    const first = await register(t.server);
    const renamed = await call(first, 'PATCH', '/users/:id', { nickname: 'Sleepy Otter' });
    expect(renamed.statusCode).toBe(200);
    const second = await login(t.server, first.keys, 'p-stream on a phone');
    expect((await restore(second)).me.user.nickname).toBe('Sleepy Otter');

    // Playback passes 90 %: one play recorded (a title, then an episode).
    const now = new Date(t.clock.ms).toISOString();
    expect(
      (
        await call(first, 'PUT', '/users/:id/watch-history/329865', {
          tmdbId: '329865',
          meta: { ...movie, year: null },
          watched: 6300,
          duration: 6960,
          watchedAt: now,
          completed: true,
        })
      ).statusCode,
    ).toBe(200);
    // Adding to a group and marking a favourite episode re-POST the whole bookmark.
    const posted = await call(first, 'POST', '/users/:id/bookmarks/1396', {
      tmdbId: '1396',
      meta,
      group: ['Rewatch'],
      favoriteEpisodes: ['62085', '62090'],
    });
    expect(posted.statusCode).toBe(200);
    // Only the subtitle language, every few seconds.
    await call(first, 'PUT', '/users/:id/settings', { defaultSubtitleLanguage: 'ja' });

    const seen = await restore(second);
    expect(seen.history.map((h) => h.tmdbId)).toEqual(['329865']);
    expect(seen.bookmarks[0]).toMatchObject({
      tmdbId: '1396',
      group: ['Rewatch'],
      favoriteEpisodes: ['62085', '62090'],
    });
    expect(seen.settings.defaultSubtitleLanguage).toBe('ja');

    // Its Watch History page removes the movie: `{}` (no episode), and the episode form for a show.
    const removed = await call(second, 'DELETE', '/users/:id/watch-history/329865', {});
    expect(body(removed)).toMatchObject({ success: true, count: 1 });
    expect((await restore(first)).history).toEqual([]);

    // Its admin page's cleanup answers what it reads.
    const cleanup = await call(first, 'DELETE', '/users/:id/progress/cleanup');
    expect(body(cleanup)).toEqual({ deletedCount: 0, message: expect.any(String) });
  });

  it('a route Marquee does not have still answers with CORS, so its fallbacks run', async () => {
    const who = await register(t.server);
    // (Ratings were such a route until decision 103; reviews are one still.)
    const reviews = await call(who, 'GET', '/users/:id/reviews');
    expect(reviews.statusCode).toBe(404);
  });
});
