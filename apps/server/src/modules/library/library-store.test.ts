import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LibraryReadQuery } from '@marquee/contract';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { answerLibraryRead, encodeCursor, libraryEtag } from './library-reads.ts';
import { LibraryStore, type LibraryChange } from './library-store.ts';
import { LibraryVersions } from './library-versions.ts';
import { LIBRARY_BATCH_ROWS, type LibraryRef } from './library.ts';

/** A kind of library kept in memory: the store's own rules are what is under test, on a real database. */
interface Row {
  id: string;
  updated_at: number;
  seq: number;
}
interface Gone {
  id: string;
  seq: number;
}

describe(`LibraryStore (${testDialect})`, () => {
  let t: TestDatabase;
  let rows: Row[];
  let removals: Gone[];
  let reads: number;
  let store: LibraryStore<Row, Gone, { id: string }, { gone: string }>;
  let users = 0;
  let lib: LibraryRef;

  beforeAll(async () => {
    t = await createTestDatabase();
    store = new LibraryStore(t.db, t.dialect, new LibraryVersions(t.db), {
      kind: 'bookmarks',
      listSlice: async (_lib, from, limit) =>
        rows
          .filter(
            (r) =>
              !from || r.updated_at < from.updatedAt || (r.updated_at === from.updatedAt && r.seq < from.seq),
          )
          .sort((a, b) => b.updated_at - a.updated_at || b.seq - a.seq)
          .slice(0, limit),
      // Two lists, each cut at `count`, answered out of order: the store sorts and cuts.
      changesAfter: async (_lib, cursor, count) => {
        reads += 1;
        const changed: LibraryChange<Row, Gone>[] = [
          ...removals
            .filter((g) => g.seq > cursor.after)
            .sort((a, b) => a.seq - b.seq)
            .slice(0, count)
            .map((g) => ({ seq: g.seq, removal: g })),
          ...rows
            .filter((r) => r.seq > cursor.after)
            .sort((a, b) => a.seq - b.seq)
            .slice(0, count)
            .map((r) => ({ seq: r.seq, row: r })),
        ];
        return changed.reverse();
      },
      toItem: (row) => ({ id: row.id }),
      toRemoval: (gone) => ({ gone: gone.id }),
    });
  });
  afterAll(async () => t.destroy());
  beforeEach(async () => {
    rows = [];
    removals = [];
    reads = 0;
    users += 1;
    lib = { userId: `u${users}`, profileId: '' };
    await t.db
      .insertInto('users')
      .values({
        id: lib.userId,
        namespace: 'test',
        public_key: null,
        email: null,
        password_hash: null,
        roles: '[]',
        profile: '{}',
        created_at: 0,
        last_logged_in: null,
        fullname: null,
      })
      .execute();
  });

  /** Changes numbered 1… in this order ('r' a row, 'g' a removal), written as one write of the library. */
  async function write(changes: string): Promise<void> {
    const first = await store.write(lib, (trx) => store.reserve(trx, lib, changes.length));
    [...changes].forEach((change, i) => {
      const seq = first + i;
      if (change === 'r') rows.push({ id: `r${seq}`, updated_at: 1000 + seq, seq });
      else removals.push({ id: `g${seq}`, seq });
    });
  }

  it('a whole-library read pages every change in order, without the removals it starts after', async () => {
    await write('rgrrgr');
    const first = await store.page(lib, { limit: 4 });
    // The removal numbered 2 takes its place on the page but is not sent: the read starts at version 6.
    expect(first).toEqual({
      items: [{ id: 'r1' }, { id: 'r3' }, { id: 'r4' }],
      removed: [],
      reset: true,
      next: encodeCursor({ after: 4, floor: 6 }),
      version: '6',
    });
    expect(await store.page(lib, { limit: 4, cursor: first.next! })).toEqual({
      items: [{ id: 'r6' }],
      removed: [],
      reset: false,
      next: null,
      version: '6',
    });
  });

  it('updatedSince gives what changed after that version, removals included; a page of exactly `limit` is the last', async () => {
    await write('rr');
    await write('grg');
    expect(await store.page(lib, { updatedSince: '2', limit: 3 })).toEqual({
      items: [{ id: 'r4' }],
      removed: [{ gone: 'g3' }, { gone: 'g5' }],
      reset: false,
      next: null,
      version: '5',
    });
    expect(await store.page(lib, { updatedSince: '5' })).toMatchObject({
      items: [],
      removed: [],
      next: null,
    });
  });

  it('a position it cannot complete (another database, or before purged removals) reads everything again', async () => {
    await write('rgr');
    const fromElsewhere = await store.page(lib, { updatedSince: '9' });
    expect(fromElsewhere).toMatchObject({ reset: true, items: [{ id: 'r1' }, { id: 'r3' }], removed: [] });
    await t.db
      .updateTable('library_versions')
      .set({ purged_seq: 2 })
      .where('user_id', '=', lib.userId)
      .execute();
    expect(await store.page(lib, { updatedSince: '1' })).toMatchObject({ reset: true, version: '3' });
    expect(await store.page(lib, { updatedSince: '2' })).toMatchObject({
      reset: false,
      items: [{ id: 'r3' }],
    });
  });

  it('the whole list is every row, latest change first, across slices', async () => {
    const n = LIBRARY_BATCH_ROWS * 2 + 3;
    await write('r'.repeat(n));
    const { version, json } = await store.listJson(lib);
    expect(version).toBe(n);
    expect(JSON.parse(json.toString())).toEqual(rows.map((r) => ({ id: r.id })).reverse());
  });

  it('writes of one library and kind run one after the other; the next sees what the previous wrote', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const first = store.write(lib, async (trx) => {
      order.push('first');
      await held;
      await store.reserve(trx, lib, 1);
    });
    await expect.poll(() => order).toEqual(['first']);
    const second = store.write(lib, async (trx) => {
      const seen = await trx
        .selectFrom('library_versions')
        .select('version')
        .where('user_id', '=', lib.userId)
        .where('kind', '=', 'bookmarks')
        .executeTakeFirstOrThrow();
      order.push(`second saw ${Number(seen.version)}`);
    });
    // Run together, the second would read version 0 now (the first has reserved nothing yet) and say so
    // before the first ends; one after the other, it reads the first's 1.
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second saw 1']);
  });

  // PostgreSQL only: SQLite has one writer for the whole file, so there every write waits for the one before.
  if (testDialect === 'postgres')
    it("another profile's library is not held up by a write of this one", async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let holding = false;
      const first = store.write(lib, async () => {
        holding = true;
        await held;
      });
      await expect.poll(() => holding).toBe(true);
      await store.write({ ...lib, profileId: 'p1' }, (trx) =>
        store.reserve(trx, { ...lib, profileId: 'p1' }, 1),
      );
      release();
      await first;
    });

  describe('answered over HTTP', () => {
    const app = Fastify();
    let query: LibraryReadQuery = {};
    app.get('/library', (request, reply) => answerLibraryRead(request, reply, store, lib, query));
    afterAll(async () => app.close());
    const get = (headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/library', headers });

    it('the whole list and pages carry the ETag of the version they reflect; naming it answers 304 before any read', async () => {
      await write('rgr');
      const etag = libraryEtag(lib, 'bookmarks', 3);
      expect(etag).toMatch(/^W\/"bookmarks-3-[A-Za-z0-9_-]{12}"$/);

      query = {};
      const whole = await get();
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(whole.headers.etag).toBe(etag);
      expect(whole.body).toBe('[{"id":"r3"},{"id":"r1"}]');

      query = { limit: 1 };
      const page = await get();
      expect(page.headers.etag).toBe(etag);
      expect(page.json()).toMatchObject({ items: [{ id: 'r1' }], version: '3' });

      reads = 0;
      const unchanged = await get({ 'if-none-match': `"other", ${etag}` });
      expect(unchanged.statusCode).toBe(304);
      expect(unchanged.headers.etag).toBe(etag);
      expect(unchanged.body).toBe('');
      expect(reads).toBe(0);

      // A cursor page is always read; another profile's library has another ETag.
      query = { cursor: page.json<{ next: string }>().next };
      expect((await get({ 'if-none-match': etag })).statusCode).toBe(200);
      expect(libraryEtag({ ...lib, profileId: 'p1' }, 'bookmarks', 3)).not.toBe(etag);
    });
  });
});
