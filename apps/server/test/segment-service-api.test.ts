import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  libraryMediaOf,
  librarySegmentsPath,
  scrapeQuery,
  type ScrapeMediaParams,
  type Segment,
  type SegmentsResponse,
} from '@marquee/contract';
import {
  SEGMENT_SERVICE_TIMEOUT_MS,
  SEGMENT_SERVICE_TTL_MS,
} from '../src/modules/segments/segment-service.ts';
import { startFakeSegmentService, type FakeSegmentService } from './fake-segment-service.ts';
import { makeSegmentsShow, type SegmentsShow } from './segments-fixture.ts';
import { register, startSyncApp, type SignedIn, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

// Decision 111: the operator's online segment service (TheIntroDB's API), the least trusted source of a
// library video's segments — used for a type only when chapters, detection and viewers' marks have none,
// asked once per title and runtime for every viewer, and never holding or failing the answer. The
// service is a local fake over real HTTP; detection is off here (no fpcalc), so the other sources are
// the file's chapters (the fixture's third episode has some) and viewers' marks.

const KEY = 'tidb-test-key-5f0c1d';

let tmp: string;
let library: string;
let show: SegmentsShow;
let fake: FakeSegmentService;
let t: SyncTestApp;
/** Everything the app logged (pino's JSON lines, debug and up). */
const logLines: string[] = [];

const breakingBad = (episode: number): ScrapeMediaParams => ({
  type: 'show',
  title: 'Breaking Bad',
  releaseYear: 2008,
  tmdbId: '1396',
  season: { number: 1, tmdbId: '3572' },
  episode: { number: episode, tmdbId: '62085' },
});
const theMatrix: ScrapeMediaParams = { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };

/** The access token and file id of a title's library file, as a player gets them from the scrape API. */
async function mediaOf(media: ScrapeMediaParams, app = t) {
  const query = scrapeQuery(media, { id: 'library', codecs: ['h264', 'aac', 'mkv', 'mp4'] });
  const res = await app.server.inject({ method: 'GET', url: `/scrape/source?${new URLSearchParams(query)}` });
  expect(res.statusCode, res.body).toBe(200);
  const found = libraryMediaOf(/event: completed\ndata: (.*)/.exec(res.body)?.[1] ?? '');
  expect(found, res.body).not.toBeNull();
  return found!;
}

const segmentsOf = async (
  m: { access: string; fileId: string },
  headers: Record<string, string> = {},
  app = t,
) => {
  const res = await app.server.inject({
    method: 'GET',
    url: librarySegmentsPath(m.access, m.fileId),
    headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SegmentsResponse;
};

const sourcesOf = (answer: SegmentsResponse) =>
  answer.segments.map((s) => [s.type, s.source] as [Segment['type'], Segment['source']]);
/** The app's warnings about the segment service. */
const serviceWarnings = () =>
  logLines
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((entry) => entry.level === 40 && /segment service/.test(entry.msg));
/** Answers kept from the service (the metadata cache's table) are forgotten: the next viewer asks again. */
const forgetAnswers = () => t.db.db.deleteFrom('metadata_cache').execute();

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'marquee-segment-service-'));
  library = path.join(tmp, 'library');
  show = await makeSegmentsShow(path.join(tmpdir(), 'marquee-segments-show'));
  const season = path.join(library, 'Breaking Bad (2008) [tmdbid-1396]', 'Season 01');
  await mkdir(season, { recursive: true });
  for (const e of show.episodes.slice(0, 3)) await copyFile(e.path, path.join(season, path.basename(e.path)));
  const movies = path.join(library, 'Movies', 'The Matrix (1999) [tmdbid-603]');
  await mkdir(movies, { recursive: true });
  await copyFile(show.episodes[3]!.path, path.join(movies, 'The Matrix (1999).mkv'));
  fake = await startFakeSegmentService({ keys: [KEY] });
  t = await startSyncApp({
    env: {
      MEDIA_LIBRARY_DIR: library,
      LIBRARY_WATCH: 'false',
      DATA_DIR: path.join(tmp, 'data'),
      FPCALC_PATH: path.join(tmp, 'no-fpcalc'),
      SEGMENTS_SERVICE_URL: fake.url,
      SEGMENTS_SERVICE_KEY: KEY,
    },
    deps: {
      accounts: { rateLimits: false },
      logger: { level: 'debug', stream: { write: (line: string) => logLines.push(line) } },
    },
  });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe(`the online segment service (${testDialect})`, () => {
  let e1: { access: string; fileId: string };
  let e2: { access: string; fileId: string };
  let e3: { access: string; fileId: string };
  let matrix: { access: string; fileId: string };
  let alice: SignedIn;

  beforeAll(async () => {
    e1 = await mediaOf(breakingBad(1));
    e2 = await mediaOf(breakingBad(2));
    e3 = await mediaOf(breakingBad(3));
    matrix = await mediaOf(theMatrix);
    alice = await register(t.server);
    fake.episode(1396, 1, 1, {
      // Past this release's end, then the intro from the start: the first that fits is used.
      intro: [
        { start_ms: 90_000, end_ms: 110_000 },
        { start_ms: null, end_ms: 20_000 },
      ],
      credits: [{ start_ms: 66_000, end_ms: null }],
      recap: [{ start_ms: 30_000, end_ms: 20_000 }],
    });
    fake.episode(1396, 1, 3, {
      intro: [{ start_ms: 10_000, end_ms: 40_000 }],
      credits: [{ start_ms: 60_000, end_ms: null }],
      recap: [{ start_ms: 1_000, end_ms: 9_000 }],
    });
    fake.movie(603, { credits: [{ start_ms: 70_000, end_ms: 80_000 }], preview: [] });
  }, 60_000);

  beforeEach(async () => {
    fake.behaviour = 'answer';
    await forgetAnswers();
  });

  it('answers its segments where no other source has them, asking by TMDB id, episode and runtime with the key', async () => {
    fake.requests.length = 0;
    const answer = await segmentsOf(e1);
    // `end_ms: null` is the end of this file.
    expect(answer.duration).toBeCloseTo(show.episodes[0]!.duration, 0);
    expect(answer.segments).toEqual([
      { type: 'intro', start: 0, end: 20, source: 'service' },
      { type: 'credits', start: 66, end: expect.closeTo(answer.duration!, 3), source: 'service' },
    ]);
    expect(answer.detection).toBe('off');
    expect(fake.requests).toEqual([
      {
        method: 'GET',
        path: '/v3/media',
        query: {
          tmdb_id: '1396',
          season: '1',
          episode: '1',
          duration_ms: String(Math.round(answer.duration! * 1000)),
        },
        authorization: `Bearer ${KEY}`,
      },
    ]);
    // A film is asked about by its id alone.
    const film = await segmentsOf(matrix);
    expect(film.segments).toEqual([{ type: 'credits', start: 70, end: 80, source: 'service' }]);
    expect(fake.requests[1]!.query).toEqual({
      tmdb_id: '603',
      duration_ms: String(Math.round(film.duration! * 1000)),
    });
  });

  it('gives way, type by type, to the file’s chapters and to viewers’ marks', async () => {
    const [, intro, , credits] = show.episodes[2]!.chapters;
    const answer = await segmentsOf(e3);
    expect(answer.segments).toEqual([
      { type: 'intro', start: intro!.start, end: intro!.end, source: 'chapters' },
      { type: 'recap', start: 1, end: 9, source: 'service' },
      { type: 'credits', start: credits!.start, end: credits!.end, source: 'chapters' },
    ]);
    const url = `${librarySegmentsPath(e3.access, e3.fileId)}/recap`;
    const marked = await t.server.inject({
      method: 'PUT',
      url,
      headers: alice.headers,
      payload: { start: 2, end: 12 },
    });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(sourcesOf(marked.json() as SegmentsResponse)).toEqual([
      ['intro', 'chapters'],
      ['recap', 'viewers'],
      ['credits', 'chapters'],
    ]);
    const takenBack = await t.server.inject({ method: 'DELETE', url, headers: alice.headers });
    expect(takenBack.statusCode, takenBack.body).toBe(200);
    expect(sourcesOf(takenBack.json() as SegmentsResponse)).toContainEqual(['recap', 'service']);
  });

  it('asks once for every viewer of an episode, in every process of the instance', async () => {
    fake.requests.length = 0;
    const first = await segmentsOf(e1);
    const bob = await register(t.server);
    expect(await segmentsOf(e1, bob.headers)).toEqual(first);
    expect(await segmentsOf(e1, alice.headers)).toEqual(first);
    // An episode the service does not know is not asked about again either.
    expect((await segmentsOf(e2)).segments).toEqual([]);
    expect((await segmentsOf(e2, bob.headers)).segments).toEqual([]);
    expect(fake.requests.map((r) => r.query.episode)).toEqual(['1', '2']);
    // Another process on the same database reads what this one kept.
    const other = await startSyncApp({
      db: t.db,
      env: {
        MEDIA_LIBRARY_DIR: library,
        LIBRARY_WATCH: 'false',
        DATA_DIR: path.join(tmp, 'other-data'),
        FPCALC_PATH: path.join(tmp, 'no-fpcalc'),
        SEGMENTS_SERVICE_URL: fake.url,
        SEGMENTS_SERVICE_KEY: KEY,
      },
      deps: { accounts: { rateLimits: false } },
    });
    try {
      const there = await mediaOf(breakingBad(1), other);
      expect((await segmentsOf(there, {}, other)).segments).toEqual(first.segments);
      expect(fake.requests).toHaveLength(2);
    } finally {
      await other.close();
    }
  });

  it('answers within its time limit without the service’s segments when the service is slow', async () => {
    fake.behaviour = 'slow';
    fake.requests.length = 0;
    const started = performance.now();
    const answer = await segmentsOf(e3);
    const took = performance.now() - started;
    expect(took).toBeLessThan(SEGMENT_SERVICE_TIMEOUT_MS + 2_000);
    expect(fake.requests).toHaveLength(1);
    expect(sourcesOf(answer)).toEqual([
      ['intro', 'chapters'],
      ['credits', 'chapters'],
    ]);
    expect(answer.detection).toBe('off');
    fake.release();
    // The failure is kept for a while: the next viewers are not held up too.
    fake.behaviour = 'answer';
    await segmentsOf(e3);
    expect(fake.requests).toHaveLength(1);
    t.clock.advance(SEGMENT_SERVICE_TTL_MS.failed + 1_000);
    expect(sourcesOf(await segmentsOf(e3))).toContainEqual(['recap', 'service']);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives nothing for errors and garbage, warns once, and never logs the key', async () => {
    const warnedBefore = serviceWarnings().length;
    for (const behaviour of ['error', 'garbage', 'wrong-shape'] as const) {
      fake.behaviour = behaviour;
      await forgetAnswers();
      const answer = await segmentsOf(e1);
      expect(answer.segments, behaviour).toEqual([]);
      expect(answer.detection).toBe('off');
    }
    // One warning per kind of trouble until the service answers well again.
    expect(serviceWarnings().length - warnedBefore).toBe(2);
    fake.behaviour = 'garbage';
    await forgetAnswers();
    await segmentsOf(e1);
    expect(serviceWarnings().length - warnedBefore).toBe(2);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(KEY);
  });
});

describe(`without a segment service (${testDialect})`, () => {
  it('asks nothing of anyone', async () => {
    const plain = await startSyncApp({
      env: {
        MEDIA_LIBRARY_DIR: library,
        LIBRARY_WATCH: 'false',
        DATA_DIR: path.join(tmp, 'plain-data'),
        FPCALC_PATH: path.join(tmp, 'no-fpcalc'),
      },
      deps: { accounts: { rateLimits: false } },
    });
    try {
      const asked = fake.requests.length;
      expect((await segmentsOf(await mediaOf(breakingBad(1), plain), {}, plain)).segments).toEqual([]);
      expect((await segmentsOf(await mediaOf(theMatrix, plain), {}, plain)).segments).toEqual([]);
      expect(fake.requests).toHaveLength(asked);
      const cached = await plain.db.db.selectFrom('metadata_cache').select('key').execute();
      expect(cached.filter((row) => row.key.startsWith('segment-service:'))).toEqual([]);
    } finally {
      await plain.close();
    }
  });
});
