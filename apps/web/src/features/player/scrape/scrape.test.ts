import { describe, expect, it, vi } from 'vitest';
import { ScrapeTokenStore } from '../../../lib/proxy-transport.ts';
import { useAccountStore } from '../../../stores/account-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { metricItems } from './metrics.ts';
import { scrapeOnServer, SegmentTracker } from './scrape-runner.ts';
import { segmentTree } from './segments.ts';
import { playerSourceOf, streamHosts } from './stream-source.ts';

const sse = (events: [string, unknown][]) =>
  events.map(([e, d]) => `id: 1\nevent: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join(': keep-alive\n\n');

function streamResponse(body: string, init: ResponseInit = {}) {
  const bytes = new TextEncoder().encode(body);
  // Split into awkward chunks: events and even lines cross chunk borders.
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
      controller.close();
    },
  });
  return new Response(stream, {
    headers: { 'content-type': 'text/event-stream', ...(init.headers ?? {}) },
    status: init.status ?? 200,
  });
}

const media = { type: 'movie' as const, title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
const names = (id: string) =>
  ({ sample: 'Sample', 'sample-hls': 'Sample HLS', 'sample-file': 'Sample MP4' })[id] ?? id;
const hlsStream = {
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

const RUN: [string, unknown][] = [
  ['token', 'tok.en.jwt'],
  ['init', { sourceIds: ['links', 'sample'] }],
  ['start', 'links'],
  ['update', { id: 'links', percentage: 0, status: 'pending' }],
  ['update', { id: 'links', percentage: 100, status: 'notfound', reason: 'no link for this title' }],
  ['start', 'sample'],
  ['update', { id: 'sample', percentage: 0, status: 'pending' }],
  [
    'discoverEmbeds',
    {
      sourceId: 'sample',
      embeds: [
        { id: 'sample-0', embedScraperId: 'sample-hls' },
        { id: 'sample-1', embedScraperId: 'sample-file' },
      ],
    },
  ],
  ['start', 'sample-0'],
  ['update', { id: 'sample-0', percentage: 100, status: 'success' }],
  ['update', { id: 'sample', percentage: 100, status: 'success' }],
  ['completed', { sourceId: 'sample', embedId: 'sample-hls', stream: hlsStream }],
];

describe('server scrape', () => {
  it('drives the per-source list and returns the stream; stores the token', async () => {
    const states: unknown[] = [];
    const tracker = new SegmentTracker(names, (s) => states.push(s));
    const tokens = new ScrapeTokenStore();
    const fetchLike = vi.fn(async () => streamResponse(sse(RUN)));
    const outcome = await scrapeOnServer({
      base: '',
      media,
      sourceOrder: ['links'],
      tracker,
      tokens,
      fetchLike: fetchLike as unknown as typeof fetch,
    });
    expect(outcome).toMatchObject({ kind: 'found', output: { sourceId: 'sample', embedId: 'sample-hls' } });
    const [url] = fetchLike.mock.calls[0] as unknown as [string];
    expect(url).toBe('/scrape?type=movie&title=The+Matrix&tmdbId=603&releaseYear=1999&sourceOrder=links');
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
    for (const [events, kind] of [
      [[['noOutput', '']], 'notFound'],
      [[['error', { name: 'NotFoundError', message: 'nothing' }]], 'notFound'],
      [[['error', { name: 'Error', message: 'boom' }]], 'failed'],
    ] as const) {
      const tracker = new SegmentTracker(names, () => undefined);
      const out = await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: (async () => streamResponse(sse(events as never))) as unknown as typeof fetch,
      });
      expect(out.kind).toBe(kind);
    }
  });

  it('JSON errors before the stream: media_removed, membership_required', async () => {
    const json = (status: number, code: string) => async () =>
      new Response(JSON.stringify({ errorType: 'message', code, message: code }), { status });
    const tracker = new SegmentTracker(names, () => undefined);
    expect(
      await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: json(451, 'media_removed') as unknown as typeof fetch,
      }),
    ).toEqual({ kind: 'removed' });
    expect(
      await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: json(403, 'membership_required') as unknown as typeof fetch,
      }),
    ).toEqual({ kind: 'membership' });
    // Signed out on a subscription site: the viewer is sent to sign in, not to buy.
    expect(
      await scrapeOnServer({
        base: '',
        media,
        tracker,
        tokens: new ScrapeTokenStore(),
        fetchLike: json(401, 'login_required') as unknown as typeof fetch,
      }),
    ).toEqual({ kind: 'login' });
  });

  it("sends the signed-in account's token to this instance only (membership is checked there)", async () => {
    const seen: { url: string; auth: string | null }[] = [];
    const fetchLike = (async (url: string, init?: RequestInit) => {
      seen.push({ url, auth: new Headers(init?.headers).get('authorization') });
      return streamResponse(sse(RUN));
    }) as unknown as typeof fetch;
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
    expect(seen.map((r) => r.auth)).toEqual([null, 'Bearer tok-123', null]);
  });

  it('captcha_required: solves once and retries with X-Token altcha|…', async () => {
    const fetchLike = vi
      .fn()
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ code: 'captcha_required', message: 'x' }), { status: 401 }),
      )
      .mockResolvedValueOnce(
        streamResponse(sse([['noOutput', '']]), { headers: { 'X-Token': 'fresh.jwt.token' } }),
      );
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
    expect((fetchLike.mock.calls[1]![1] as RequestInit).headers).toMatchObject({
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
      fetchLike: (async () =>
        new Response(JSON.stringify({ code: 'captcha_required' }), {
          status: 401,
        })) as unknown as typeof fetch,
    });
    expect(out.kind).toBe('captcha');
  });
});

describe('scrape reports and streams', () => {
  it('reports finished providers with the seed’s fields', async () => {
    const tracker = new SegmentTracker(names, () => undefined);
    await scrapeOnServer({
      base: '',
      media,
      tracker,
      tokens: new ScrapeTokenStore(),
      fetchLike: (async () => streamResponse(sse(RUN))) as unknown as typeof fetch,
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
