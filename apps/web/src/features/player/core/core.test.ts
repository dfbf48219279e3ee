import { describe, expect, it } from 'vitest';
import {
  canAutoplay,
  isInAutoplayZone,
  nextEpisodeButtonVisible,
  resumePosition,
  startsOnOpen,
} from './autoplay.ts';
import {
  makePlayerMeta,
  MissingShowDataError,
  nextEpisodeInSeason,
  nextSeason,
  previousEpisodeInSeason,
} from './meta.ts';
import { createPlayerStore } from './player-store.ts';
import { formatTime, parseTimestamp } from '../../../lib/timestamp.ts';

const movie = makePlayerMeta({
  type: 'movie',
  title: 'The Matrix',
  releaseYear: 1999,
  tmdbId: '603',
  imdbId: 'tt0133093',
  poster: null,
  mediaKey: 'tmdb-movie-603-the-matrix',
});
const episodes = [1, 2, 3].map((n) => ({
  id: `e${n}`,
  number: n,
  title: `Episode ${n}`,
  airDate: '2020-01-01',
}));
const show = (episode = 2) =>
  makePlayerMeta({
    type: 'show',
    title: 'Show',
    releaseYear: 2020,
    tmdbId: '1',
    imdbId: null,
    poster: null,
    mediaKey: 'tmdb-tv-1-show',
    season: { id: 's1', number: 1, title: 'Season 1' },
    episode: episodes[episode - 1]!,
    episodes,
    seasons: [
      { id: 's0', number: 0, title: 'Specials' },
      { id: 's1', number: 1, title: 'Season 1' },
      { id: 's2', number: 2, title: 'Season 2' },
    ],
  });

describe('player meta', () => {
  it("a show without season and episode fails with 'missing show data'", () => {
    expect(() => makePlayerMeta({ ...movie, type: 'show' })).toThrow(MissingShowDataError);
    expect(() => makePlayerMeta({ ...movie, type: 'show' })).toThrow('missing show data');
  });

  it('next and previous episodes, and the next season', () => {
    expect(nextEpisodeInSeason(show(2))?.id).toBe('e3');
    expect(nextEpisodeInSeason(show(3))).toBeNull();
    expect(previousEpisodeInSeason(show(2))?.id).toBe('e1');
    expect(previousEpisodeInSeason(show(1))).toBeNull();
    expect(nextSeason(show(3))?.id).toBe('s2');
    expect(nextEpisodeInSeason(movie)).toBeNull();
  });
});

describe('timestamps (?t=)', () => {
  it('plain seconds, m:ss and h:mm:ss', () => {
    expect(parseTimestamp('90')).toBe(90);
    expect(parseTimestamp('12.5')).toBe(12.5);
    expect(parseTimestamp('1:30')).toBe(90);
    expect(parseTimestamp('75:00')).toBe(4500);
    expect(parseTimestamp('1:02:03')).toBe(3723);
  });

  it('minutes and seconds stay under 60 when a larger unit is given; junk is null', () => {
    expect(parseTimestamp('1:60')).toBeNull();
    expect(parseTimestamp('1:60:00')).toBeNull();
    expect(parseTimestamp('1:00:75')).toBeNull();
    expect(parseTimestamp('abc')).toBeNull();
    expect(parseTimestamp('-5')).toBeNull();
    expect(parseTimestamp('1:2:3:4')).toBeNull();
    expect(parseTimestamp('')).toBeNull();
    expect(parseTimestamp(null)).toBeNull();
  });

  it('formats times', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(65.9)).toBe('1:05');
    expect(formatTime(3723)).toBe('1:02:03');
    expect(formatTime(Number.NaN)).toBe('0:00');
  });
});

describe('autoplay rule', () => {
  const base = {
    enableAutoplay: true,
    mediaType: 'show' as const,
    instanceAllows: false,
    extensionActive: false,
    hasCustomProxy: false,
  };
  it('only for shows, with the preference on, and extension, custom proxy or an instance that allows it', () => {
    expect(canAutoplay(base)).toBe(false);
    expect(canAutoplay({ ...base, instanceAllows: true })).toBe(true);
    expect(canAutoplay({ ...base, extensionActive: true })).toBe(true);
    expect(canAutoplay({ ...base, hasCustomProxy: true })).toBe(true);
    expect(canAutoplay({ ...base, instanceAllows: true, enableAutoplay: false })).toBe(false);
    expect(canAutoplay({ ...base, instanceAllows: true, mediaType: 'movie' })).toBe(false);
  });

  it('in the last 1 % of the duration', () => {
    expect(isInAutoplayZone(1187, 1200)).toBe(false);
    expect(isInAutoplayZone(1188, 1200)).toBe(true);
    expect(isInAutoplayZone(10, 0)).toBe(false);
  });

  it('next-episode button: always in the last 30 s, from 93 % with the controls shown', () => {
    const o = { duration: 1000, controlsVisible: false, hasPlayed: true };
    expect(nextEpisodeButtonVisible({ ...o, time: 971 })).toBe('always');
    expect(nextEpisodeButtonVisible({ ...o, time: 940 })).toBe('hidden');
    expect(nextEpisodeButtonVisible({ ...o, time: 940, controlsVisible: true })).toBe('hover');
    expect(nextEpisodeButtonVisible({ ...o, time: 920, controlsVisible: true })).toBe('hidden');
    expect(nextEpisodeButtonVisible({ ...o, time: 990, hasPlayed: false })).toBe('hidden');
  });

  it('starts on open for deep links (an episode, a valid ?t=), not for a title opened as such', () => {
    const title = { search: '', hasEpisodeInPath: false, redirectedFromTitle: false };
    expect(startsOnOpen(title)).toBe(false);
    expect(startsOnOpen({ ...title, search: '?t=95' })).toBe(true);
    expect(startsOnOpen({ ...title, search: '?t=1:35' })).toBe(true);
    expect(startsOnOpen({ ...title, search: '?t=soon' })).toBe(false);
    expect(startsOnOpen({ ...title, hasEpisodeInPath: true })).toBe(true);
    // A show opened as a title goes on to its first episode: still a title page, waiting for Play.
    expect(startsOnOpen({ ...title, hasEpisodeInPath: true, redirectedFromTitle: true })).toBe(false);
    expect(startsOnOpen({ search: '?t=10', hasEpisodeInPath: true, redirectedFromTitle: true })).toBe(true);
  });

  it('resume: ?t= first, then unfinished saved progress', () => {
    expect(resumePosition({ queryTime: 42, saved: { watched: 300, duration: 1200 } })).toBe(42);
    expect(resumePosition({ queryTime: null, saved: { watched: 300, duration: 1200 } })).toBe(300);
    expect(resumePosition({ queryTime: null, saved: { watched: 1190, duration: 1200 } })).toBe(0);
    expect(resumePosition({ queryTime: null, saved: null })).toBe(0);
  });
});

describe('status machine', () => {
  it('idle → scraping → playing; a display error → playbackError; reset → idle and clears', () => {
    const store = createPlayerStore();
    expect(store.getState().status).toBe('idle');
    store.getState().setMeta(movie);
    expect(store.getState().status).toBe('idle');
    store.getState().setScraping();
    expect(store.getState().status).toBe('scraping');
    store
      .getState()
      .setSource(
        { type: 'hls', url: 'https://x.test/a.m3u8' },
        { sourceId: 'sample', embedId: 'sample-hls', isSample: true, startAt: 30 },
      );
    expect(store.getState()).toMatchObject({
      status: 'playing',
      sourceId: 'sample',
      embedId: 'sample-hls',
      isSample: true,
      startAt: 30,
    });
    store.getState().addThumbnail({ at: 1, data: 'x' });
    store.getState().updatePlayback({ time: 40, volume: 0.4 });
    store.getState().displayError({ source: 'video', code: 'decode', message: 'bad' });
    expect(store.getState().status).toBe('playbackError');
    store.getState().reset();
    expect(store.getState()).toMatchObject({
      status: 'idle',
      meta: null,
      thumbnails: [],
      source: null,
      error: null,
    });
    expect(store.getState().playback.time).toBe(0);
    // The viewer's volume survives a reset.
    expect(store.getState().playback.volume).toBe(0.4);
  });

  it('setting a source id moves to playing; scrapeNotFound; meta can set a status and un-hides next episode', () => {
    const store = createPlayerStore();
    store.getState().setScraping();
    store.getState().setScrapeNotFound();
    expect(store.getState().status).toBe('scrapeNotFound');
    store.getState().setSourceId('links');
    expect(store.getState().status).toBe('playing');
    store.getState().hideNextEpisode();
    expect(store.getState().nextEpisodeHidden).toBe(true);
    store.getState().setMeta(show(), 'scraping');
    expect(store.getState()).toMatchObject({ status: 'scraping', nextEpisodeHidden: false });
  });

  it('every setSource bumps the version so the display reloads', () => {
    const store = createPlayerStore();
    const v = store.getState().sourceVersion;
    store.getState().setSource({ type: 'hls', url: 'u' }, { sourceId: 's' });
    store.getState().setSource({ type: 'hls', url: 'u' }, { sourceId: 's' });
    expect(store.getState().sourceVersion).toBe(v + 2);
  });
});
