import { describe, expect, it, vi } from 'vitest';
import {
  createProxyTransport,
  customProxyUrls,
  jwtExpiry,
  makeBalancer,
  providerApiUrl,
  ScrapeTokenStore,
} from './proxy-transport.ts';

const jwt = (exp: number) => `h.${btoa(JSON.stringify({ exp }))}.s`;

describe('proxy transport', () => {
  it('balances: random start, then round-robin', () => {
    const next = makeBalancer(['a', 'b', 'c'], () => 0.5);
    expect([next(), next(), next(), next()]).toEqual(['b', 'c', 'a', 'b']);
  });

  it('reads custom proxies and a provider API from the list', () => {
    const list = [
      'https://p1.test',
      '|type=api|https://api.test/',
      'nonsense',
      '|type=proxy|https://p2.test',
    ];
    expect(customProxyUrls(list)).toEqual(['https://p1.test', 'https://p2.test']);
    expect(providerApiUrl(list)).toBe('https://api.test');
    expect(providerApiUrl(null)).toBeNull();
  });

  it('keeps a JWT until it expires and sends it as jwt|token', () => {
    let now = 1_000_000;
    const tokens = new ScrapeTokenStore(() => now);
    expect(tokens.header()).toBeNull();
    tokens.set(jwt(2_000));
    expect(jwtExpiry(jwt(2_000))).toBe(2_000);
    expect(tokens.header()).toBe(`jwt|${jwt(2_000)}`);
    now = 2_000_001;
    expect(tokens.header()).toBeNull();
  });

  it('requests <proxy>?destination=… with X-Token, storing the answer’s X-Token', async () => {
    const tokens = new ScrapeTokenStore(() => 0);
    tokens.set(jwt(10));
    const fetchLike = vi.fn(async () => new Response('ok', { headers: { 'X-Token': jwt(20) } }));
    const transport = createProxyTransport(
      ['https://proxy.test/'],
      fetchLike as unknown as typeof fetch,
      tokens,
    );
    await transport.request('https://site.test/a?b=1', { method: 'GET', headers: { 'X-Referer': 'r' } });
    const [url, init] = fetchLike.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://proxy.test/?destination=https%3A%2F%2Fsite.test%2Fa%3Fb%3D1');
    expect(init.headers).toEqual({ 'X-Referer': 'r', 'X-Token': `jwt|${jwt(10)}` });
    expect(tokens.header()).toBe(`jwt|${jwt(20)}`);
  });
});
