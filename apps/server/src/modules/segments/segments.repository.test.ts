import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { decodePoints, encodePoints } from './segment-tools.ts';
import { SegmentsRepository, type StoredDetection } from './segments.repository.ts';

const FILE = 'AAAAAAAAAAAAAAAAAAAAAA';

describe(`segments repository (${testDialect})`, () => {
  let db: TestDatabase;
  let repo: SegmentsRepository;
  const user = async (id: string) =>
    db.db
      .insertInto('users')
      .values({
        id,
        namespace: 'movie-web',
        public_key: null,
        email: null,
        password_hash: null,
        roles: '[]',
        profile: '{}',
        created_at: 1,
        last_logged_in: null,
        fullname: null,
      })
      .execute();

  beforeEach(async () => {
    db = await createTestDatabase();
    repo = new SegmentsRepository(db.db);
    await user('alice');
    await user('bob');
  });
  afterEach(async () => db.destroy());

  it('keeps one mark per file, type and viewer, answers only the file’s version, and forgets a viewer’s marks with them', async () => {
    await repo.putMark(FILE, '10-1', {
      type: 'intro',
      userId: 'alice',
      startMs: 1000,
      endMs: 21_000,
      updatedAt: 5,
    });
    await repo.putMark(FILE, '10-1', {
      type: 'intro',
      userId: 'alice',
      startMs: 2000,
      endMs: 22_000,
      updatedAt: 6,
    });
    await repo.putMark(FILE, '10-1', {
      type: 'credits',
      userId: 'bob',
      startMs: 60_000,
      endMs: 80_000,
      updatedAt: 7,
    });
    expect((await repo.marks(FILE, '10-1')).sort((a, b) => a.updatedAt - b.updatedAt)).toEqual([
      { type: 'intro', userId: 'alice', startMs: 2000, endMs: 22_000, updatedAt: 6 },
      { type: 'credits', userId: 'bob', startMs: 60_000, endMs: 80_000, updatedAt: 7 },
    ]);
    expect(await repo.marks(FILE, '11-1')).toEqual([]);
    expect(await repo.deleteMark(FILE, 'intro', 'alice')).toBe(true);
    expect(await repo.deleteMark(FILE, 'intro', 'alice')).toBe(false);
    await db.db.deleteFrom('users').where('id', '=', 'bob').execute();
    expect(await repo.marks(FILE, '10-1')).toEqual([]);
  });

  it('stores a detection per file, replaced by the next one', async () => {
    const detection: StoredDetection = {
      fileId: FILE,
      fileVersion: '10-1',
      groupKey: 'a'.repeat(40),
      state: 'done',
      intro: { startMs: 5000, endMs: 25_000 },
      credits: null,
      detail: null,
      detectedAt: 1_700_000_000_000,
    };
    await repo.saveDetection(detection);
    expect((await repo.detections([FILE, 'other'])).get(FILE)).toEqual(detection);
    const failed = {
      ...detection,
      state: 'failed' as const,
      intro: null,
      credits: { startMs: 1, endMs: 2 },
      detail: 'why',
    };
    await repo.saveDetection(failed);
    expect([...(await repo.detections([FILE])).values()]).toEqual([failed]);
  });

  it('keeps what was read from a version of a file, points exactly', async () => {
    const points = Uint32Array.from([0, 1, 0xffffffff, 0x80000000, 123_456_789]);
    await repo.saveAnalysis(
      FILE,
      'intro-print',
      { fileVersion: '10-1', offsetMs: 0, data: encodePoints(points) },
      1,
    );
    const kept = await repo.analysis(FILE, 'intro-print', '10-1');
    expect(decodePoints(kept!.data)).toEqual(points);
    expect(await repo.analysis(FILE, 'intro-print', '10-2')).toBeNull();
    expect(await repo.analysis(FILE, 'black', '10-1')).toBeNull();
    await repo.saveAnalysis(FILE, 'intro-print', { fileVersion: '10-2', offsetMs: 7, data: '' }, 2);
    expect(await repo.analysis(FILE, 'intro-print', '10-1')).toBeNull();
    expect(await repo.analysis(FILE, 'intro-print', '10-2')).toEqual({
      fileVersion: '10-2',
      offsetMs: 7,
      data: '',
    });
  });
});
