import { sourceRoutes } from '@marquee/contract/values';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { movieDetails } from '../../test/media-fixtures.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { api, ApiError, codeKey, errorKey, isNotFound } from './index.ts';
import { STOP, stream } from './stream.ts';

const details = movieDetails();

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAccountStore.setState({ account: null, backendUrl: null });
});

const signIn = (token = 'tok-1') =>
  useAccountStore.setState({
    account: {
      kind: 'email',
      token,
      userId: 'u1',
      sessionId: 's1',
      deviceName: 'd',
      seed: '',
      profile: { colorA: '#000', colorB: '#fff', icon: 'cat' },
    },
  });

describe('api client', () => {
  it('fills params and query from the contract and answers the typed body', async () => {
    const server = contractServer({
      metadata: {
        details: ({ params }) => ({ ...details, id: params.id! }),
        discover: ({ query }) => ({ results: [{ ...details, id: `${query.genre}-${query.page}` }] }),
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    const answer = await api.metadata.details({ params: { type: 'movie', id: '603' } });
    expect(answer.title).toBe('The Matrix');
    const list = await api.metadata.discover({ params: { type: 'tv' }, query: { genre: 18, page: 2 } });
    expect(list.results[0]!.id).toBe('18-2');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/media/movie/603',
      '/api/discover/tv?genre=18&page=2',
    ]);
  });

  it('errors carry the code, status and validation issues of the answer', async () => {
    vi.stubGlobal(
      'fetch',
      contractServer({
        metadata: { details: () => refuse(404, { code: 'media_not_found' }) },
        customer: {
          register: () =>
            refuse(400, {
              code: 'validation_failed',
              errorType: 'validation',
              issues: [{ path: ['password'], message: 'too short' }],
            }),
        },
      }).fetch,
    );
    const notFound = await api.metadata
      .details({ params: { type: 'movie', id: '1' } })
      .catch((e: unknown) => e);
    expect(notFound).toBeInstanceOf(ApiError);
    expect(notFound).toMatchObject({ status: 404, code: 'media_not_found' });
    expect(isNotFound(notFound)).toBe(true);
    const invalid = await api.customer
      .register({ token: null, body: { fullname: 'A', email: 'a@b.c', password: 'x' } })
      .catch((e: unknown) => e);
    expect(invalid).toMatchObject({ status: 400, code: 'validation_failed' });
    expect((invalid as ApiError).issues).toEqual([{ path: ['password'], message: 'too short' }]);
    expect(errorKey(invalid)).toBe('errors.api.validation_failed');
  });

  it('an answer without the error shape is "unknown"; i18n keys fall back by status', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>bad gateway</html>', { status: 502 }));
    const error = (await api.metadata
      .genres({ params: { type: 'movie' } })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 502, code: 'unknown' });
    expect(errorKey(error)).toBe('errors.api.internal_error');
    expect(codeKey('promo_already_used')).toBe('errors.api.promo_already_used');
    expect(codeKey('media_url_invalid', 403)).toBe('errors.api.unknown');
    // The scrape API's release check: a title its metadata does not list, or cannot check now (503).
    expect(codeKey('media_not_found', 404)).toBe('errors.api.media_not_found');
    expect(codeKey('metadata_unavailable', 503)).toBe('errors.api.metadata_unavailable');
  });

  it('no answer at all is a network_error (status 0); the caller aborting is not', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(api.account.me()).rejects.toMatchObject({ status: 0, code: 'network_error' });
    expect(errorKey(await api.account.me().catch((e: unknown) => e))).toBe('errors.api.network_error');

    vi.stubGlobal('fetch', (_: string, init: RequestInit) => {
      return new Promise((_resolve, reject) => {
        init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
      });
    });
    const controller = new AbortController();
    const call = api.metadata.search({ query: { query: 'x' }, signal: controller.signal });
    controller.abort(new DOMException('gone', 'AbortError'));
    const aborted = await call.catch((e: unknown) => e);
    expect(aborted).not.toBeInstanceOf(ApiError);
    expect((aborted as Error).name).toBe('AbortError');

    vi.useFakeTimers();
    const timedOut = api.account.me({ timeoutMs: 50 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60);
    vi.useRealTimers();
    expect(await timedOut).toMatchObject({ status: 0, code: 'network_error' });
  });

  it("sends the signed-in account's bearer token and X-Profile-Id to the account server", async () => {
    const server = contractServer({
      sync: { settings: () => ({ ...settingsRow }) },
      account: { meta: () => ({ name: 'n', version: '1', hasCaptcha: false }) },
    });
    vi.stubGlobal('fetch', server.fetch);
    signIn('tok-9');
    useAccountStore.setState({ backendUrl: 'https://accounts.example/' });
    await api.sync.settings({ params: { uid: 'u1' }, headers: { 'x-profile-id': 'p2' } });
    // Another server named explicitly gets no token unless given one.
    await api.account.meta({ baseUrl: 'https://other.example' });
    const [settings, meta] = server.requests;
    const headers = settings!.init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer tok-9');
    expect(headers['x-profile-id']).toBe('p2');
    expect((meta!.init.headers as Record<string, string>).authorization).toBeUndefined();
    const urls = fetchUrls(server);
    expect(urls).toEqual(['https://accounts.example/users/u1/settings', 'https://other.example/meta']);
  });

  it('raw mode: a 304 resolves as notModified, a 200 with its headers and body', async () => {
    let version = 'W/"v1"';
    const server = contractServer({
      sync: {
        bookmarks: ({ headers }) =>
          headers.get('if-none-match') === version
            ? new Response(null, { status: 304 })
            : new Response(
                JSON.stringify({ items: [], removed: [], reset: true, next: null, version: '1' }),
                {
                  headers: { etag: version, 'content-type': 'application/json' },
                },
              ),
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    const first = await api.sync.bookmarks.raw({ params: { uid: 'u1' }, query: { limit: 10 } });
    expect(first.notModified).toBe(false);
    if (!first.notModified) {
      expect(first.headers.get('etag')).toBe(version);
      expect(Array.isArray(first.data) ? null : first.data.version).toBe('1');
    }
    const again = await api.sync.bookmarks.raw({
      params: { uid: 'u1' },
      headers: { 'if-none-match': version },
    });
    expect(again).toMatchObject({ notModified: true, status: 304 });
    // The plain call treats a 304 as the failure it would be there.
    version = 'W/"v2"';
    await expect(
      api.sync.bookmarks({ params: { uid: 'u1' }, headers: { 'if-none-match': 'W/"v9"' } }),
    ).resolves.toMatchObject({ version: '1' });
  });
});

const settingsRow = {
  id: 'u1',
  applicationTheme: null,
  applicationLanguage: 'en',
  defaultSubtitleLanguage: null,
  proxyUrls: null,
  enableAutoplay: null,
  subtitleStyling: null,
  defaultAudioLanguage: null,
};
const fetchUrls = (server: ReturnType<typeof contractServer>) => server.requests.map((r) => r.url);

/** An event stream cut into awkward chunks: events, lines and even characters cross chunk borders. */
function chunked(text: string, size: number, init: ResponseInit = {}) {
  const bytes = new TextEncoder().encode(text);
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
        controller.close();
      },
    }),
    { ...init, headers: { 'content-type': 'text/event-stream', ...(init.headers as object) } },
  );
}

describe('stream', () => {
  const body =
    ': keep-alive\n\n' +
    'event: token\ndata: "tok.é.jwt"\n\n' +
    'id: 2\nevent: init\ndata: {"sourceIds":\ndata: ["a","b"]}\r\n\r\n' +
    'event: bogus\ndata: {}\n\n' +
    'event: update\ndata: not json\n\n' +
    'event: completed\ndata: {"stream":[]}\n\n' +
    'event: token\ndata: "after the end"\n\n';

  it('parses events across chunk borders, typed by name; unknown names and non-JSON data are skipped', async () => {
    for (const size of [1, 3, 7, 1000]) {
      vi.stubGlobal('fetch', async () => chunked(body, size));
      const seen: unknown[] = [];
      const end = await stream(sourceRoutes.scrapeEmbed, { query: { id: 'e', url: 'u' } }, (e) => {
        seen.push([e.event, e.data]);
        return e.event === 'completed' ? STOP : undefined;
      });
      expect(end).toBe('stopped');
      expect(seen).toEqual([
        ['token', 'tok.é.jwt'],
        ['init', { sourceIds: ['a', 'b'] }],
        ['completed', { stream: [] }],
      ]);
    }
  });

  it('a refusal before the stream is an ApiError; the answer headers are seen first', async () => {
    vi.stubGlobal(
      'fetch',
      async () =>
        new Response(JSON.stringify({ errorType: 'message', code: 'captcha_required', message: 'x' }), {
          status: 401,
          headers: { 'x-token': 'fresh' },
        }),
    );
    const headers: string[] = [];
    const error = await stream(
      sourceRoutes.scrape,
      {
        query: { type: 'movie', title: 'T', tmdbId: '1' },
        onResponse: (a) => headers.push(a.headers.get('x-token') ?? ''),
      },
      () => undefined,
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: 'captcha_required' });
    expect(headers).toEqual(['fresh']);
  });

  it('a stream that closes without a terminal event ends', async () => {
    vi.stubGlobal('fetch', async () => chunked('event: start\ndata: "a"\n\nevent: start\ndata: "b"', 4));
    const seen: string[] = [];
    const end = await stream(
      sourceRoutes.scrape,
      { query: { type: 'movie', title: 'T', tmdbId: '1' } },
      (e) => {
        if (e.event === 'start') seen.push(e.data);
      },
    );
    expect(end).toBe('ended');
    // The last event had no empty line after it: dropped, as browsers do.
    expect(seen).toEqual(['a']);
  });
});
