import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { MetadataCacheRepository } from './metadata-cache.repository.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z');

describe(`MetadataCacheRepository on ${testDialect}`, () => {
  let database: TestDatabase;
  let cache: MetadataCacheRepository;

  beforeEach(async () => {
    database = await createTestDatabase();
    cache = new MetadataCacheRepository(database.db);
  });
  afterEach(async () => {
    await database.destroy();
  });

  it('returns what was stored until it expires', async () => {
    await cache.set('details:movie:603', '{"title":"The Matrix"}', NOW + 1000);
    expect(await cache.get('details:movie:603', NOW)).toBe('{"title":"The Matrix"}');
    expect(await cache.get('details:movie:603', NOW + 999)).toBe('{"title":"The Matrix"}');
    expect(await cache.get('details:movie:603', NOW + 1000)).toBeUndefined();
    expect(await cache.get('details:movie:603', NOW + 5000)).toBeUndefined();
  });

  it('returns nothing for a key never stored', async () => {
    expect(await cache.get('details:movie:1', NOW)).toBeUndefined();
  });

  it('overwrites value and expiry of an existing key', async () => {
    await cache.set('k', 'old', NOW + 10);
    await cache.set('k', 'new', NOW + 10_000);
    expect(await cache.get('k', NOW + 100)).toBe('new');
    const rows = await database.db.selectFrom('metadata_cache').selectAll().execute();
    expect(rows).toEqual([{ key: 'k', value: 'new', expires_at: NOW + 10_000 }]);
  });

  it('revives an expired key when it is set again', async () => {
    await cache.set('k', 'v1', NOW - 1);
    expect(await cache.get('k', NOW)).toBeUndefined();
    await cache.set('k', 'v2', NOW + 60_000);
    expect(await cache.get('k', NOW)).toBe('v2');
  });

  it('keeps keys apart, including ones that differ only in case', async () => {
    await cache.set('search:Alien', 'A', NOW + 1000);
    await cache.set('search:alien', 'a', NOW + 1000);
    expect(await cache.get('search:Alien', NOW)).toBe('A');
    expect(await cache.get('search:alien', NOW)).toBe('a');
  });

  it('stores large values and any text unchanged', async () => {
    const value = JSON.stringify({
      title: 'Amélie — 千と千尋の神隠し 🎬',
      quote: 'it\'s "quoted"\n',
      list: 'x'.repeat(200_000),
    });
    await cache.set('big', value, NOW + 1000);
    expect(await cache.get('big', NOW)).toBe(value);
  });

  it('keeps expiry times beyond 32 bits (epoch milliseconds) as numbers', async () => {
    const far = Date.parse('2100-01-01T00:00:00Z');
    await cache.set('far', 'v', far);
    const row = await database.db
      .selectFrom('metadata_cache')
      .select('expires_at')
      .where('key', '=', 'far')
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(far);
    expect(typeof row.expires_at).toBe('number');
  });

  it('keeps an expired answer for a while, as stale, then forgets it', async () => {
    const repo = new MetadataCacheRepository(database.db, 60_000);
    await repo.set('details:movie:603:en', 'v', NOW + 1000);
    expect(await repo.lookup('details:movie:603:en', NOW)).toEqual({ value: 'v', fresh: true });
    expect(await repo.lookup('details:movie:603:en', NOW + 1000)).toEqual({ value: 'v', fresh: false });
    expect(await repo.lookup('details:movie:603:en', NOW + 60_999)).toEqual({ value: 'v', fresh: false });
    expect(await repo.lookup('details:movie:603:en', NOW + 61_000)).toBeUndefined();
    expect(await repo.lookup('never-stored', NOW)).toBeUndefined();
    // get() stays fresh-only.
    expect(await repo.get('details:movie:603:en', NOW + 1000)).toBeUndefined();
  });

  it('keeps stale answers a week by default', async () => {
    await cache.set('k', 'v', NOW);
    expect(cache.keepStaleMs).toBe(7 * 24 * 3_600_000);
    expect(await cache.lookup('k', NOW + 6 * 24 * 3_600_000)).toEqual({ value: 'v', fresh: false });
    expect(await cache.lookup('k', NOW + 7 * 24 * 3_600_000)).toBeUndefined();
  });

  it('deletes only rows too old to serve even stale, and says how many', async () => {
    const repo = new MetadataCacheRepository(database.db, 60_000);
    await repo.set('gone-1', 'v', NOW - 60_010);
    await repo.set('gone-2', 'v', NOW - 60_000);
    await repo.set('stale', 'v', NOW - 59_999);
    await repo.set('fresh', 'v', NOW + 1);
    expect(await repo.deleteExpired(NOW)).toBe(2);
    expect(await repo.deleteExpired(NOW)).toBe(0);
    const keys = (await database.db.selectFrom('metadata_cache').select('key').orderBy('key').execute()).map(
      (r) => r.key,
    );
    expect(keys).toEqual(['fresh', 'stale']);
    expect(await repo.lookup('stale', NOW)).toEqual({ value: 'v', fresh: false });
  });

  it('survives concurrent writes of one key (last one wins, no duplicate-key error)', async () => {
    await Promise.all(Array.from({ length: 20 }, (_, i) => cache.set('hot', `v${i}`, NOW + 1000 + i)));
    const rows = await database.db
      .selectFrom('metadata_cache')
      .selectAll()
      .where('key', '=', 'hot')
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.value).toMatch(/^v\d+$/);
  });
});
