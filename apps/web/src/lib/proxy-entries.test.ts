import { describe, expect, it, vi } from 'vitest';
import { cleanProxyList, normalizeServerUrl, parseProxyEntry, testProxy } from './proxy-entries.ts';

describe('proxy entries', () => {
  it('accepts plain http(s) URLs and the pipe-prefixed form with type proxy or api', () => {
    expect(parseProxyEntry('https://proxy.example.com')).toEqual({
      type: 'proxy',
      url: 'https://proxy.example.com',
    });
    expect(parseProxyEntry('|type=api|https://api.example.com')).toEqual({
      type: 'api',
      url: 'https://api.example.com',
    });
    expect(parseProxyEntry('|type=proxy;x=1|http://p.local:3000')).toEqual({
      type: 'proxy',
      url: 'http://p.local:3000',
    });
  });

  it('drops everything else', () => {
    for (const bad of [
      '',
      'proxy.example.com',
      'ftp://x.y',
      '|type=weird|https://a.b',
      '|type=api|not a url',
      '|https://a.b',
    ]) {
      expect(parseProxyEntry(bad)).toBeNull();
    }
    expect(cleanProxyList([' https://a.b ', '', 'junk', '|type=api|https://c.d'])).toEqual([
      'https://a.b',
      '|type=api|https://c.d',
    ]);
  });

  it('tests a proxy by relaying /ping.txt', async () => {
    const answer = (text: string) => vi.fn(async () => new Response(text));
    expect(await testProxy('nope', 'http://me', answer('pong'))).toBe('invalidUrl');
    expect(await testProxy('https://p.example', 'http://me', answer('pong\n'))).toBe('ok');
    expect(await testProxy('https://p.example', 'http://me', answer('<html>a website</html>'))).toBe(
      'notProxy',
    );
    expect(
      await testProxy(
        'https://p.example',
        'http://me',
        vi.fn(async () => Promise.reject(new TypeError('x'))),
      ),
    ).toBe('unreachable');
    const f = answer('pong');
    await testProxy('https://p.example/', 'http://me', f);
    expect(f).toHaveBeenCalledWith(
      'https://p.example/?destination=http%3A%2F%2Fme%2Fping.txt',
      expect.anything(),
    );
  });

  it('prefixes https:// to a server address without a scheme', () => {
    expect(normalizeServerUrl('accounts.example.com/')).toBe('https://accounts.example.com');
    expect(normalizeServerUrl('http://10.0.0.2:8080')).toBe('http://10.0.0.2:8080');
    expect(normalizeServerUrl('  ')).toBe('');
  });
});
