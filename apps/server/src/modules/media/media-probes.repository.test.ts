import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import type { MediaInfo } from './media-info.ts';
import {
  MediaProbesRepository,
  sameFile,
  storedInteger,
  type StoredProbe,
} from './media-probes.repository.ts';

const INFO: MediaInfo = {
  formatName: 'matroska,webm',
  duration: 7_234.5,
  bitRate: 8_000_000,
  video: {
    index: 0,
    codec: 'hevc',
    profile: 'Main 10',
    level: 150,
    pixelFormat: 'yuv420p10le',
    bitDepth: 10,
    width: 3840,
    height: 2160,
    frameRate: 23.976,
    dynamicRange: 'hdr10',
    bitRate: null,
  },
  audio: [
    {
      index: 1,
      codec: 'eac3',
      profile: null,
      channels: 6,
      channelLayout: '5.1(side)',
      sampleRate: 48_000,
      language: 'eng',
      title: 'Surround — «ünïcødé»',
      isDefault: true,
      bitRate: 640_000,
    },
  ],
  subtitles: [],
  chapters: [{ start: 0, end: 600.25, title: null }],
};

/** A real file's identity: a fractional mtime, and an inode of a 64-bit file system. */
const probe = (over: Partial<StoredProbe> = {}): StoredProbe => ({
  path: '/srv/media/Movies/Dune (2021)/Dune (2021).mkv',
  size: 12_345_678_901,
  mtimeMs: 1_732_862_400_123.456,
  ino: 2 ** 60 + 12_345,
  probedAt: 1_000,
  info: INFO,
  error: null,
  ...over,
});

describe(`MediaProbesRepository on ${testDialect}`, () => {
  let database: TestDatabase;
  let repository: MediaProbesRepository;

  beforeEach(async () => {
    database = await createTestDatabase();
    repository = new MediaProbesRepository(database.db);
  });
  afterEach(async () => {
    await database.destroy();
  });

  it('stores a probe and reads it back by real path, still describing the same file', async () => {
    await repository.put(probe());
    const stored = await repository.get(probe().path);
    expect(stored).toEqual({
      ...probe(),
      mtimeMs: 1_732_862_400_123,
      ino: storedInteger(2 ** 60 + 12_345),
    });
    expect(sameFile(stored!, probe())).toBe(true);
    expect(sameFile(stored!, { ...probe(), size: probe().size + 1 })).toBe(false);
    expect(sameFile(stored!, { ...probe(), mtimeMs: probe().mtimeMs + 1 })).toBe(false);
    expect(sameFile(stored!, { ...probe(), ino: 42 })).toBe(false);
    expect(await repository.get('/srv/media/other.mkv')).toBeUndefined();
  });

  it('keeps files that are not media with the reason, and replaces a probe when the file changed', async () => {
    const path = '/srv/media/notes S01E01.mkv';
    await repository.put(probe({ path, info: null, error: 'Invalid data found when processing input' }));
    expect(await repository.get(path)).toMatchObject({
      info: null,
      error: 'Invalid data found when processing input',
    });
    await repository.put(probe({ path, size: 10, probedAt: 2_000 }));
    expect(await repository.get(path)).toMatchObject({ size: 10, probedAt: 2_000, info: INFO, error: null });
    const rows = await database.db.selectFrom('media_probes').select('path').execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps paths apart exactly (case, Unicode forms, spaces)', async () => {
    const paths = ['/m/Amélie.mkv', '/m/Ame\u0301lie.mkv', '/m/amélie.mkv', '/m/Amélie .mkv'];
    for (const [i, path] of paths.entries()) await repository.put(probe({ path, size: i }));
    for (const [i, path] of paths.entries()) expect((await repository.get(path))?.size).toBe(i);
  });

  it('forgets the probes of files that are gone, in batches', async () => {
    const paths = Array.from({ length: 1_500 }, (_, i) => `/m/${i}.mkv`);
    await database.db
      .insertInto('media_probes')
      .values(
        paths.map((path) => ({ path, size: 1, mtime_ms: 1, ino: 1, probed_at: 1, info: null, error: 'x' })),
      )
      .execute();
    expect(await repository.delete([...paths.slice(0, 1_200), '/m/never.mkv'])).toBe(1_200);
    expect(await repository.get(paths[0]!)).toBeUndefined();
    expect(await repository.get(paths[1_499]!)).toBeDefined();
    expect(await repository.delete([])).toBe(0);
  });

  it('treats a row whose JSON cannot be read as absent (it is probed again)', async () => {
    await repository.put(probe());
    await database.db.updateTable('media_probes').set({ info: '{broken' }).execute();
    expect(await repository.get(probe().path)).toBeUndefined();
  });
});
