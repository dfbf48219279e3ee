import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sourceRoutes } from '@marquee/contract/values';
import type { ScrapeMediaParams } from '@marquee/contract';
import type { StreamEventOf } from '../../../lib/api/index.ts';
import { contractServer, eventStream } from '../../../test/contract-server.ts';
import { createPlayerStore, type PlayerStore } from '../core/player-store.ts';
import type { PlayerSource } from '../core/types.ts';
import { keepMediaUrlsFresh, RENEW_BEFORE_MS, sourceExpiry } from './renewal.ts';
import { playerSourceOf } from './stream-source.ts';

const media: ScrapeMediaParams = { type: 'movie', title: 'Inception', releaseYear: 2010, tmdbId: '27205' };
const HOUR = 60 * 60_000;
const START = Date.UTC(2026, 0, 15, 12);
const origin = () => window.location.origin;

/** A library URL as the server signs it (decision 071): `<expiry base 36>.<title>.<viewer>.<signature>`. */
const libraryUrl = (expiresAt: number, n = 1) =>
  `${origin()}/api/sources/library/${(expiresAt / 1000).toString(36)}.m27205.viewer1.${'s'.repeat(21)}${n}/fileid${n}/Inception.mp4`;
const sampleUrl = (expiresAt: number, n = 1) =>
  `${origin()}/api/sources/sample/${(expiresAt / 1000).toString(36)}.m27205.~.${'s'.repeat(21)}${n}`;

const fileSource = (url: string): PlayerSource => ({
  type: 'file',
  qualities: { '1080': { type: 'mp4', url } },
});

type FoundStream = Extract<
  StreamEventOf<typeof sourceRoutes.scrapeEmbed>,
  { event: 'completed' }
>['data']['stream'][number];
const fileStream = (url: string): FoundStream => ({
  id: 'library',
  type: 'file',
  qualities: { '1080': { type: 'mp4', url } },
  captions: [],
  flags: ['cors-allowed'],
});
const refusal = (status: number, code: string) =>
  new Response(JSON.stringify({ errorType: 'message', code, message: code }), { status });

interface Server {
  fetchLike: typeof fetch;
  calls: { url: string; range: string | null }[];
}
/**
 * This instance as the player sees it: its scrape routes (typed by the contract) answer fresh URLs, and
 * the media URLs themselves (signed file links, not API routes) answer `media`.
 */
/** The HLS playlist of another audio track of the same library file, under the same signed access. */
const trackPlaylist = (fileUrl: string, track: string) =>
  fileUrl.replace(/\/Inception\.mp4$/, `/hls/remux-${track}/master.m3u8`);
/** A library stream with two audio tracks: English plays the file itself, French its own playlist. */
const withTracks = (stream: FoundStream, url: string): FoundStream => ({
  ...stream,
  audioTracks: [
    {
      id: 'a-en',
      language: 'en',
      label: null,
      channels: 6,
      codec: 'aac',
      isDefault: true,
      active: true,
      playlist: null,
    },
    {
      id: 'a-fr',
      language: 'fr',
      label: null,
      channels: 2,
      codec: 'aac',
      isDefault: false,
      active: false,
      playlist: trackPlaylist(url, 'fr'),
    },
  ],
});

/** The playlist of the file with its PGS subtitle burned in, for an audio track. */
const burnedPlaylist = (fileUrl: string, track: string) =>
  fileUrl.replace(/\/Inception\.mp4$/, `/hls/burn-${track}/master.m3u8`);
/** A library stream with a picture subtitle (PGS): a burned-in playlist per audio track. */
const withPictures = (stream: FoundStream, url: string): FoundStream => ({
  ...stream,
  imageSubtitles: [
    {
      id: 'pgs',
      language: 'en',
      label: null,
      forced: false,
      format: 'pgs',
      playlists: { 'a-en': burnedPlaylist(url, 'en'), 'a-fr': burnedPlaylist(url, 'fr') },
    },
  ],
});

function server(o: {
  media: () => Response;
  fresh: () => string;
  sample?: boolean;
  tracks?: boolean;
  pictures?: boolean;
}): Server {
  const calls: Server['calls'] = [];
  const streamOf = (url: string) => {
    const stream = o.tracks ? withTracks(fileStream(url), url) : fileStream(url);
    return o.pictures ? withPictures(stream, url) : stream;
  };
  const api = contractServer({
    sources: {
      scrapeSource: () =>
        eventStream(sourceRoutes.scrapeSource, [
          {
            event: 'completed',
            data: o.sample
              ? { embeds: [{ embedId: 'sample-file', url: o.fresh() }], stream: [] }
              : { embeds: [], stream: [streamOf(o.fresh())] },
          },
        ]),
      scrapeEmbed: ({ query }) =>
        eventStream(sourceRoutes.scrapeEmbed, [
          {
            event: 'completed',
            data: {
              stream: [
                { ...fileStream(`${query.url}/mp4/sample-720p.mp4`), id: 'sample-file', isSample: true },
              ],
            },
          },
        ]),
    },
  });
  const fetchLike: typeof fetch = async (input, init) => {
    const url = String(input);
    calls.push({ url, range: new Headers(init?.headers).get('range') });
    return url.startsWith('/scrape/') ? api.fetch(input, init) : o.media();
  };
  return { fetchLike, calls };
}

/** Lets the watcher's fetches and store updates run. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await vi.advanceTimersByTimeAsync(0);
};

describe('keepMediaUrlsFresh', () => {
  let store: PlayerStore;
  let now: number;
  let controller: AbortController;
  beforeEach(() => {
    vi.useFakeTimers();
    now = START;
    store = createPlayerStore();
    controller = new AbortController();
  });
  afterEach(() => {
    controller.abort();
    vi.useRealTimers();
  });

  const start = (s: Server) =>
    keepMediaUrlsFresh(store, media, controller.signal, { fetchLike: s.fetchLike, now: () => now });
  const play = (url: string, time = 0) => {
    store.getState().setSource(fileSource(url), { sourceId: 'library', startAt: time });
    store.getState().updatePlayback({ isPlaying: true, isPaused: false, hasPlayedOnce: true, time });
  };
  const loadedUrl = () => {
    const source = store.getState().source;
    return source?.type === 'file' ? source.qualities['1080']!.url : null;
  };
  const elapse = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
    await settle();
  };

  it('reads the expiry of this instance’s signed URLs only', () => {
    expect(sourceExpiry(fileSource(libraryUrl(START + 4 * HOUR)))).toBe(START + 4 * HOUR);
    expect(sourceExpiry({ type: 'hls', url: `${sampleUrl(START + HOUR)}/hls/master.m3u8` })).toBe(
      START + HOUR,
    );
    expect(sourceExpiry(fileSource('https://cdn.example/api/sources/library/x/y/z.mp4'))).toBeNull();
    expect(sourceExpiry(fileSource(libraryUrl(START).replace(origin(), 'https://other.example')))).toBeNull();
  });

  it('renews a playing source shortly before its URLs expire and resumes at the same position', async () => {
    let n = 1;
    const s = server({
      media: () => new Response('', { status: 206 }),
      fresh: () => libraryUrl(now + 4 * HOUR, ++n),
    });
    start(s);
    play(libraryUrl(START + 4 * HOUR));
    store.getState().updatePlayback({ time: 3 * HOUR });
    await elapse(4 * HOUR - RENEW_BEFORE_MS - 1000);
    expect(loadedUrl()).toBe(libraryUrl(START + 4 * HOUR));
    await elapse(1000);
    expect(loadedUrl()).toBe(libraryUrl(START + 8 * HOUR - RENEW_BEFORE_MS, 2));
    expect(store.getState()).toMatchObject({ sourceId: 'library', startAt: 3 * HOUR, status: 'playing' });
    expect(s.calls.map((c) => c.url.split('?')[0])).toEqual(['/scrape/source']);
    expect(new URLSearchParams(s.calls[0]!.url.split('?')[1]).get('id')).toBe('library');
  });

  it('the audio track the viewer chose plays on after renewal (the fresh stream starts with the default)', async () => {
    let n = 1;
    const s = server({
      media: () => new Response('', { status: 206 }),
      fresh: () => libraryUrl(now + 4 * HOUR, ++n),
      tracks: true,
    });
    start(s);
    const first = libraryUrl(START + 4 * HOUR);
    const found = playerSourceOf(withTracks(fileStream(first), first) as never);
    store.getState().setSource(found.source, { sourceId: 'library', audioTracks: found.audioTracks });
    store.getState().updatePlayback({ isPlaying: true, isPaused: false, hasPlayedOnce: true, time: 60 });
    store.getState().chooseAudioTrack('a-fr');
    store.getState().updatePlayback({ isPlaying: true, isPaused: false, hasPlayedOnce: true, time: HOUR });
    expect(store.getState().source).toEqual({
      type: 'hls',
      url: trackPlaylist(first, 'fr'),
      conversion: true,
    });

    await elapse(4 * HOUR - RENEW_BEFORE_MS);
    const fresh = libraryUrl(START + 8 * HOUR - RENEW_BEFORE_MS, 2);
    expect(store.getState()).toMatchObject({
      source: { type: 'hls', url: trackPlaylist(fresh, 'fr'), conversion: true },
      audioTrackId: 'a-fr',
      startAt: HOUR,
    });
    // Back to English: the fresh file itself.
    store.getState().chooseAudioTrack('a-en');
    expect(loadedUrl()).toBe(fresh);
  });

  it('the picture subtitle the viewer chose stays burned in after renewal, with their audio track', async () => {
    let n = 1;
    const s = server({
      media: () => new Response('', { status: 206 }),
      fresh: () => libraryUrl(now + 4 * HOUR, ++n),
      tracks: true,
      pictures: true,
    });
    start(s);
    const first = libraryUrl(START + 4 * HOUR);
    const found = playerSourceOf(withPictures(withTracks(fileStream(first), first), first) as never);
    store.getState().setSource(found.source, {
      sourceId: 'library',
      audioTracks: found.audioTracks,
      imageSubtitles: found.imageSubtitles,
    });
    store.getState().updatePlayback({ isPlaying: true, isPaused: false, hasPlayedOnce: true, time: 60 });
    store.getState().chooseAudioTrack('a-fr');
    store.getState().chooseImageSubtitle('pgs');
    store.getState().updatePlayback({ isPlaying: true, isPaused: false, hasPlayedOnce: true, time: HOUR });
    expect(store.getState().source).toMatchObject({ url: burnedPlaylist(first, 'fr') });

    await elapse(4 * HOUR - RENEW_BEFORE_MS);
    const fresh = libraryUrl(START + 8 * HOUR - RENEW_BEFORE_MS, 2);
    expect(store.getState()).toMatchObject({
      source: { type: 'hls', url: burnedPlaylist(fresh, 'fr'), conversion: true },
      audioTrackId: 'a-fr',
      imageSubtitleId: 'pgs',
      startAt: HOUR,
    });
    // Off: the fresh French playlist without it.
    store.getState().chooseImageSubtitle(null);
    expect(store.getState().source).toMatchObject({ url: trackPlaylist(fresh, 'fr') });
  });

  it('waits for a paused viewer to play again before renewing', async () => {
    const s = server({
      media: () => new Response('', { status: 206 }),
      fresh: () => libraryUrl(now + 4 * HOUR, 2),
    });
    start(s);
    play(libraryUrl(START + 4 * HOUR));
    store.getState().updatePlayback({ isPlaying: false, isPaused: true, time: 600 });
    await elapse(4 * HOUR - RENEW_BEFORE_MS);
    expect(s.calls).toEqual([]);
    store.getState().updatePlayback({ isPlaying: true, isPaused: false });
    await settle();
    expect(loadedUrl()).toBe(libraryUrl(now + 4 * HOUR, 2));
    expect(store.getState().startAt).toBe(600);
  });

  it('on a playback error, asks the server; media_url_expired renews the source at the same position', async () => {
    const s = server({
      media: () => refusal(403, 'media_url_expired'),
      fresh: () => libraryUrl(now + 4 * HOUR, 2),
    });
    start(s);
    play(libraryUrl(START + HOUR), 1234);
    store.getState().displayError({ source: 'video', code: 'network', message: 'MEDIA_ERR_NETWORK' });
    await settle();
    expect(s.calls[0]).toEqual({ url: libraryUrl(START + HOUR), range: 'bytes=0-0' });
    expect(store.getState()).toMatchObject({ status: 'playing', startAt: 1234 });
    expect(loadedUrl()).toBe(libraryUrl(now + 4 * HOUR, 2));
  });

  it('renews the sample through its source and the same embed', async () => {
    const s = server({
      media: () => refusal(403, 'media_url_expired'),
      fresh: () => sampleUrl(now + 4 * HOUR, 2),
      sample: true,
    });
    start(s);
    store.getState().setSource(fileSource(`${sampleUrl(START + HOUR)}/mp4/sample-720p.mp4`), {
      sourceId: 'sample',
      embedId: 'sample-file',
      isSample: true,
      startAt: 5,
    });
    store.getState().displayError({ source: 'video', code: 'network', message: 'x' });
    await settle();
    expect(s.calls.map((c) => c.url.split('?')[0])).toEqual([
      `${sampleUrl(START + HOUR)}/mp4/sample-720p.mp4`,
      '/scrape/source',
      '/scrape/embed',
    ]);
    expect(store.getState()).toMatchObject({
      sourceId: 'sample',
      embedId: 'sample-file',
      isSample: true,
      status: 'playing',
    });
    expect(loadedUrl()).toBe(`${sampleUrl(now + 4 * HOUR, 2)}/mp4/sample-720p.mp4`);
  });

  it('leaves other errors alone: a media error, a membership that ended, URLs of other hosts', async () => {
    for (const answer of [
      () => new Response('', { status: 206 }),
      () => refusal(402, 'membership_required'),
    ]) {
      const s = server({ media: answer, fresh: () => libraryUrl(now + 4 * HOUR, 2) });
      const c = new AbortController();
      keepMediaUrlsFresh(store, media, c.signal, { fetchLike: s.fetchLike, now: () => now });
      play(libraryUrl(START + HOUR));
      store.getState().displayError({ source: 'video', code: 'decode', message: 'x' });
      await settle();
      expect(s.calls.map((x) => x.url)).toEqual([libraryUrl(START + HOUR)]);
      expect(store.getState().status).toBe('playbackError');
      c.abort();
    }
    const s = server({ media: () => refusal(403, 'media_url_expired'), fresh: () => libraryUrl(now, 2) });
    start(s);
    play('https://cdn.example/movie.mp4');
    store.getState().displayError({ source: 'video', code: 'network', message: 'x' });
    await settle();
    expect(s.calls).toEqual([]);
  });

  it('does not renew in a loop when fresh URLs fail again before playing', async () => {
    const s = server({
      media: () => refusal(403, 'media_url_expired'),
      fresh: () => libraryUrl(now + 4 * HOUR, 2),
    });
    start(s);
    play(libraryUrl(START + HOUR));
    store.getState().displayError({ source: 'video', code: 'network', message: 'x' });
    await settle();
    expect(store.getState().status).toBe('playing');
    store.getState().displayError({ source: 'video', code: 'network', message: 'x' });
    await settle();
    expect(store.getState().status).toBe('playbackError');
    expect(s.calls.filter((c) => c.url.startsWith('/scrape/source'))).toHaveLength(1);
  });

  it('stops with the play session', async () => {
    const s = server({
      media: () => refusal(403, 'media_url_expired'),
      fresh: () => libraryUrl(now + 4 * HOUR, 2),
    });
    start(s);
    play(libraryUrl(START + HOUR));
    controller.abort();
    await elapse(HOUR);
    store.getState().displayError({ source: 'video', code: 'network', message: 'x' });
    await settle();
    expect(s.calls).toEqual([]);
  });
});
