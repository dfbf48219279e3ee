import { describe, expect, it } from 'vitest';
import { firstViewAssets, isAppNavigation, isHashedAsset, isSkipWaiting } from './cache-rules.ts';

const ORIGIN = 'https://marquee.test';
/** As the build passes them (vite.config.ts: the contract's root prefixes, /promos left out: it is a page too). */
const SERVER = [
  '/meta',
  '/auth',
  '/users',
  '/sessions',
  '/metrics',
  '/api',
  '/customers',
  '/scrape',
  '/metadata',
];
const page = (path: string) => isAppNavigation(new URL(path, ORIGIN), ORIGIN, SERVER);

describe('what the service worker caches', () => {
  it('caches hashed build files only', () => {
    expect(isHashedAsset('/assets/index-DepVtbSt.js')).toBe(true);
    expect(isHashedAsset('/assets/index-B707BLvw.css')).toBe(true);
    expect(isHashedAsset('/assets/fr-BCjpcE6g.js')).toBe(true);
    expect(isHashedAsset('/sw.js')).toBe(false);
    expect(isHashedAsset('/favicon.svg')).toBe(false);
    expect(isHashedAsset('/assets/index-DepVtbSt.js.br')).toBe(false);
    expect(isHashedAsset('/api/assets/x.js')).toBe(false);
  });

  it('answers navigations to the app’s pages with the cached page, never the server’s own paths', () => {
    for (const path of [
      '/',
      '/mylist',
      '/media/tmdb-movie-603-the-matrix',
      '/browse/matrix?now=x',
      '/promos',
    ])
      expect(page(path), path).toBe(true);
    for (const path of [
      '/api/config',
      '/api/sources/sample/abc/hls/master.m3u8',
      '/users/@me',
      '/users/u1/bookmarks',
      '/auth/login/start',
      '/sessions/s1',
      '/meta',
      '/metrics',
      '/scrape/source',
      '/metadata',
      '/healthz',
      '/readyz',
    ])
      expect(page(path), path).toBe(false);
    // A prefix is a path segment, not the start of any word.
    expect(page('/metadata-help')).toBe(true);
    expect(isAppNavigation(new URL('https://other.test/'), ORIGIN, SERVER)).toBe(false);
  });

  it('reads the first view’s files from resource timing: same origin, build files only, once each', () => {
    expect(
      firstViewAssets(
        [
          `${ORIGIN}/assets/index-DepVtbSt.js`,
          `${ORIGIN}/assets/fr-BCjpcE6g.js`,
          `${ORIGIN}/assets/fr-BCjpcE6g.js`,
          `${ORIGIN}/favicon.svg`,
          `${ORIGIN}/api/config`,
          `${ORIGIN}/users/@me`,
          'https://www.gstatic.com/cv/js/sender/v1/cast_sender.js',
          'https://cdn.test/assets/x-AAAAAAAA.js',
          'not a url',
        ],
        ORIGIN,
      ),
    ).toEqual(['/assets/index-DepVtbSt.js', '/assets/fr-BCjpcE6g.js', '/favicon.svg']);
  });

  it('takes over only when asked with SKIP_WAITING', () => {
    expect(isSkipWaiting({ type: 'SKIP_WAITING' })).toBe(true);
    expect(isSkipWaiting({ type: 'CACHE_URLS', payload: { urlsToCache: [] } })).toBe(false);
    expect(isSkipWaiting('SKIP_WAITING')).toBe(false);
    expect(isSkipWaiting(null)).toBe(false);
  });
});
