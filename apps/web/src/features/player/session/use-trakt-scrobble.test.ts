import { describe, expect, it } from 'vitest';
import { initialPlayback, type PlaybackFacts, type PlayerState } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import {
  createScrobbler,
  leaveScrobble,
  nextScrobble,
  scrobblePhase,
  scrobbleProgress,
  scrobbleTarget,
  type ScrobbleAction,
  type ScrobbleTarget,
} from './use-trakt-scrobble.ts';

type State = Pick<PlayerState, 'status' | 'playback'>;

/** A player state: a 100 s title that has played, at `time`, playing unless `paused`. */
const at = (
  time: number,
  patch: Partial<PlaybackFacts> = {},
  status: State['status'] = 'playing',
): State => ({
  status,
  playback: {
    ...initialPlayback(),
    hasPlayedOnce: true,
    duration: 100,
    isPaused: false,
    isPlaying: true,
    time,
    ...patch,
  },
});
const paused = (time: number, patch: Partial<PlaybackFacts> = {}) =>
  at(time, { isPaused: true, isPlaying: false, ...patch });

const movie: ScrobbleTarget = { tmdbId: '550', type: 'movie' };

/** The scrobbles sent while the player goes through `states`, then (when `leave`) closes. */
function run(states: State[], o: { linked?: boolean; target?: ScrobbleTarget | null; leave?: boolean } = {}) {
  const calls: { action: ScrobbleAction; progress: number }[] = [];
  const scrobbler = createScrobbler({
    linked: o.linked ?? true,
    target: o.target === undefined ? movie : o.target,
    send: (action, body) => calls.push({ action, progress: body.progress }),
  });
  for (const state of states) scrobbler.observe(state);
  if (o.leave ?? true) scrobbler.leave();
  return calls;
}

describe('the phase of the player', () => {
  it('is idle until a frame played with a known duration, and while not playing a source', () => {
    expect(scrobblePhase({ status: 'playing', playback: initialPlayback() })).toBe('idle');
    expect(scrobblePhase(at(10, { hasPlayedOnce: false }))).toBe('idle');
    expect(scrobblePhase(at(10, { duration: 0 }))).toBe('idle');
    expect(scrobblePhase(at(10, {}, 'scraping'))).toBe('idle');
    expect(scrobblePhase(at(10, {}, 'playbackError'))).toBe('idle');
  });

  it('is playing, paused, or ended when paused at the end', () => {
    expect(scrobblePhase(at(10))).toBe('playing');
    expect(scrobblePhase(at(10, { isLoading: true, isSeeking: true }))).toBe('playing');
    expect(scrobblePhase(paused(10))).toBe('paused');
    expect(scrobblePhase(paused(99.5))).toBe('ended');
    expect(scrobblePhase(paused(100))).toBe('ended');
  });
});

describe('which scrobble a change calls for', () => {
  it('starts when playing, pauses a started play, stops at the end', () => {
    expect(nextScrobble(null, 'playing')).toBe('start');
    expect(nextScrobble('pause', 'playing')).toBe('start');
    expect(nextScrobble('stop', 'playing')).toBe('start');
    expect(nextScrobble('start', 'paused')).toBe('pause');
    expect(nextScrobble('start', 'ended')).toBe('stop');
    expect(nextScrobble('pause', 'ended')).toBe('stop');
  });

  it('sends nothing Trakt already knows, nor for a pause before any start', () => {
    expect(nextScrobble('start', 'playing')).toBeNull();
    expect(nextScrobble(null, 'paused')).toBeNull();
    expect(nextScrobble('pause', 'paused')).toBeNull();
    expect(nextScrobble('stop', 'ended')).toBeNull();
    expect(nextScrobble(null, 'ended')).toBeNull();
    for (const sent of [null, 'start', 'pause', 'stop'] as const)
      expect(nextScrobble(sent, 'idle')).toBeNull();
  });

  it('stops on leaving only what was started or paused', () => {
    expect(leaveScrobble('start')).toBe('stop');
    expect(leaveScrobble('pause')).toBe('stop');
    expect(leaveScrobble('stop')).toBeNull();
    expect(leaveScrobble(null)).toBeNull();
  });
});

describe('progress', () => {
  it('is position / duration in percent, two decimals, within 0–100', () => {
    expect(scrobbleProgress(50, 100)).toBe(50);
    expect(scrobbleProgress(1, 3)).toBe(33.33);
    expect(scrobbleProgress(2, 3)).toBe(66.67);
    expect(scrobbleProgress(120, 100)).toBe(100);
    expect(scrobbleProgress(-1, 100)).toBe(0);
    expect(scrobbleProgress(10, 0)).toBe(0);
    expect(scrobbleProgress(Number.NaN, 100)).toBe(0);
  });
});

describe('what is scrobbled', () => {
  const meta = (patch: Partial<PlayerMeta>): Pick<PlayerMeta, 'tmdbId' | 'type' | 'season' | 'episode'> => ({
    tmdbId: '1396',
    type: 'show',
    season: { id: 's', number: 2, title: 'Season 2' },
    episode: { id: 'e', number: 5, title: 'Five', airDate: null },
    ...patch,
  });

  it('names a movie by its TMDB id, an episode by its season and episode numbers', () => {
    expect(scrobbleTarget(meta({ type: 'movie', tmdbId: '550' }))).toEqual({ tmdbId: '550', type: 'movie' });
    expect(scrobbleTarget(meta({}))).toEqual({
      tmdbId: '1396',
      type: 'show',
      seasonNumber: 2,
      episodeNumber: 5,
    });
  });

  it('is nothing for an id that is not a TMDB number, or an episode without its numbers', () => {
    expect(scrobbleTarget(meta({ type: 'movie', tmdbId: 'tt0137523' }))).toBeNull();
    expect(scrobbleTarget(meta({ type: 'movie', tmdbId: 'lib-abc' }))).toBeNull();
    expect(scrobbleTarget(meta({ type: 'movie', tmdbId: '' }))).toBeNull();
    expect(scrobbleTarget(meta({ episode: undefined }))).toBeNull();
    expect(scrobbleTarget(meta({ season: undefined }))).toBeNull();
  });
});

describe('a scrobbler through a viewing', () => {
  it('start, pause, start, stop at the end — once each, whatever happens in between', () => {
    const calls = run([
      at(0, { hasPlayedOnce: false, duration: 0, isLoading: true }),
      at(1),
      at(2),
      at(10, { isSeeking: true }),
      at(40, { isLoading: true }),
      paused(40),
      paused(40, { isSeeking: true }),
      paused(60),
      at(60),
      at(99.8),
      paused(100),
    ]);
    expect(calls).toEqual([
      { action: 'start', progress: 1 },
      { action: 'pause', progress: 40 },
      { action: 'start', progress: 60 },
      { action: 'stop', progress: 100 },
    ]);
  });

  it('stops when the viewer leaves, with the progress of the last known state (not of a reset)', () => {
    const calls = run([at(10), at(25.555), { status: 'idle', playback: initialPlayback() }]);
    expect(calls).toEqual([
      { action: 'start', progress: 10 },
      { action: 'stop', progress: 25.56 },
    ]);
  });

  it('a source switch while playing sends nothing; leaving twice stops once', () => {
    const calls: ScrobbleAction[] = [];
    const scrobbler = createScrobbler({ linked: true, target: movie, send: (action) => calls.push(action) });
    scrobbler.observe(at(30));
    scrobbler.observe(at(30, { hasPlayedOnce: false, duration: 0, isLoading: true }));
    scrobbler.observe(at(31));
    scrobbler.leave();
    scrobbler.leave();
    expect(calls).toEqual(['start', 'stop']);
  });

  it('after the page was left and shown again, playing starts again', () => {
    const calls: ScrobbleAction[] = [];
    const scrobbler = createScrobbler({ linked: true, target: movie, send: (action) => calls.push(action) });
    scrobbler.observe(at(30));
    scrobbler.leave();
    scrobbler.observe(at(31));
    expect(calls).toEqual(['start', 'stop', 'start']);
  });

  it('opened and closed without playing: nothing', () => {
    expect(run([{ status: 'scraping', playback: initialPlayback() }])).toEqual([]);
  });

  it('sends nothing when the library is not linked, or the title has no TMDB target', () => {
    const viewing = [at(1), paused(5), at(5), paused(100)];
    expect(run(viewing, { linked: false })).toEqual([]);
    expect(run(viewing, { target: null })).toEqual([]);
  });

  it('sends the target with each scrobble', () => {
    const bodies: unknown[] = [];
    const episode: ScrobbleTarget = { tmdbId: '1396', type: 'show', seasonNumber: 1, episodeNumber: 2 };
    const scrobbler = createScrobbler({
      linked: true,
      target: episode,
      send: (action, body) => bodies.push({ action, ...body }),
    });
    scrobbler.observe(at(50));
    expect(bodies).toEqual([
      { action: 'start', tmdbId: '1396', type: 'show', seasonNumber: 1, episodeNumber: 2, progress: 50 },
    ]);
  });
});
