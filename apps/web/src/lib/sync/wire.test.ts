import type { Bookmark } from '@marquee/contract';
import { describe, expect, it } from 'vitest';
import type { OutboxOp } from '../../stores/library/outbox.ts';
import { importPayload, libraryFromServer, ratingFromServer, requestFor } from './wire.ts';

const at = Date.UTC(2026, 0, 2, 3, 4, 5);
const meta = { title: 'Breaking Bad', year: 2008, poster: null };

describe('wire shapes', () => {
  it('every request carries its change time; removals name the kind', () => {
    const add: OutboxOp = { id: '1', at, kind: 'bookmark-add', type: 'show', tmdbId: '1396', meta };
    expect(requestFor(add, 'u')).toEqual({
      endpoint: 'addBookmark',
      params: { uid: 'u', tmdbId: '1396' },
      body: {
        tmdbId: '1396',
        meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
        updatedAt: '2026-01-02T03:04:05.000Z',
      },
    });
    expect(
      requestFor({ id: '2', at, kind: 'bookmark-remove', type: 'movie', tmdbId: '603' }, 'u'),
    ).toMatchObject({
      endpoint: 'deleteBookmark',
      query: { type: 'movie', updatedAt: '2026-01-02T03:04:05.000Z' },
    });
    const put: OutboxOp = {
      id: '3',
      at,
      kind: 'progress-put',
      type: 'show',
      tmdbId: '1396',
      meta,
      watched: 100.6,
      duration: 3000.2,
      season: { id: 's1', number: 1, title: '' },
      episode: { id: 'e2', number: 2, title: '' },
    };
    expect(requestFor(put, 'u').body).toEqual({
      tmdbId: '1396',
      meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
      watched: 101,
      duration: 3000,
      seasonId: 's1',
      episodeId: 'e2',
      seasonNumber: 1,
      episodeNumber: 2,
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(
      requestFor({ id: '4', at, kind: 'progress-remove', type: 'show', tmdbId: '1396', episodeId: 'e2' }, 'u')
        .body,
    ).toEqual({
      type: 'show',
      episodeId: 'e2',
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
  });

  it('synced caption size is kept within 1–200 %', () => {
    const op: OutboxOp = {
      id: '5',
      at,
      kind: 'settings',
      settings: {
        subtitleStyling: { color: '#fff', backgroundOpacity: 0.5, backgroundBlur: 0, size: 6, bold: false },
      },
    };
    expect((requestFor(op, 'u').body as any).subtitleStyling.size).toBe(2);
  });

  it('server lists become local entries keyed by kind; import sends them back with their times', () => {
    const data = libraryFromServer(
      [
        {
          tmdbId: '1396',
          meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
          group: [],
          favoriteEpisodes: [],
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
      ],
      [
        {
          id: 'a',
          tmdbId: '1396',
          season: { id: null, number: null },
          episode: { id: null, number: null },
          meta: { title: 'Film 1396', year: 2001, type: 'movie' },
          duration: '5000',
          watched: '60',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
        {
          id: 'b',
          tmdbId: '1396',
          season: { id: 's1', number: 1 },
          episode: { id: 'e1', number: 1 },
          meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
          duration: '3000',
          watched: '100',
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
        {
          id: 'c',
          tmdbId: '1396',
          season: { id: 's1', number: 1 },
          episode: { id: 'e2', number: 2 },
          meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
          duration: '3000',
          watched: '200',
          updatedAt: '2026-01-03T00:00:00.000Z',
        },
      ],
    );
    expect(Object.keys(data.bookmarks)).toEqual(['show:1396']);
    expect(Object.keys(data.progress).sort()).toEqual(['movie:1396', 'show:1396']);
    expect(data.progress['movie:1396']!.progress).toEqual({ watched: 60, duration: 5000 });
    expect(data.progress['show:1396']!.updatedAt).toBe(Date.parse('2026-01-03T00:00:00.000Z'));
    const payload = importPayload(data);
    expect(payload.bookmarks).toEqual([
      {
        tmdbId: '1396',
        meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
        group: [],
        favoriteEpisodes: [],
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ]);
    expect(payload.progress).toHaveLength(3);
    expect(payload.progress.find((p) => 'episodeId' in p && p.episodeId === 'e2')).toMatchObject({
      seasonNumber: 1,
      episodeNumber: 2,
      watched: 200,
    });
  });

  it('named lists and favourite episodes: read from the server, sent back on imports and on writes that set them', () => {
    const data = libraryFromServer(
      [
        {
          tmdbId: '1396',
          meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
          group: ['Drama', 'Weekend'],
          favoriteEpisodes: ['e1'],
          updatedAt: '2026-01-01T00:00:00.000Z',
        },
        // A server of the older family sends neither list.
        {
          tmdbId: '603',
          meta: { title: 'The Matrix', year: 1999, type: 'movie' },
          updatedAt: '2026-01-01T00:00:00.000Z',
        } as unknown as Bookmark,
      ],
      [],
    );
    expect(data.bookmarks['show:1396']).toMatchObject({
      groups: ['Drama', 'Weekend'],
      favoriteEpisodes: ['e1'],
    });
    expect(data.bookmarks['movie:603']).not.toHaveProperty('groups');
    expect(data.bookmarks['movie:603']).not.toHaveProperty('favoriteEpisodes');
    expect(importPayload(data).bookmarks).toEqual([
      {
        tmdbId: '1396',
        meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
        group: ['Drama', 'Weekend'],
        favoriteEpisodes: ['e1'],
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      {
        tmdbId: '603',
        meta: { title: 'The Matrix', year: 1999, type: 'movie' },
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    ]);

    const add: OutboxOp = {
      id: '1',
      at,
      kind: 'bookmark-add',
      type: 'show',
      tmdbId: '1396',
      meta,
      groups: [],
    };
    expect(requestFor(add, 'u').body).toEqual({
      tmdbId: '1396',
      meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
      group: [],
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
    const order: OutboxOp = { id: '2', at, kind: 'group-order', order: ['B', 'A'], profile: 'kid' };
    expect(requestFor(order, 'u')).toEqual({
      endpoint: 'putGroupOrder',
      params: { uid: 'u' },
      body: ['B', 'A'],
      headers: { 'x-profile-id': 'kid' },
    });
  });

  it('ratings: a write and a removal per title, the list read back keyed by kind, an import with its times', () => {
    const rated: OutboxOp = {
      id: '5',
      at,
      kind: 'rating-put',
      type: 'show',
      tmdbId: '1396',
      meta: { ...meta, poster: '/bb.jpg' },
      rating: 9,
      ratedAt: at - 1_000,
      profile: 'kid',
    };
    expect(requestFor(rated, 'u')).toEqual({
      endpoint: 'putRating',
      params: { uid: 'u', tmdbId: '1396' },
      body: {
        type: 'show',
        meta: { title: 'Breaking Bad', year: 2008, poster: '/bb.jpg', type: 'show' },
        rating: 9,
        ratedAt: '2026-01-02T03:04:04.000Z',
        updatedAt: '2026-01-02T03:04:05.000Z',
      },
      headers: { 'x-profile-id': 'kid' },
    });
    expect(requestFor({ id: '6', at, kind: 'rating-remove', type: 'movie', tmdbId: '603' }, 'u')).toEqual({
      endpoint: 'deleteRating',
      params: { uid: 'u', tmdbId: '603' },
      body: { type: 'movie', updatedAt: '2026-01-02T03:04:05.000Z' },
    });
    const { key, rating } = ratingFromServer({
      tmdbId: '1396',
      type: 'show',
      meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
      rating: 9,
      ratedAt: '2026-01-02T03:04:04.000Z',
      updatedAt: '2026-01-02T03:04:05.000Z',
    });
    expect(key).toBe('show:1396');
    expect(rating).toEqual({
      tmdbId: '1396',
      type: 'show',
      title: 'Breaking Bad',
      year: 2008,
      poster: null,
      rating: 9,
      ratedAt: at - 1_000,
      updatedAt: at,
    });
    expect(importPayload({ bookmarks: {}, progress: {}, ratings: { [key]: rating } }).ratings).toEqual([
      {
        tmdbId: '1396',
        type: 'show',
        meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
        rating: 9,
        ratedAt: '2026-01-02T03:04:04.000Z',
        updatedAt: '2026-01-02T03:04:05.000Z',
      },
    ]);
  });
});
