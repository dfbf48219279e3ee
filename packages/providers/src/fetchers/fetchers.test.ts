import { describe, expect, it, vi } from 'vitest';
import { FetchError, makeFullUrl, makeUseableFetcher } from './common.ts';
import { makeExtensionFetcher, type ExtensionRequest, type ExtensionResult } from './extension.ts';
import { makeProxyFetcher, type ProxyTransport } from './proxy.ts';
import { makeStandardFetcher } from './standard.ts';
import type { FetchLike } from './types.ts';

/** A transport to a plain proxy, `<proxyUrl>?destination=<target>` (the web app's own lives in lib/proxy-transport.ts). */
function plainProxy(proxyUrl: string, fetchLike: FetchLike): ProxyTransport {
  return {
    request(destination, init) {
      const url = new URL(proxyUrl);
      url.searchParams.set('destination', destination);
      return fetchLike(url.toString(), init);
    },
  };
}

const json = (body: unknown, init: ResponseInit = {}) =>
  new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers ?? {}) },
  });

describe('makeFullUrl', () => {
  it('joins base and path with one slash and adds the query', () => {
    expect(makeFullUrl('/search', { baseUrl: 'https://api.example/v1/', query: { q: 'a b' } })).toBe(
      'https://api.example/v1/search?q=a+b',
    );
    expect(makeFullUrl('search', { baseUrl: 'https://api.example/v1' })).toBe(
      'https://api.example/v1/search',
    );
    expect(makeFullUrl('https://x.example/a?b=1', { query: { c: '2' } })).toBe('https://x.example/a?b=1&c=2');
  });
  it('refuses a relative URL', () => {
    expect(() => makeFullUrl('/nowhere')).toThrow('must be absolute');
  });
});

describe('standard fetcher', () => {
  it('sends method, headers and a JSON body, and parses a JSON answer', async () => {
    const fetchLike = vi.fn<FetchLike>(async () => json({ ok: true }));
    const fetcher = makeUseableFetcher(makeStandardFetcher(fetchLike));
    expect(
      await fetcher('https://api.example/x', { method: 'POST', body: { a: 1 }, headers: { 'x-a': '1' } }),
    ).toEqual({ ok: true });
    const [url, init] = fetchLike.mock.calls[0]!;
    expect(url).toBe('https://api.example/x');
    expect(init).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'x-a': '1' },
    });
  });
  it('gives text answers as text, and throws on HTTP errors unless the full answer is asked for', async () => {
    const fetcher = makeUseableFetcher(
      makeStandardFetcher(async () => new Response('nope', { status: 404 })),
    );
    await expect(fetcher('https://api.example/missing')).rejects.toBeInstanceOf(FetchError);
    const full = await fetcher.full('https://api.example/missing');
    expect(full).toMatchObject({ statusCode: 404, body: 'nope', finalUrl: 'https://api.example/missing' });
  });
  it('passes the run’s abort signal on', async () => {
    const fetchLike = vi.fn<FetchLike>(async () => new Response(''));
    const controller = new AbortController();
    await makeUseableFetcher(makeStandardFetcher(fetchLike), controller.signal)('https://api.example/');
    expect(fetchLike.mock.calls[0]![1]?.signal).toBe(controller.signal);
  });
});

describe('custom proxy fetcher', () => {
  it('asks the proxy for the destination, aliasing headers a browser may not send', async () => {
    const fetchLike = vi.fn<FetchLike>(async () =>
      json(
        { id: 1 },
        { headers: { 'x-final-destination': 'https://site.example/after-redirect', 'x-set-cookie': 'a=b' } },
      ),
    );
    const fetcher = makeUseableFetcher(makeProxyFetcher(plainProxy('https://proxy.example/', fetchLike)));
    const answer = await fetcher.full('https://site.example/page', {
      query: { id: '7' },
      headers: {
        Referer: 'https://site.example/',
        cookie: 'c=d',
        Origin: 'https://site.example',
        accept: 'text/html',
      },
    });
    const [url, init] = fetchLike.mock.calls[0]!;
    expect(url).toBe(
      `https://proxy.example/?destination=${encodeURIComponent('https://site.example/page?id=7')}`,
    );
    expect(init?.headers).toEqual({
      'X-Referer': 'https://site.example/',
      'X-Cookie': 'c=d',
      'X-Origin': 'https://site.example',
      accept: 'text/html',
    });
    expect(answer.finalUrl).toBe('https://site.example/after-redirect');
    expect(answer.headers.get('set-cookie')).toBe('a=b');
    expect(answer.body).toEqual({ id: 1 });
  });
});

describe('extension fetcher', () => {
  it('sends makeRequest with the body encoded for the extension and maps its answer', async () => {
    const requests: ExtensionRequest[] = [];
    const fetcher = makeUseableFetcher(
      makeExtensionFetcher({
        async makeRequest(request): Promise<ExtensionResult> {
          requests.push(request);
          return {
            success: true,
            response: {
              statusCode: 200,
              headers: { 'content-type': 'text/html' },
              finalUrl: request.url,
              body: '<html>',
            },
          };
        },
      }),
    );
    expect(
      await fetcher('https://site.example/a', {
        method: 'POST',
        body: new URLSearchParams({ q: 'x' }),
        readHeaders: ['set-cookie'],
      }),
    ).toBe('<html>');
    expect(requests[0]).toEqual({
      url: 'https://site.example/a',
      method: 'POST',
      headers: {},
      readHeaders: ['set-cookie'],
      body: [['q', 'x']],
      bodyType: 'URLSearchParams',
    });
  });
  it('turns a refusal of the extension into an error', async () => {
    const fetcher = makeUseableFetcher(
      makeExtensionFetcher({
        makeRequest: async () => ({ success: false, error: 'Domain not whitelisted' }),
      }),
    );
    await expect(fetcher('https://site.example/')).rejects.toThrow('Domain not whitelisted');
  });
});
