import { sourceRoutes } from '@marquee/contract/values';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StreamEventOf } from '../../../lib/api/index.ts';
import { ScrapeTokenStore } from '../../../lib/proxy-transport.ts';
import { useAccountStore } from '../../../stores/account-store.ts';
import { contractServer, eventStream, refuse } from '../../../test/contract-server.ts';
import type { PlayerMeta } from '../core/types.ts';
import { usePreferencesStore } from '../../../stores/index.ts';
import { scrapeInBrowser } from './browser-scrape.ts';
import { metricItems } from './metrics.ts';
import { scrapeOnServer, scrapeSourceOnServer, SegmentTracker } from './scrape-runner.ts';
import { segmentTree } from './segments.ts';
import { playerSourceOf, streamHosts, withAudioTrack, withImageSubtitle } from './stream-source.ts';

const media = { type: 'movie' as const, title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
const names = (id: string) =>
  ({ sample: 'Sample', 'sample-hls': 'Sample HLS', 'sample-file': 'Sample MP4' })[id] ?? id;
type ScrapeEvent = StreamEventOf<typeof sourceRoutes.scrape>;
type FoundStream = Extract<ScrapeEvent, { event: 'completed' }>['data']['stream'];

const hlsStream: FoundStream = {
  id: 's',
  type: 'hls',
  playlist: 'https://x.test/master.m3u8',
  flags: ['cors-allowed'],
  captions: [
    {
      id: 'en',
      language: 'en',
      url: 'https://x.test/en.vtt',
      type: 'vtt',
      needsProxy: false,
      opensubtitles: false,
    },
  ],
  isSample: true,
};

const RUN: ScrapeEvent[] = [
  { event: 'token', data: 'tok.en.jwt' },
  { event: 'init', data: { sourceIds: ['links', 'sample'] } },
  { event: 'start', data: 'links' },
  { event: 'update', data: { id: 'links', percentage: 0, status: 'pending' } },
  {
    event: 'update',
    data: { id: 'links', percentage: 100, status: 'notfound', reason: 'no link for this title' },
  },
  { event: 'start', data: 'sample' },
  { event: 'update', data: { id: 'sample', percentage: 0, status: 'pending' } },
  {
    event: 'discoverEmbeds',
    data: {
      sourceId: 'sample',
      embeds: [
        { id: 'sample-0', embedScraperId: 'sample-hls' },
        { id: 'sample-1', embedScraperId: 'sample-file' },
      ],
    },
  },
  { event: 'start', data: 'sample-0' },
  { event: 'update', data: { id: 'sample-0', percentage: 100, status: 'success' } },
  { event: 'update', data: { id: 'sample', percentage: 100, status: 'success' } },
  { event: 'completed', data: { sourceId: 'sample', embedId: 'sample-hls', stream: hlsStream } },
];

/** This instance's scrape route answering `answer` (typed by the contract), and what it was asked. */
const scrapeServer = (answer: () => ScrapeEvent[] | ReturnType<typeof refuse> | Response) =>
  contractServer({
    sources: {
      scrape: () => {
        const a = answer();
        return Array.isArray(a) ? eventStream(sourceRoutes.scrape, a) : a;
      },
    },
  });

describe('server scrape', () => {
  it('drives the per-source list and returns the stream; stores the token', async () => {
    const states: unknown[] = [];
    const tracker = new SegmentTracker(names, (s) => states.push(s));
    const tokens = new ScrapeTokenStore();
    const server = scrapeServer(() => RUN);
    const outcome = await scrapeOnServer({
      base: '',
      media,
      sourceOrder: ['links'],
      tracker,
      tokens,
      fetchLike: server.fetch,
      device: { codecs: ['h264', 'aac', 'mp4'], audioLanguage: 'fr' },
    });
    expect(outcome).toMatchObject({ kind: 'found', output: { sourceId: 'sample', embedId: 'sample-hls' } });
    expect(server.requests[0]?.url).toBe(
      '/scrape?type=movie&title=The+Matrix&tmdbId=603&releaseYear=1999&sourceOrder=links&codecs=h264%2Caac%2Cmp4&audioLanguage=fr',
    );
    expect(tokens.header()).toBe('jwt|tok.en.jwt');
    const tree = segmentTree(tracker.state);
    expect(
      tree.map((t) => [t.source.id, t.source.status, t.embeds.map((e) => `${e.name}:${e.status}`)]),
    ).toEqual([
      ['links', 'notfound', []],
      ['sample', 'success', ['Sample HLS:success', 'Sample MP4:waiting']],
    ]);
    expect(tracker.state.segments.links!.reason).toBe('no link for this title');
  });

  it('noOutput and a NotFoundError error event are "not found"; other errors fail', async () => {
    const cases: [ScrapeEvent[], string][] = [
      [[{ event: 'noOutput', data: '' }], 'notFound'],
      [[{ event: 'error', data: { name: 'NotFoundError', message: 'nothing' } }], 'notFound'],
      [[{ event: 'error', data: { name: 'Error', message: 'boom' } }], 'failed'],
    ];
    for (const [events, kind] of cases) {
      const tracker = new SegmentTracker(names, () => undefined);
      const out = await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: scrapeServer(() => events).fetch,
      });
      expect(out.kind).toBe(kind);
    }
  });

  it('JSON errors before the stream: media_removed, media_unreleased, membership_required', async () => {
    const refusing = (
      status: number,
      code: 'media_removed' | 'media_unreleased' | 'membership_required' | 'login_required',
    ) => scrapeServer(() => refuse(status, { code })).fetch;
    const tracker = new SegmentTracker(names, () => undefined);
    expect(
      await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: refusing(451, 'media_removed'),
      }),
    ).toEqual({ kind: 'removed' });
    expect(
      await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: refusing(403, 'membership_required'),
      }),
    ).toEqual({ kind: 'membership' });
    // Signed out on a subscription site: the viewer is sent to sign in, not to buy.
    expect(
      await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: refusing(401, 'login_required'),
      }),
    ).toEqual({ kind: 'login' });
    // The instance holds the title back (not out yet by its clock): the player says so, it does not retry.
    expect(
      await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: refusing(403, 'media_unreleased'),
      }),
    ).toEqual({ kind: 'unreleased' });
  });

  it('JSON errors before the stream: media_not_found, metadata_unavailable (the release check fails closed)', async () => {
    const tracker = new SegmentTracker(names, () => undefined);
    const run = (status: number, code: 'media_not_found' | 'metadata_unavailable') =>
      scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: scrapeServer(() => refuse(status, { code })).fetch,
      });
    // The metadata does not list the title: the player says so, not "Failed to scrape".
    expect(await run(404, 'media_not_found')).toEqual({ kind: 'notInCatalog' });
    // The metadata is down and nothing is cached: the release cannot be checked (a retry may do).
    expect(await run(503, 'metadata_unavailable')).toEqual({ kind: 'metadataUnavailable' });
  });

  it("sends the signed-in account's token to this instance only (membership is checked there)", async () => {
    const server = scrapeServer(() => RUN);
    const fetchLike = server.fetch;
    const tracker = new SegmentTracker(names, () => undefined);
    useAccountStore.setState({ account: null });
    await scrapeOnServer({ base: '', media, tracker, tokens: new ScrapeTokenStore(), fetchLike });
    useAccountStore.setState({
      account: {
        token: 'tok-123',
        userId: 'u',
        sessionId: 's',
        deviceName: 'd',
        profile: { colorA: '#000', colorB: '#fff', icon: 'cat' },
        seed: '',
        kind: 'email',
      },
    });
    await scrapeOnServer({ base: '', media, tracker, tokens: new ScrapeTokenStore(), fetchLike });
    await scrapeOnServer({
      base: 'https://api.elsewhere.test',
      media,
      tracker,
      tokens: new ScrapeTokenStore(),
      fetchLike,
    });
    useAccountStore.setState({ account: null });
    expect(server.requests.map((r) => new Headers(r.init.headers).get('authorization'))).toEqual([
      null,
      'Bearer tok-123',
      null,
    ]);
  });

  it('captcha_required: solves once and retries with X-Token altcha|…', async () => {
    let calls = 0;
    const server = scrapeServer(() =>
      calls++ === 0
        ? refuse(401, { code: 'captcha_required' })
        : eventStream(sourceRoutes.scrape, [{ event: 'noOutput', data: '' }], {
            headers: { 'X-Token': 'fresh.jwt.token' },
          }),
    );
    const fetchLike = server.fetch;
    const tokens = new ScrapeTokenStore();
    const tracker = new SegmentTracker(names, () => undefined);
    const out = await scrapeOnServer({
      base: '',
      media,
      tracker,
      tokens,
      fetchLike,
      solveCaptcha: async () => 'altcha|payload',
    });
    expect(out.kind).toBe('notFound');
    expect(server.requests[1]?.init.headers).toMatchObject({
      'x-token': 'altcha|payload',
    });
    expect(tokens.header()).toBe('jwt|fresh.jwt.token');
  });

  it('captcha without a solver is a captcha problem', async () => {
    const tracker = new SegmentTracker(names, () => undefined);
    const out = await scrapeOnServer({
      base: '',
      media,
      tracker,
      tokens: new ScrapeTokenStore(),
      fetchLike: scrapeServer(() => refuse(401, { code: 'captcha_required' })).fetch,
    });
    expect(out.kind).toBe('captcha');
  });
});

describe('scrape reports and streams', () => {
  it('reports finished providers with the report’s fields', async () => {
    const tracker = new SegmentTracker(names, () => undefined);
    await scrapeOnServer({
      base: '',
      media,
      tracker,
      tokens: new ScrapeTokenStore(),
      fetchLike: scrapeServer(() => RUN).fetch,
    });
    const meta = {
      type: 'show',
      title: 'Show',
      tmdbId: '1',
      season: { id: 's1', number: 1, title: 'S1' },
      episode: { id: 'e1', number: 1, title: 'E1', airDate: null },
    } as PlayerMeta;
    expect(metricItems(meta, tracker.state)).toEqual([
      {
        tmdbId: '1',
        type: 'show',
        title: 'Show',
        seasonId: 's1',
        episodeId: 'e1',
        status: 'notfound',
        providerId: 'links',
        errorMessage: 'no link for this title',
      },
      {
        tmdbId: '1',
        type: 'show',
        title: 'Show',
        seasonId: 's1',
        episodeId: 'e1',
        status: 'success',
        providerId: 'sample',
      },
      {
        tmdbId: '1',
        type: 'show',
        title: 'Show',
        seasonId: 's1',
        episodeId: 'e1',
        status: 'success',
        providerId: 'sample',
        embedId: 'sample-hls',
      },
    ]);
  });

  it('turns streams into player sources with their captions and sample flag', () => {
    const hls = playerSourceOf(hlsStream as never);
    expect(hls).toMatchObject({ source: { type: 'hls', url: 'https://x.test/master.m3u8' }, isSample: true });
    expect(hls.captions[0]).toMatchObject({ language: 'en', needsProxy: false, opensubtitles: false });
    const file = playerSourceOf({
      id: 'f',
      type: 'file',
      flags: [],
      captions: [],
      qualities: { '720': { type: 'mp4', url: 'https://cdn.test/720.mp4' }, '360': { type: 'mp4', url: '' } },
    });
    expect(file.source).toEqual({
      type: 'file',
      qualities: { '720': { type: 'mp4', url: 'https://cdn.test/720.mp4' } },
    });
    expect(
      streamHosts({
        id: 'f',
        type: 'file',
        flags: [],
        captions: [],
        qualities: {
          '720': { type: 'mp4', url: 'https://cdn.test/a' },
          '480': { type: 'mp4', url: 'https://cdn.test/b' },
        },
      }),
    ).toEqual(['cdn.test']);
  });
});

describe('the device and the audio language (the library picks direct play, remux or transcode)', () => {
  afterEach(() => {
    usePreferencesStore.getState().setPreferences({ audioLanguage: null, language: null });
    vi.unstubAllGlobals();
  });

  it("every /scrape and /scrape/source says the viewer's audio language: chosen, else the UI language's", async () => {
    const queries: Record<string, string>[] = [];
    const server = contractServer({
      sources: {
        scrape: ({ query }) => {
          queries.push(query);
          return eventStream(sourceRoutes.scrape, [{ event: 'noOutput', data: '' }]);
        },
        scrapeSource: ({ query }) => {
          queries.push(query);
          return eventStream(sourceRoutes.scrapeSource, [{ event: 'noOutput', data: '' }]);
        },
      },
    });
    const tracker = new SegmentTracker(names, () => undefined);
    const tokens = new ScrapeTokenStore();
    usePreferencesStore.getState().setPreferences({ language: 'pt-BR', audioLanguage: null });
    await scrapeOnServer({ base: '', media, tracker, tokens, fetchLike: server.fetch });
    usePreferencesStore.getState().setPreferences({ audioLanguage: 'ja' });
    await scrapeSourceOnServer({ id: 'library', media, tokens, fetchLike: server.fetch });
    await scrapeSourceOnServer({
      id: 'library',
      media,
      tokens,
      fetchLike: server.fetch,
      device: { codecs: ['h264', 'hevc', 'eac3', 'mkv'], audioLanguage: 'de' },
    });
    expect(queries.map((q) => q.audioLanguage)).toEqual(['pt', 'ja', 'de']);
    // jsdom decodes nothing: no codecs are claimed (the server then plays what every browser plays).
    expect(queries.map((q) => q.codecs)).toEqual([undefined, undefined, 'h264,hevc,eac3,mkv']);
    expect(queries[2]).toMatchObject({ id: 'library', type: 'movie', tmdbId: '603' });
  });

  it('a source the server refused with a code (media_unplayable) keeps it; the run goes on', async () => {
    const tracker = new SegmentTracker(names, () => undefined);
    const run: ScrapeEvent[] = [
      { event: 'init', data: { sourceIds: ['library', 'sample'] } },
      { event: 'start', data: 'library' },
      {
        event: 'update',
        data: {
          id: 'library',
          percentage: 100,
          status: 'failure',
          error: { name: 'ProviderRefusal', message: 'hevc and dts: no ffmpeg', code: 'media_unplayable' },
        },
      },
      { event: 'start', data: 'sample' },
      { event: 'update', data: { id: 'sample', percentage: 100, status: 'success' } },
      { event: 'completed', data: { sourceId: 'sample', stream: hlsStream } },
    ];
    const out = await scrapeOnServer({
      base: '',
      media,
      tracker,
      tokens: new ScrapeTokenStore(),
      fetchLike: scrapeServer(() => run).fetch,
    });
    expect(out).toMatchObject({ kind: 'found', output: { sourceId: 'sample' } });
    expect(tracker.state.segments.library).toMatchObject({
      status: 'failure',
      errorCode: 'media_unplayable',
      error: 'ProviderRefusal: hevc and dts: no ffmpeg',
    });
  });

  it('in the browser (extension, proxy) the library refusal keeps its code too', async () => {
    const server = contractServer({
      sources: {
        scrapeSource: () =>
          eventStream(sourceRoutes.scrapeSource, [
            {
              event: 'error',
              data: { name: 'ProviderRefusal', message: 'cannot convert', code: 'media_unplayable' },
            },
          ]),
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    const tracker = new SegmentTracker(names, () => undefined);
    const out = await scrapeInBrowser({
      mode: 'proxy',
      proxyUrls: ['https://proxy.test'],
      media: { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' },
      mediaParams: media,
      instanceSources: [{ id: 'library', name: 'Library', rank: 300, type: 'source' }],
      tracker,
    });
    expect(out.kind).toBe('notFound');
    expect(tracker.state.segments.library).toMatchObject({
      status: 'failure',
      errorCode: 'media_unplayable',
    });
  });
});

describe('in the browser (extension, proxy), a title the server refuses ends the run with that refusal', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    [404, 'media_not_found', 'notInCatalog'],
    [503, 'metadata_unavailable', 'metadataUnavailable'],
    [403, 'media_unreleased', 'unreleased'],
  ] as const)('%i %s: the run stops at the first source and ends as %s', async (status, code, kind) => {
    const asked: string[] = [];
    const server = contractServer({
      sources: {
        scrapeSource: ({ query }) => {
          asked.push(query.id!);
          return refuse(status, { code });
        },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    const tracker = new SegmentTracker(names, () => undefined);
    const out = await scrapeInBrowser({
      mode: 'extension',
      proxyUrls: [],
      media: { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' },
      mediaParams: media,
      instanceSources: [
        { id: 'library', name: 'Library', rank: 300, type: 'source' },
        { id: 'links', name: 'Links', rank: 200, type: 'source' },
      ],
      tracker,
    });
    expect(out).toEqual({ kind });
    // Every other source of this instance would be refused alike: none is asked, none shows "Error occurred".
    expect(asked).toEqual(['library']);
    expect(Object.values(tracker.state.segments).map((s) => s.status)).not.toContain('failure');
  });

  it('a viewer who leaves the page still cancels the run', async () => {
    const controller = new AbortController();
    const server = contractServer({
      sources: {
        scrapeSource: () => {
          controller.abort();
          return refuse(404, { code: 'media_not_found' });
        },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    await expect(
      scrapeInBrowser({
        mode: 'proxy',
        proxyUrls: ['https://proxy.test'],
        media: { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' },
        mediaParams: media,
        instanceSources: [{ id: 'library', name: 'Library', rank: 300, type: 'source' }],
        signal: controller.signal,
        tracker: new SegmentTracker(names, () => undefined),
      }),
    ).rejects.toThrow();
  });
});

describe('library streams: audio tracks and captions', () => {
  type AudioTrack = NonNullable<FoundStream['audioTracks']>[number];
  const track = (id: string, language: string, o: Partial<AudioTrack> = {}): AudioTrack => ({
    id,
    language,
    label: null,
    channels: 2,
    codec: 'aac',
    isDefault: false,
    active: false,
    playlist: `https://lib.test/${id}/master.m3u8`,
    ...o,
  });
  const direct: FoundStream = {
    id: 'library',
    type: 'file',
    flags: ['cors-allowed'],
    delivery: 'direct',
    qualities: { '1080': { type: 'mp4', url: 'https://lib.test/file.mp4' } },
    captions: [
      { id: 'c1', language: 'en', url: 'u1', type: 'vtt', needsProxy: false, opensubtitles: false },
      {
        id: 'c2',
        language: 'en',
        url: 'u2',
        type: 'vtt',
        needsProxy: false,
        opensubtitles: false,
        forced: true,
        label: 'Signs',
      },
    ],
    audioTracks: [
      track('a1', 'en', { active: true, isDefault: true, playlist: null, channels: 6 }),
      track('a2', 'fr', { label: 'VFF' }),
      // Neither playing nor playable on its own: not offered.
      track('a3', 'de', { playlist: null }),
    ],
  };

  it('the active track plays the stream as found, the others their own playlist', () => {
    const found = playerSourceOf(direct as never);
    expect(found.audioTracks.activeId).toBe('a1');
    expect(found.audioTracks.tracks.map((t) => [t.id, t.source])).toEqual([
      ['a1', found.source],
      ['a2', { type: 'hls', url: 'https://lib.test/a2/master.m3u8', conversion: true }],
    ]);
    expect(found.audioTracks.tracks[1]).toMatchObject({ language: 'fr', label: 'VFF', channels: 2 });
    expect(found.captions[1]).toMatchObject({ forced: true, label: 'Signs' });
    expect(found.captions[0]).not.toHaveProperty('forced');
    // Streams without tracks (every other source) have none.
    expect(playerSourceOf(hlsStream as never).audioTracks).toEqual({ tracks: [], activeId: null });
  });

  it('a converted library stream says so (automatic plays its top rendition) and carries its thumbnails', () => {
    const converted = {
      ...direct,
      type: 'hls',
      playlist: 'https://lib.test/a1/master.m3u8',
      delivery: 'remux',
      thumbnails: 'https://lib.test/thumbnails/thumbnails.vtt',
    };
    const found = playerSourceOf(converted as never);
    expect(found.source).toEqual({
      type: 'hls',
      url: 'https://lib.test/a1/master.m3u8',
      conversion: true,
      thumbnails: 'https://lib.test/thumbnails/thumbnails.vtt',
    });
    expect(found.audioTracks.tracks[1]!.source).toMatchObject({
      conversion: true,
      thumbnails: converted.thumbnails,
    });
    // Other HLS streams (the sample, links) are left to ABR.
    expect(playerSourceOf(hlsStream as never).source).not.toHaveProperty('conversion');
  });

  it('found again (fresh URLs), the track the viewer chose plays on', () => {
    const found = playerSourceOf(direct as never);
    const kept = withAudioTrack(found, 'a2');
    expect(kept.source).toEqual({ type: 'hls', url: 'https://lib.test/a2/master.m3u8', conversion: true });
    expect(kept.audioTracks.activeId).toBe('a2');
    expect(kept.audioTracks.tracks).toBe(found.audioTracks.tracks);
    expect(withAudioTrack(found, 'a1')).toBe(found);
    expect(withAudioTrack(found, 'gone')).toBe(found);
    expect(withAudioTrack(found, null)).toBe(found);
  });
});

describe('library streams: picture subtitles (burned in when chosen)', () => {
  const burned = (subtitle: string, track: string) =>
    `https://lib.test/hls/v1080.a${track}t.b${subtitle}/master.m3u8`;
  const stream = {
    id: 'library',
    type: 'hls',
    flags: ['cors-allowed'],
    delivery: 'remux',
    playlist: 'https://lib.test/hls/vc.a1t/master.m3u8',
    thumbnails: 'https://lib.test/thumbnails/thumbnails.vtt',
    captions: [],
    audioTracks: [
      {
        id: '1',
        language: 'en',
        label: null,
        channels: 6,
        codec: 'ac3',
        isDefault: true,
        active: true,
        playlist: null,
      },
      {
        id: '2',
        language: 'fr',
        label: null,
        channels: 2,
        codec: 'aac',
        isDefault: false,
        active: false,
        playlist: 'https://lib.test/hls/vc.a2t/master.m3u8',
      },
    ],
    imageSubtitles: [
      {
        id: 'pgs-4',
        language: 'fr',
        label: 'Forced',
        forced: true,
        format: 'pgs',
        playlists: { '1': burned('4', '1'), '2': burned('4', '2') },
      },
    ],
  } satisfies FoundStream;

  it('each plays through its playlist for an audio track, a conversion with the thumbnails; none is on', () => {
    const found = playerSourceOf(stream);
    expect(found.imageSubtitles.activeId).toBeNull();
    expect(found.imageSubtitles.plain).toBe(found.source);
    expect(found.imageSubtitles.items).toEqual([
      {
        id: 'pgs-4',
        language: 'fr',
        label: 'Forced',
        forced: true,
        sources: {
          '1': { type: 'hls', url: burned('4', '1'), conversion: true, thumbnails: stream.thumbnails },
          '2': { type: 'hls', url: burned('4', '2'), conversion: true, thumbnails: stream.thumbnails },
        },
      },
    ]);
    // They are no captions; other streams have none.
    expect(found.captions).toEqual([]);
    expect(playerSourceOf(hlsStream as never).imageSubtitles.items).toEqual([]);
  });

  it('found again (fresh URLs), the subtitle the viewer chose plays on with the track they chose', () => {
    const found = playerSourceOf(stream);
    const kept = withImageSubtitle(withAudioTrack(found, '2'), 'pgs-4');
    expect(kept.source).toMatchObject({ type: 'hls', url: burned('4', '2') });
    expect(kept.audioTracks.activeId).toBe('2');
    expect(kept.imageSubtitles.activeId).toBe('pgs-4');
    // Without it: the French track's own playlist.
    expect(kept.imageSubtitles.plain).toMatchObject({ url: 'https://lib.test/hls/vc.a2t/master.m3u8' });
    expect(withImageSubtitle(found, null)).toBe(found);
    expect(withImageSubtitle(found, 'gone')).toBe(found);
  });
});
