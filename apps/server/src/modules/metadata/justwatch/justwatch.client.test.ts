import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog, loadCatalogData } from '../catalog/catalog.ts';
import { MetadataService } from '../metadata.service.ts';
import { JustWatchClient } from './justwatch.client.ts';

/** A local stand-in for JustWatch's content API: /content/titles/{movie|show}/{id}/locale/en_US. */
const titles: Record<string, unknown> = {
  'movie/10': {
    object_type: 'movie',
    title: 'The Matrix',
    external_ids: [
      { provider: 'tmdb', external_id: '603' },
      { provider: 'imdb', external_id: 'tt0133093' },
    ],
  },
  'show/20': {
    object_type: 'show',
    title: 'Breaking Bad',
    external_ids: [{ provider: 'tmdb', external_id: '1396' }],
  },
  'movie/30': {
    object_type: 'movie',
    title: 'Fight Club',
    external_ids: [{ provider: 'imdb', external_id: 'tt0137523' }],
  },
  'movie/40': { object_type: 'movie', title: 'Nothing', external_ids: [] },
};

let server: Server;
let base: string;
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/content\/titles\/(movie|show)\/(\d+)\/locale\/en_US$/.exec(req.url ?? '');
    if (m?.[2] === '500') {
      res.writeHead(500).end();
      return;
    }
    if (m?.[2] === '400') {
      res.writeHead(400).end('{}');
      return;
    }
    const title = m ? titles[`${m[1]}/${m[2]}`] : undefined;
    if (!title) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(title));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const service = (url: string) =>
  new MetadataService({ api: new Catalog(loadCatalogData()), legacy: new JustWatchClient(url, 2000) });

describe('old JustWatch media keys', () => {
  it('resolves a movie through its TMDB id, and a show too (the older clients failed on shows)', async () => {
    const s = service(base);
    await expect(s.resolveJustWatch('movie', '10')).resolves.toMatchObject({
      id: '603',
      type: 'movie',
      title: 'The Matrix',
    });
    await expect(s.resolveJustWatch('show', '20')).resolves.toMatchObject({
      id: '1396',
      type: 'tv',
      title: 'Breaking Bad',
    });
    expect(requests).toContain('/content/titles/show/20/locale/en_US');
    s.close();
  });

  it('falls back to the IMDb id and TMDB find', async () => {
    const s = service(base);
    await expect(s.resolveJustWatch('movie', '30')).resolves.toMatchObject({ id: '550', type: 'movie' });
    s.close();
  });

  it('a 400 or 404 from the lookup, or no usable id, means not found', async () => {
    const s = service(base);
    await expect(s.resolveJustWatch('movie', '404')).rejects.toMatchObject({
      status: 404,
      code: 'media_not_found',
    });
    await expect(s.resolveJustWatch('movie', '400')).rejects.toMatchObject({
      status: 404,
      code: 'media_not_found',
    });
    await expect(s.resolveJustWatch('movie', '40')).rejects.toMatchObject({
      status: 404,
      code: 'media_not_found',
    });
    s.close();
  });

  it('an unreachable or failing lookup is "Failed to load API metadata", not a crash', async () => {
    const s = service(base);
    await expect(s.resolveJustWatch('movie', '500')).rejects.toMatchObject({
      status: 503,
      code: 'legacy_metadata_unavailable',
      message: 'Failed to load API metadata',
    });
    s.close();
    const down = service('http://127.0.0.1:9');
    await expect(down.resolveJustWatch('movie', '10')).rejects.toMatchObject({
      status: 503,
      code: 'legacy_metadata_unavailable',
    });
    down.close();
  });
});
