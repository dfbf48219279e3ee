import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { InProcessJobQueue } from '../jobs/in-process-queue.ts';
import type { LibraryShow, LibraryVideo } from '../sources/library-index.ts';
import type { MediaInfo } from '../media/media-info.ts';
import { groupOf, seasonGroups } from './detection-groups.ts';
import {
  combineCredits,
  headSeconds,
  SEGMENTS_JOB,
  SegmentDetector,
  tailSeconds,
} from './segment-detection.ts';
import { detectSegmentTools, type SegmentTools } from './segment-tools.ts';
import { SegmentsRepository } from './segments.repository.ts';

const info = (duration: number): MediaInfo => ({
  formatName: 'matroska,webm',
  duration,
  bitRate: null,
  video: null,
  audio: [
    {
      index: 1,
      codec: 'aac',
      profile: null,
      channels: 2,
      channelLayout: null,
      sampleRate: 48_000,
      language: 'eng',
      title: null,
      isDefault: true,
      bitRate: null,
    },
  ],
  subtitles: [],
  chapters: [],
});

const video = (id: string, file: string, size = 10, mtimeMs = 1_000): LibraryVideo => ({
  kind: 'video',
  id: id.padEnd(22, 'x'),
  path: file,
  name: path.basename(file),
  format: 'matroska',
  info: info(1_320),
  size,
  mtimeMs,
  quality: 'unknown',
  subtitles: [],
});

describe('what detection searches (decision 111)', () => {
  it('searches a quarter of the start (2 to 10 minutes) and 15 % of the end (1 to 10 minutes)', () => {
    expect(headSeconds(1_320)).toBe(330);
    expect(headSeconds(7_200)).toBe(600);
    expect(headSeconds(300)).toBe(120);
    expect(headSeconds(90)).toBe(45);
    expect(tailSeconds(2_700)).toBe(405);
    expect(tailSeconds(7_200)).toBe(600);
    expect(tailSeconds(90)).toBe(45);
  });

  it('takes the credits where the end song and the black agree, from the later start', () => {
    expect(combineCredits({ start: 60, end: 81 }, { start: 62, end: 84 }, 84)).toEqual({
      start: 62,
      end: 84,
      method: 'audio+black',
    });
    // Fingerprints miss the last seconds: a song ending that near the end runs to it.
    expect(combineCredits({ start: 60, end: 81.5 }, null, 84)).toEqual({
      start: 60,
      end: 84,
      method: 'audio',
    });
    expect(combineCredits(null, { start: 70, end: 80 }, 90)).toEqual({ start: 70, end: 80, method: 'black' });
    expect(combineCredits({ start: 10, end: 30 }, { start: 70, end: 80 }, 90)).toMatchObject({
      method: 'audio',
    });
    expect(combineCredits(null, null, 90)).toBeNull();
  });

  it('groups a show’s episodes by season, in order, each file once, without those of unknown runtime', () => {
    const show = (episodes: [string, LibraryVideo[]][]): LibraryShow => ({
      title: 'Show',
      year: null,
      tmdbId: null,
      imdbId: null,
      key: 'show',
      episodes: new Map(episodes),
    });
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => video(id, `/lib/${id}.mkv`));
    const unprobed = { ...video('e', '/lib/e.mkv'), info: null };
    const groups = seasonGroups({
      shows: [
        show([
          ['1:2', [b!]],
          ['1:1', [a!]],
          ['2:1', [c!]],
          ['2:2', [c!]],
          ['1:3', [unprobed, d!]],
        ]),
      ],
    });
    expect(groups.map((g) => g.files.map((f) => f.fileId[0]))).toEqual([['a', 'b', 'd'], ['c']]);
    // A new episode, or another version of one, is another group.
    expect(groupOf([groups[0]!.files[0]!]).key).not.toBe(groups[0]!.key);
    const replaced = seasonGroups({
      shows: [
        show([
          ['1:1', [{ ...a!, size: 11 }]],
          ['1:2', [b!]],
          ['1:3', [d!]],
        ]),
      ],
    });
    expect(replaced[0]!.key).not.toBe(groups[0]!.key);
  });
});

describe(`segment detection jobs (${testDialect})`, () => {
  let db: TestDatabase;
  let dir: string;
  let jobs: InProcessJobQueue;
  let repository: SegmentsRepository;
  let tools: SegmentTools | null;
  const logged: string[] = [];
  const detector = (found: SegmentTools | null = tools) =>
    new SegmentDetector({
      jobs,
      repository,
      tools: async () => found,
      now: () => Date.now(),
      retry: { attempts: 1 },
      log: (_level, message) => logged.push(message),
    });

  beforeEach(async () => {
    db = await createTestDatabase();
    dir = await mkdtemp(path.join(tmpdir(), 'marquee-segment-detection-'));
    jobs = new InProcessJobQueue();
    repository = new SegmentsRepository(db.db);
    tools = await detectSegmentTools(process.env.FFMPEG_PATH || 'ffmpeg', 'fpcalc');
    logged.length = 0;
  });
  afterEach(async () => {
    await jobs.close();
    await db.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  const done = async () => {
    const kind = async () => (await jobs.status()).kinds.find((k) => k.kind === SEGMENTS_JOB)!;
    await expect.poll(async () => (await kind()).queued + (await kind()).running).toBe(0);
    return kind();
  };

  it('notes a file it cannot read as failed, logs why, and goes on (the job itself succeeds)', async () => {
    expect(tools).not.toBeNull();
    const files = await Promise.all(
      ['one', 'two'].map(async (name) => {
        const file = path.join(dir, `${name}.mkv`);
        await writeFile(file, 'not a video at all');
        await utimes(file, 1, 1);
        return video(name, file, 18, 1_000);
      }),
    );
    const d = detector();
    await jobs.start();
    expect(
      await d.scheduleSeasons({
        shows: [
          {
            title: 'S',
            year: null,
            tmdbId: null,
            imdbId: null,
            key: 's',
            episodes: new Map([
              ['1:1', [files[0]!]],
              ['1:2', [files[1]!]],
            ]),
          },
        ],
      }),
    ).toBe(1);
    expect(await done()).toMatchObject({ done: 1, failed: 0 });
    const rows = await repository.detections(files.map((f) => f.id));
    for (const f of files) {
      expect(rows.get(f.id)).toMatchObject({ state: 'failed', intro: null, credits: null });
      expect(rows.get(f.id)!.detail).toMatch(/opening audio: .*closing audio: .*closing picture: /s);
      expect((await d.detectionOf(f)).state).toBe('failed');
    }
    expect(logged.filter((m) => m.startsWith('segments: could not read'))).toHaveLength(6);
    // Detected as the season is: the next scan queues nothing.
    expect(
      await d.scheduleSeasons({
        shows: [
          {
            title: 'S',
            year: null,
            tmdbId: null,
            imdbId: null,
            key: 's',
            episodes: new Map([
              ['1:1', [files[0]!]],
              ['1:2', [files[1]!]],
            ]),
          },
        ],
      }),
    ).toBe(0);
  });

  it('skips a file that changed after its job was queued (its season is queued again as it is)', async () => {
    const file = path.join(dir, 'changed.mkv');
    await writeFile(file, 'x');
    const d = detector();
    const queued = video('changed', file, 999, 1_000);
    expect((await d.detectionOf(queued)).state).toBe('pending');
    await jobs.start();
    expect(await done()).toMatchObject({ done: 1, failed: 0 });
    expect((await repository.detections([queued.id])).size).toBe(0);
  });

  it('is off without its programs: nothing queued, `off` answered', async () => {
    const d = detector(null);
    const v = video('off', path.join(dir, 'off.mkv'));
    expect(await d.scheduleSeasons({ shows: [] })).toBe(0);
    expect(await d.detectionOf(v)).toEqual({ state: 'off', found: null });
    expect(await detectSegmentTools('ffmpeg', path.join(dir, 'no-fpcalc'))).toBeNull();
    expect((await jobs.status()).kinds[0]).toMatchObject({ queued: 0, running: 0, done: 0 });
  });
});
