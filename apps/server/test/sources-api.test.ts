import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiErrorBody,
  scrapeAllEvents,
  scrapeEmbedEvents,
  scrapeQuery,
  scrapeSourceEvents,
  sourcesEndpoints,
  type ScrapeAllEventData,
  type ScrapeMediaParams,
} from '@marquee/contract';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { InstanceSecretsRepository } from '../src/modules/instance/instance-secrets.repository.ts';
import { MEDIA_URL_SECRET_NAME, MediaUrlSigner } from '../src/modules/sources/media-access.ts';
import { SAMPLES_DIR } from '../src/paths.ts';
import { createTestDatabase, testDialect, type TestDatabase } from './test-database.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-sources-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const baseEnv = {
  LOG_LEVEL: 'silent',
  DATA_DIR: path.join(tmp, 'data'),
  WEB_DIST_DIR: path.join(tmp, 'no-web-build'),
};

// ---- a generated media library (small real MP4s copied from the samples, plus subtitles) ----
const library = path.join(tmp, 'library');
const sampleMp4 = path.join(SAMPLES_DIR, 'mp4', 'sample-360p.mp4');
const put = (relative: string, content?: string) => {
  const full = path.join(library, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  if (content === undefined) copyFileSync(sampleMp4, full);
  else writeFileSync(full, content);
  return full;
};
const MATRIX = 'Movies/The Matrix (1999) [tmdbid-603].mp4';
put(MATRIX);
put('Movies/The Matrix (1999) [tmdbid-603].en.srt', '1\n00:00:01,000 --> 00:00:02,000\nWake up, Neo\n');
put(
  'Movies/The Matrix (1999) [tmdbid-603].fr.vtt',
  'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nRéveille-toi, Neo\n',
);
put('Movies/Inception (2010)/Inception (2010).mkv');
put('TV/Breaking Bad (2008) [tmdbid-1396]/Season 01/Breaking Bad S01E02.mp4');
const doomed = put('Movies/Heat (1995)/Heat (1995).mp4');

const linksFile = path.join(tmp, 'links.json');
writeFileSync(
  linksFile,
  JSON.stringify({
    links: [
      {
        type: 'movie',
        tmdbId: 550,
        url: 'https://cdn.example/fight-club/master.m3u8',
        captions: [{ language: 'en', url: 'https://cdn.example/fc.en.vtt' }],
      },
      { type: 'movie', tmdbId: 603, qualities: { '1080': 'https://cdn.example/matrix-1080.mp4' } },
    ],
  }),
);

const matrix: ScrapeMediaParams = { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
/** A released title the metadata (the embedded catalog) has, in neither the library nor the links file. */
const nowhere: ScrapeMediaParams = {
  type: 'movie',
  title: 'Forrest Gump',
  releaseYear: 1994,
  tmdbId: '13',
};
const breakingBad: ScrapeMediaParams = {
  type: 'show',
  title: 'Breaking Bad',
  releaseYear: 2008,
  tmdbId: '1396',
  season: { number: 1, tmdbId: '3572' },
  episode: { number: 2, tmdbId: '62086' },
};

// ---- reading server-sent events ----
interface SseEvent {
  event: string;
  data: unknown;
}
function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of text.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l && !l.startsWith(':'));
    if (lines.length === 0) continue;
    let event = 'message';
    const data: string[] = [];
    for (const line of lines) {
      if (line.startsWith('event: ')) event = line.slice(7);
      else if (line.startsWith('data: ')) data.push(line.slice(6));
    }
    events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

interface Started {
  app: App;
  database: TestDatabase;
  base: string;
  close(): Promise<void>;
}
async function start(env: Record<string, string>): Promise<Started> {
  const database = await createTestDatabase(tmp);
  const app = await buildApp(loadConfig({ ...baseEnv, ...env }), { database, logger: false });
  const base = await app.server.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    database,
    base,
    async close() {
      await app.server.close();
      await database.destroy();
    },
  };
}

/** A GET exactly as written (no URL normalisation, no headers added). */
function rawGet(
  s: Started,
  pathAndQuery: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  const url = new URL(s.base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: pathAndQuery, method: 'GET', headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** Reads a whole scrape stream; checks every event against the contract schemas of its endpoint. */
async function scrape(
  s: Started,
  pathAndQuery: string,
  schemas: Record<string, z.ZodType>,
  init?: RequestInit,
) {
  const response = await fetch(`${s.base}${pathAndQuery}`, init);
  const text = await response.text();
  if (!response.headers.get('content-type')?.startsWith('text/event-stream'))
    return { response, events: [], error: JSON.parse(text) as unknown };
  const events = parseSse(text);
  for (const e of events) schemas[e.event]!.parse(e.data);
  return { response, events, error: null };
}
const q = (media: ScrapeMediaParams, extra: Parameters<typeof scrapeQuery>[1] = {}) =>
  new URLSearchParams(scrapeQuery(media, extra)).toString();
const scrapeAll = (
  s: Started,
  media: ScrapeMediaParams,
  extra: Parameters<typeof scrapeQuery>[1] = {},
  init?: RequestInit,
) => scrape(s, `/scrape?${q(media, extra)}`, scrapeAllEvents, init);
const completed = (events: SseEvent[]) =>
  events.find((e) => e.event === 'completed')?.data as ScrapeAllEventData['completed'];
/** A signed access token (decision 071): expiry, title, viewer (~ = anyone), signature. */
const ACCESS = '[0-9a-z]+\\.[ms]\\d+\\.(?:~|[A-Za-z0-9_-]+)\\.[A-Za-z0-9_-]{22}';

/** The signed sample folder of a scrape's answer (`…/api/sources/sample/<access>`). */
async function sampleBase(s: Started): Promise<string> {
  const output = completed((await scrapeAll(s, nowhere)).events);
  if (output.stream.type !== 'hls') throw new Error('expected the sample HLS stream');
  return output.stream.playlist.replace(/\/hls\/master\.m3u8$/, '');
}
const statuses = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'update')
    .map((e) => `${(e.data as { id: string }).id}:${(e.data as { status: string }).status}`);

describe(`sources and the scrape API (${testDialect})`, () => {
  let s: Started;
  beforeAll(async () => {
    s = await start({ MEDIA_LIBRARY_DIR: library, LINKS_FILE: linksFile, TAKEDOWN_IDS: '680,tv-2316' });
  });
  afterAll(async () => {
    await s.close();
  });

  describe('GET /metadata', () => {
    it('lists [embeds, sources] in run order, readable from other origins', async () => {
      const response = await fetch(`${s.base}/metadata`);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      const [embeds, sources] = sourcesEndpoints.providerMetadata.response.parse(await response.json());
      expect(sources.map((x) => x.id)).toEqual(['library', 'links', 'sample']);
      expect(sources[0]).toEqual({
        type: 'source',
        id: 'library',
        name: 'Media library',
        rank: 300,
        mediaTypes: ['movie', 'show'],
      });
      expect(embeds.map((x) => x.id)).toEqual(['sample-hls', 'sample-file']);
    });
  });

  describe('GET /scrape', () => {
    it('finds a library movie: events in order, a file stream with range-served files and its subtitles', async () => {
      const { response, events } = await scrapeAll(s, matrix);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(events.map((e) => e.event)).toEqual([
        'init',
        'start',
        'update',
        'update',
        'update',
        'completed',
      ]);
      expect(events[0]!.data).toEqual({ sourceIds: ['library', 'links', 'sample'] });
      expect(events[1]!.data).toBe('library');
      expect(statuses(events)).toEqual(['library:pending', 'library:pending', 'library:success']);
      expect(
        events.filter((e) => e.event === 'update').map((e) => (e.data as { percentage: number }).percentage),
      ).toEqual([0, 50, 100]);
      const output = completed(events);
      expect(output.sourceId).toBe('library');
      expect(output.stream.type).toBe('file');
      if (output.stream.type !== 'file') return;
      // The name says no quality: the probe's picture height does (the sample is 640×360).
      expect(Object.keys(output.stream.qualities)).toEqual(['360']);
      const file = output.stream.qualities['360']!;
      expect(file.type).toBe('mp4');
      expect(file.url.startsWith(`${s.base}/api/sources/library/`)).toBe(true);
      expect(output.stream.captions.map((c) => [c.language, c.type])).toEqual([
        ['en', 'srt'],
        ['fr', 'vtt'],
      ]);

      const video = await fetch(file.url, { headers: { range: 'bytes=0-1023' } });
      expect(video.status).toBe(206);
      expect(video.headers.get('content-type')).toBe('video/mp4');
      expect(video.headers.get('content-range')).toBe(`bytes 0-1023/${readFileSync(sampleMp4).length}`);
      expect(Buffer.from(await video.arrayBuffer()).equals(readFileSync(sampleMp4).subarray(0, 1024))).toBe(
        true,
      );

      const srt = await fetch(output.stream.captions[0]!.url);
      expect(srt.headers.get('content-type')).toBe('application/x-subrip; charset=utf-8');
      expect(await srt.text()).toContain('Wake up, Neo');
      const vtt = await fetch(output.stream.captions[1]!.url);
      expect(vtt.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    });

    it('finds an episode in the library by show id, season and episode', async () => {
      const output = completed((await scrapeAll(s, breakingBad)).events);
      expect(output.sourceId).toBe('library');
      expect(JSON.stringify(output.stream)).toContain('Breaking%20Bad%20S01E02.mp4');
    });

    it('uses the operator links after the library, and lets the viewer’s order go first', async () => {
      const fightClub = completed(
        (await scrapeAll(s, { type: 'movie', title: 'Fight Club', releaseYear: 1999, tmdbId: '550' })).events,
      );
      expect(fightClub).toMatchObject({
        sourceId: 'links',
        stream: {
          type: 'hls',
          playlist: 'https://cdn.example/fight-club/master.m3u8',
          captions: [{ language: 'en', type: 'vtt' }],
        },
      });
      const reordered = completed((await scrapeAll(s, matrix, { sourceOrder: ['links'] })).events);
      expect(reordered).toMatchObject({
        sourceId: 'links',
        stream: { type: 'file', qualities: { '1080': { url: 'https://cdn.example/matrix-1080.mp4' } } },
      });
    });

    it('falls back to the sample for any other title, through its embeds, labelled as a sample', async () => {
      const { events } = await scrapeAll(s, nowhere);
      expect(events.map((e) => e.event)).toEqual([
        'init',
        'start',
        'update',
        'update',
        'update',
        'start',
        'update',
        'update',
        'start',
        'update',
        'discoverEmbeds',
        'start',
        'update',
        'update',
        'update',
        'completed',
      ]);
      expect(statuses(events)).toEqual([
        'library:pending',
        'library:pending',
        'library:notfound',
        'links:pending',
        'links:notfound',
        'sample:pending',
        'sample-0:pending',
        'sample-0:success',
        'sample:success',
      ]);
      expect(events.find((e) => e.event === 'discoverEmbeds')!.data).toEqual({
        sourceId: 'sample',
        embeds: [
          { id: 'sample-0', embedScraperId: 'sample-hls' },
          { id: 'sample-1', embedScraperId: 'sample-file' },
        ],
      });
      const output = completed(events);
      expect(output).toMatchObject({
        sourceId: 'sample',
        embedId: 'sample-hls',
        stream: { type: 'hls', isSample: true },
      });
      expect(output.stream.captions.length).toBeGreaterThanOrEqual(3);
    });

    it('serves the sample HLS ladder, segments and captions with their content types', async () => {
      const sample = await sampleBase(s);
      expect(sample).toMatch(new RegExp(`^${s.base}/api/sources/sample/${ACCESS}$`));
      const master = await fetch(`${sample}/hls/master.m3u8`);
      expect(master.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
      const text = await master.text();
      expect(text.match(/RESOLUTION=\d+x(\d+)/g)).toEqual([
        'RESOLUTION=640x360',
        'RESOLUTION=854x480',
        'RESOLUTION=1280x720',
      ]);
      // Playlists name their segments relatively: the signed prefix covers them.
      expect(text).not.toContain('/');
      const media = await (await fetch(`${sample}/hls/720p.m3u8`)).text();
      const total = [...media.matchAll(/#EXTINF:([\d.]+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
      expect(total).toBeGreaterThanOrEqual(10 * 60);
      // The same segments repeat with their own timestamps: each repetition is a discontinuity.
      expect(media.split('#EXT-X-DISCONTINUITY').length - 1).toBe(media.split('720p/seg-0.ts').length - 2);
      const segment = await fetch(`${sample}/hls/720p/seg-0.ts`);
      expect(segment.headers.get('content-type')).toBe('video/mp2t');
      expect(new Uint8Array(await segment.arrayBuffer())[0]).toBe(0x47);
      const caption = await fetch(`${sample}/captions/sample.en.vtt`);
      expect(caption.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
      expect(await caption.text()).toContain('This is a Marquee sample');
    });

    it('answers "Media has been removed" for a taken-down title, before scraping', async () => {
      for (const media of [
        { ...matrix, tmdbId: '680' },
        { ...breakingBad, tmdbId: '2316' },
      ]) {
        const { response, error } = await scrapeAll(s, media);
        expect(response.status).toBe(451);
        expect(ApiErrorBody.parse(error)).toMatchObject({
          code: 'media_removed',
          message: 'Media has been removed',
        });
      }
      // tv-2316 is the show only: a movie with that number is not refused as removed (the metadata has no
      // such movie: it is refused as not found, by the release check that comes after the takedowns).
      const movie2316 = await scrapeAll(s, { ...matrix, tmdbId: '2316' });
      expect(movie2316.response.status).toBe(404);
      expect(ApiErrorBody.parse(movie2316.error).code).toBe('media_not_found');
      const source = await fetch(
        `${s.base}/scrape/source?${q({ ...matrix, tmdbId: '680' }, { id: 'sample' })}`,
      );
      expect(source.status).toBe(451);
    });

    it('validates the query: a show needs its season and episode', async () => {
      const { response, error } = await scrape(
        s,
        '/scrape?type=show&title=Breaking%20Bad&tmdbId=1396',
        scrapeAllEvents,
      );
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ code: 'validation_failed' });
      expect(JSON.stringify(error)).toContain('missing show data');
      expect((await fetch(`${s.base}/scrape?type=movie&tmdbId=603`)).status).toBe(400);
      expect((await fetch(`${s.base}/scrape?type=movie&title=x&tmdbId=../etc`)).status).toBe(400);
    });

    it('answers preflights for the X-Token header', async () => {
      const response = await fetch(`${s.base}/scrape`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://other.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-token',
        },
      });
      expect(response.status).toBe(204);
      const allowed = response.headers.get('access-control-allow-headers')?.toLowerCase().split(', ');
      expect(allowed).toContain('x-token');
    });
  });

  describe('GET /scrape/source and /scrape/embed', () => {
    it('runs one source: the library’s stream, or the sample’s embeds', async () => {
      const library = await scrape(s, `/scrape/source?${q(matrix, { id: 'library' })}`, scrapeSourceEvents);
      expect(library.events.map((e) => e.event)).toEqual(['update', 'update', 'update', 'completed']);
      expect((library.events[3]!.data as { stream: unknown[] }).stream).toHaveLength(1);
      const sample = await scrape(s, `/scrape/source?${q(nowhere, { id: 'sample' })}`, scrapeSourceEvents);
      const signed = `${s.base}/api/sources/sample/${ACCESS}`;
      expect(sample.events.at(-1)).toEqual({
        event: 'completed',
        data: {
          embeds: [
            {
              embedId: 'sample-hls',
              url: expect.stringMatching(new RegExp(`^${signed}/hls/master\\.m3u8$`)),
            },
            { embedId: 'sample-file', url: expect.stringMatching(new RegExp(`^${signed}$`)) },
          ],
          stream: [],
        },
      });
    });

    it('reports a source that does not have the media as a NotFoundError event', async () => {
      const { events } = await scrape(
        s,
        `/scrape/source?${q(nowhere, { id: 'library' })}`,
        scrapeSourceEvents,
      );
      expect(events.at(-1)).toEqual({
        event: 'error',
        data: { name: 'NotFoundError', message: 'not in the media library', code: 'media_not_found' },
      });
    });

    it('runs one embed on a URL (its files under the same signed prefix); a URL it does not know is notfound', async () => {
      const sample = await sampleBase(s);
      const ok = await scrape(
        s,
        `/scrape/embed?id=sample-file&url=${encodeURIComponent(sample)}`,
        scrapeEmbedEvents,
      );
      expect(ok.events.at(-1)).toMatchObject({
        event: 'completed',
        data: {
          stream: [
            { type: 'file', isSample: true, qualities: { '720': { url: `${sample}/mp4/sample-720p.mp4` } } },
          ],
        },
      });
      for (const url of [
        'https://elsewhere.example/a.m3u8',
        `${s.base}/api/sources/sample`,
        `${s.base}/api/sources/sample/hls/master.m3u8`,
        // The sample folder with its signature changed.
        `${sample.slice(0, -22)}${sample.at(-22) === 'A' ? 'B' : 'A'}${sample.slice(-21)}/hls/master.m3u8`,
      ]) {
        const other = await scrape(
          s,
          `/scrape/embed?id=sample-hls&url=${encodeURIComponent(url)}`,
          scrapeEmbedEvents,
        );
        expect(other.events.at(-1), url).toMatchObject({ event: 'error', data: { name: 'NotFoundError' } });
      }
    });

    it('answers 404 source_not_found for an unknown source or embed id', async () => {
      for (const url of [`/scrape/source?${q(matrix, { id: 'nope' })}`, '/scrape/embed?id=nope&url=x']) {
        const response = await fetch(`${s.base}${url}`);
        expect(response.status).toBe(404);
        expect(((await response.json()) as { code: string }).code).toBe('source_not_found');
      }
    });
  });

  describe('media files', () => {
    let sample = '';
    beforeAll(async () => {
      sample = await sampleBase(s);
    });
    const sampleUrl = () => `${sample}/mp4/sample-480p.mp4`;
    const size = readFileSync(path.join(SAMPLES_DIR, 'mp4', 'sample-480p.mp4')).length;

    it('answers ranges with 206 and Content-Range, whole files with 200, HEAD without a body', async () => {
      const whole = await fetch(sampleUrl());
      expect(whole.status).toBe(200);
      expect(whole.headers.get('accept-ranges')).toBe('bytes');
      expect(Number(whole.headers.get('content-length'))).toBe(size);
      const tail = await fetch(sampleUrl(), { headers: { range: 'bytes=-100' } });
      expect(tail.status).toBe(206);
      expect(tail.headers.get('content-range')).toBe(`bytes ${size - 100}-${size - 1}/${size}`);
      expect((await tail.arrayBuffer()).byteLength).toBe(100);
      const open = await fetch(sampleUrl(), { headers: { range: `bytes=${size - 10}-` } });
      expect(open.headers.get('content-range')).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
      const head = await fetch(sampleUrl(), { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-type')).toBe('video/mp4');
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    });

    it('answers 416 with the size for a range outside the file', async () => {
      const response = await fetch(sampleUrl(), { headers: { range: `bytes=${size + 10}-${size + 20}` } });
      expect(response.status).toBe(416);
      expect(response.headers.get('content-range')).toBe(`bytes */${size}`);
      expect(ApiErrorBody.parse(await response.json()).code).toBe('range_not_satisfiable');
    });

    it('answers 304 to a conditional request', async () => {
      const etag = (await fetch(sampleUrl(), { method: 'HEAD' })).headers.get('etag')!;
      // Raw: fetch adds `cache-control: no-cache` to conditional requests, which rightly disables the 304.
      expect((await rawGet(s, new URL(sampleUrl()).pathname, { 'if-none-match': etag })).status).toBe(304);
    });

    it('answers 404 file_not_found for unknown ids, missing samples and files deleted from the library', async () => {
      const heat = completed(
        (await scrapeAll(s, { type: 'movie', title: 'Heat', releaseYear: 1995, tmdbId: '949' })).events,
      );
      const heatUrl = heat.stream.type === 'file' ? heat.stream.qualities['360']!.url : '';
      expect((await fetch(heatUrl, { method: 'HEAD' })).status).toBe(200);
      rmSync(doomed);
      // A well-signed URL for an id the library does not have.
      const key = await new InstanceSecretsRepository(s.database.db).getOrCreate(MEDIA_URL_SECRET_NAME, 0);
      const signer = new MediaUrlSigner(key, { ttlMs: 60_000, now: Date.now });
      const unknownId = 'AAAAAAAAAAAAAAAAAAAAAA';
      const unknownAccess = signer.sign(
        `library:${unknownId}`,
        signer.grant('', { type: 'movie', tmdbId: '1' }),
      );
      for (const url of [
        heatUrl,
        `${s.base}/api/sources/library/${unknownAccess}/${unknownId}/x.mp4`,
        `${sample}/mp4/nope.mp4`,
      ]) {
        const response = await fetch(url);
        expect(response.status).toBe(404);
        expect(ApiErrorBody.parse(await response.json()).code).toBe('file_not_found');
      }
    });

    it('never serves anything outside the sample folder or the library', async () => {
      const attempts = [
        '/api/sources/sample/../../../../package.json',
        '/api/sources/sample/..%2F..%2F..%2F..%2Fpackage.json',
        '/api/sources/sample/%2e%2e/%2e%2e/%2e%2e/%2e%2e/package.json',
        '/api/sources/sample/hls/..%5c..%5c..%5cpackage.json',
        '/api/sources/sample/%2Fetc%2Fpasswd',
        '/api/sources/sample//etc/passwd',
        '/api/sources/sample/hls/.%2e/.%2e/.%2e/.%2e/src/config.ts',
        '/api/sources/sample/mp4/sample-480p.mp4%00.txt',
        '/api/sources/library/..%2F..%2F..%2Fetc%2Fpasswd/passwd',
        '/api/sources/library/%2e%2e/passwd',
      ];
      // The same behind a valid token: the token opens the sample folder, nothing above it.
      const prefix = new URL(sample).pathname;
      attempts.push(
        `${prefix}/../../../../package.json`,
        `${prefix}/..%2F..%2F..%2F..%2Fpackage.json`,
        `${prefix}/%2e%2e/%2e%2e/%2e%2e/%2e%2e/package.json`,
        `${prefix}/hls/.%2e/.%2e/.%2e/.%2e/src/config.ts`,
        `${prefix}/%2Fetc%2Fpasswd`,
        `${prefix}//etc/passwd`,
      );
      for (const attempt of attempts) {
        // A raw request: fetch would normalise the dots away before sending.
        const { status, body } = await rawGet(s, attempt);
        expect(status, attempt).toBeGreaterThanOrEqual(400);
        expect(status, attempt).toBeLessThan(500);
        expect(body, attempt).not.toContain('"workspaces"');
        expect(body, attempt).not.toContain('root:');
        expect(body, attempt).not.toContain('EnvSchema');
      }
    });
  });

  it('documents the scrape endpoints in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${s.base}/api/openapi.json`)).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/scrape', '/scrape/source', '/scrape/embed', '/metadata']),
    );
  });
});

describe(`scrape API settings (${testDialect})`, () => {
  it('answers noOutput when no source has the media (sample switched off)', async () => {
    const s = await start({ DISABLED_SOURCES: 'sample', TAKEDOWN_FILE: path.join(tmp, 'no-such-file') });
    try {
      const [, sources] = sourcesEndpoints.providerMetadata.response.parse(
        await (await fetch(`${s.base}/metadata`)).json(),
      );
      expect(sources).toEqual([]);
      const { events } = await scrapeAll(s, nowhere);
      expect(events).toEqual([
        { event: 'init', data: { sourceIds: [] } },
        { event: 'noOutput', data: '' },
      ]);
    } finally {
      await s.close();
    }
  });

  it('with SCRAPE_REQUIRES_CAPTCHA: asks for ALTCHA, answers a JWT in the token event and X-Token header, accepts it after', async () => {
    const s = await start({
      SCRAPE_REQUIRES_CAPTCHA: 'true',
      CAPTCHA_PROVIDER: 'altcha',
      ALTCHA_MAX_NUMBER: '1000',
    });
    try {
      const none = await scrapeAll(s, nowhere);
      expect(none.response.status).toBe(401);
      expect(none.error).toMatchObject({ code: 'captcha_required' });

      const challenge = (await (await fetch(`${s.base}/auth/captcha/challenge`)).json()) as {
        algorithm: string;
        challenge: string;
        salt: string;
        signature: string;
        maxnumber: number;
      };
      const solution = await solveChallenge(
        challenge.challenge,
        challenge.salt,
        challenge.algorithm,
        challenge.maxnumber,
      ).promise;
      const payload = Buffer.from(JSON.stringify({ ...challenge, number: solution!.number })).toString(
        'base64',
      );

      const solved = await scrapeAll(s, nowhere, { token: `altcha|${payload}` });
      expect(solved.response.status).toBe(200);
      const jwt = solved.response.headers.get('x-token')!;
      expect(jwt.split('.')).toHaveLength(3);
      expect(solved.response.headers.get('access-control-expose-headers')).toBe('X-Token');
      expect(solved.events[0]).toEqual({ event: 'token', data: jwt });
      expect(completed(solved.events).sourceId).toBe('sample');

      const again = await scrapeAll(s, nowhere, {}, { headers: { 'x-token': `jwt|${jwt}` } });
      expect(again.response.status).toBe(200);
      expect(again.events[0]!.event).toBe('init');
      expect(again.response.headers.get('x-token')).toBeNull();

      const replay = await scrapeAll(s, nowhere, { token: `altcha|${payload}` });
      expect(replay.response.status).toBe(401);
      expect(replay.error).toMatchObject({ code: 'captcha_invalid' });
      for (const token of [`jwt|${jwt}x`, 'jwt|nope', `turnstile|${payload}`, 'garbage']) {
        expect((await scrapeAll(s, nowhere, { token })).response.status, token).toBe(401);
      }
      // The sample media needs no scrape token: its URL carries its own access token.
      const stream = completed(again.events).stream;
      expect((await fetch(stream.type === 'hls' ? stream.playlist : '')).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('refuses to start when scraping needs a captcha but the instance has none', () => {
    expect(() =>
      loadConfig({ ...baseEnv, SCRAPE_REQUIRES_CAPTCHA: 'true', CAPTCHA_PROVIDER: 'none' }),
    ).toThrow('SCRAPE_REQUIRES_CAPTCHA=true needs a CAPTCHA_PROVIDER other than none');
  });
});
