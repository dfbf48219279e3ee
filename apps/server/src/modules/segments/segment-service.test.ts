import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Segment } from '@marquee/contract';
import { startFakeSegmentService, type FakeSegmentService } from '../../../test/fake-segment-service.ts';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { MetadataCacheRepository } from '../metadata/metadata-cache.repository.ts';
import type { LibraryVideo } from '../sources/library-index.ts';
import {
  SEGMENT_SERVICE_TTL_MS,
  SegmentServiceClient,
  episodeOf,
  serviceSegments,
  type ServiceAnswer,
} from './segment-service.ts';
import { bestSegments } from './segments.service.ts';

// Decision 111: the operator's online segment service (TheIntroDB's API), the least trusted source.

const movieAnswer = (segments: Partial<ServiceAnswer>): ServiceAnswer => ({
  tmdb_id: 603,
  type: 'movie',
  ...segments,
});

describe('the segment service’s answer as segments', () => {
  it('reads null as the start or the end, and takes the first entry of a type that fits', () => {
    const answer = movieAnswer({
      intro: [
        { start_ms: 40_000, end_ms: 20_000 }, // reversed
        { start_ms: 5_000, end_ms: 6_000 }, // 1 s: a slip, not an intro
        { start_ms: null, end_ms: 62_500 },
        { start_ms: 10_000, end_ms: 70_000 },
      ],
      credits: [{ start_ms: 7_000_000, end_ms: null }],
      recap: [],
      preview: null,
    });
    expect(serviceSegments(answer, 7_200)).toEqual([
      { type: 'intro', start: 0, end: 62.5, source: 'service' },
      { type: 'credits', start: 7_000, end: 7_200, source: 'service' },
    ]);
  });

  it('cuts what runs past the runtime, and drops what is empty, outside it or implausibly long', () => {
    const answer = movieAnswer({
      intro: [{ start_ms: 0, end_ms: 301_000 }], // an intro of more than 5 minutes
      recap: [{ start_ms: 1_000, end_ms: 1_000 }],
      credits: [{ start_ms: 1_250_000, end_ms: 1_330_000 }], // ends 10 s after this release does
      preview: [{ start_ms: 1_400_000, end_ms: 1_420_000 }], // starts after the end
    });
    expect(serviceSegments(answer, 1_320)).toEqual([
      { type: 'credits', start: 1_250, end: 1_320, source: 'service' },
    ]);
  });

  it('without a runtime, keeps what ends where the service says and drops what runs “to the end”', () => {
    const answer = movieAnswer({
      intro: [{ start_ms: null, end_ms: 30_000 }],
      credits: [{ start_ms: 1_250_000, end_ms: null }],
    });
    expect(serviceSegments(answer, null)).toEqual([{ type: 'intro', start: 0, end: 30, source: 'service' }]);
  });

  it('is used for a type only when no more trusted source has it', () => {
    const of = (source: Segment['source'], type: Segment['type'], start: number): Segment => ({
      type,
      start,
      end: start + 30,
      source,
    });
    const chosen = bestSegments(
      1_320,
      [of('chapters', 'intro', 1)],
      [of('detected', 'intro', 2), of('detected', 'credits', 1_200)],
      [of('viewers', 'credits', 1_210), of('viewers', 'recap', 3)],
      [
        of('service', 'intro', 4),
        of('service', 'recap', 4),
        of('service', 'credits', 1_220),
        of('service', 'preview', 1_280),
      ],
    );
    expect(chosen.map((s) => [s.type, s.source, s.start])).toEqual([
      ['intro', 'chapters', 1],
      ['recap', 'viewers', 3],
      ['credits', 'detected', 1_200],
      ['preview', 'service', 1_280],
    ]);
  });
});

describe('the episode a library file is', () => {
  const video = (id: string) => ({ id }) as LibraryVideo;
  it('is the one its show files it under, the first of a multi-episode file', () => {
    const [a, b, double] = [video('a'), video('b'), video('ab')];
    const index = {
      shows: [
        {
          title: 'Show',
          year: 2008,
          tmdbId: '1396',
          imdbId: null,
          key: 'show',
          episodes: new Map([
            ['2:3', [double]],
            ['1:1', [a]],
            ['2:2', [b, double]],
          ]),
        },
      ],
    };
    expect(episodeOf(index, 'a')).toEqual({ season: 1, episode: 1 });
    expect(episodeOf(index, 'ab')).toEqual({ season: 2, episode: 2 });
    expect(episodeOf(index, 'film')).toBeNull();
  });
});

describe(`the segment service client (${testDialect})`, () => {
  const KEY = 'unit-test-key';
  let fake: FakeSegmentService;
  let db: TestDatabase;
  let now: number;
  let logs: { level: string; message: string; details: object }[];
  const client = (o: { apiKey?: string; timeoutMs?: number } = {}) =>
    new SegmentServiceClient({
      baseUrl: `${fake.url}/`,
      apiKey: o.apiKey ?? KEY,
      cache: new MetadataCacheRepository(db.db),
      now: () => now,
      log: (level, message, details) => logs.push({ level, message, details }),
      timeoutMs: o.timeoutMs ?? 2_000,
    });
  const matrix = { type: 'movie', tmdbId: '603' } as const;
  const episode = { type: 'tv', tmdbId: '1396', season: 1, episode: 2 } as const;
  const warnings = () => logs.filter((l) => l.level === 'warn');

  beforeAll(async () => {
    fake = await startFakeSegmentService({ keys: [KEY] });
    fake.movie(603, { intro: [{ start_ms: null, end_ms: 90_000 }] });
    fake.episode(1396, 1, 2, {
      recap: [{ start_ms: 0, end_ms: 45_000 }],
      credits: [{ start_ms: 1_300_000, end_ms: null }],
    });
  });
  afterAll(async () => fake.close());
  beforeEach(async () => {
    db = await createTestDatabase();
    now = Date.UTC(2026, 5, 1);
    logs = [];
    fake.requests.length = 0;
    fake.behaviour = 'answer';
  });
  afterEach(async () => db.destroy());

  it('asks for a film or an episode by TMDB id and runtime, with the key as a bearer token', async () => {
    const c = client();
    expect(await c.segments(matrix, 8_160)).toEqual([
      { type: 'intro', start: 0, end: 90, source: 'service' },
    ]);
    expect(await c.segments(episode, 1_400.25)).toEqual([
      { type: 'recap', start: 0, end: 45, source: 'service' },
      { type: 'credits', start: 1_300, end: 1_400.25, source: 'service' },
    ]);
    expect(fake.requests).toEqual([
      {
        method: 'GET',
        path: '/v3/media',
        query: { tmdb_id: '603', duration_ms: '8160000' },
        authorization: `Bearer ${KEY}`,
      },
      {
        method: 'GET',
        path: '/v3/media',
        query: { tmdb_id: '1396', season: '1', episode: '2', duration_ms: '1400250' },
        authorization: `Bearer ${KEY}`,
      },
    ]);
    // Without a key nothing is sent for one; without a runtime none is asked about.
    expect(await client({ apiKey: '' }).segments(matrix, null)).toHaveLength(1);
    expect(fake.requests.at(-1)).toMatchObject({ query: { tmdb_id: '603' }, authorization: null });
  });

  it('keeps answers found for a day, nothing found for 6 hours, a failure for 10 minutes', async () => {
    const c = client();
    const asked = () => fake.requests.length;
    await c.segments(matrix, 8_160);
    await c.segments({ type: 'movie', tmdbId: '404' }, 5_000);
    fake.behaviour = 'error';
    expect(await c.segments(episode, 1_400)).toEqual([]);
    expect(asked()).toBe(3);
    // Another process of the instance reads the same cache: it asks nothing either.
    const other = client();
    fake.behaviour = 'answer';
    now += SEGMENT_SERVICE_TTL_MS.failed - 1;
    expect(await other.segments(matrix, 8_160)).toHaveLength(1);
    expect(await other.segments({ type: 'movie', tmdbId: '404' }, 5_000)).toEqual([]);
    expect(await other.segments(episode, 1_400)).toEqual([]);
    expect(asked()).toBe(3);
    now += 2;
    expect(await other.segments(episode, 1_400)).toHaveLength(2);
    expect(asked()).toBe(4);
    now += SEGMENT_SERVICE_TTL_MS.none;
    await other.segments({ type: 'movie', tmdbId: '404' }, 5_000);
    await other.segments(matrix, 8_160);
    expect(asked()).toBe(5);
    now += SEGMENT_SERVICE_TTL_MS.found;
    await other.segments(matrix, 8_160);
    expect(asked()).toBe(6);
    // Another release (runtime) of the title is another question.
    await other.segments(matrix, 8_000);
    expect(asked()).toBe(7);
  });

  it('asks once for viewers who come at the same time', async () => {
    const c = client();
    fake.behaviour = 'slow';
    const answers = Promise.all([
      c.segments(matrix, 8_160),
      c.segments(matrix, 8_160),
      c.segments(matrix, 8_160),
    ]);
    await expect.poll(() => fake.held()).toBe(1);
    fake.release();
    expect((await answers).map((a) => a.length)).toEqual([1, 1, 1]);
    expect(fake.requests).toHaveLength(1);
  });

  it('gives nothing within its time limit when the service is slow, and warns once', async () => {
    const c = client({ timeoutMs: 300 });
    fake.behaviour = 'slow';
    const started = performance.now();
    expect(await c.segments(matrix, 8_160)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(await c.segments(episode, 1_400)).toEqual([]);
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]!.message).toMatch(/did not answer in time/);
    fake.release();
  });

  it.each(['garbage', 'wrong-shape', 'error'] as const)(
    'gives nothing for an answer that is not one (%s), warning once until it answers well again',
    async (behaviour) => {
      const c = client();
      fake.behaviour = behaviour;
      expect(await c.segments(matrix, 8_160)).toEqual([]);
      expect(await c.segments(episode, 1_400)).toEqual([]);
      expect(warnings()).toHaveLength(1);
      expect(logs).toHaveLength(2);
      fake.behaviour = 'answer';
      expect(await c.segments({ type: 'movie', tmdbId: '27205' }, 1_000)).toEqual([]);
      fake.behaviour = behaviour;
      await c.segments({ type: 'movie', tmdbId: '78' }, 1_000);
      expect(warnings()).toHaveLength(2);
      expect(JSON.stringify(logs)).not.toContain(KEY);
    },
  );

  it('ignores an answer about another title, and a key the service refuses', async () => {
    fake.behaviour = 'another-title';
    expect(await client().segments(matrix, 8_160)).toEqual([]);
    expect(warnings().map((w) => w.details)).toEqual([
      expect.objectContaining({ problem: 'about another title' }),
    ]);
    fake.behaviour = 'answer';
    expect(await client({ apiKey: 'not-issued' }).segments(episode, 1_400)).toEqual([]);
    expect(fake.requests.at(-1)!.authorization).toBe('Bearer not-issued');
    expect(warnings().at(-1)).toMatchObject({
      message: expect.stringMatching(/refused/),
      details: { status: 401 },
    });
  });
});
