import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bookmark, BookmarksPage, GroupOrder } from '@marquee/contract';
import {
  login,
  movieMeta,
  register,
  showMeta,
  startSyncApp,
  type SignedIn,
  type SyncTestApp,
} from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * p-stream's bookmark groups, favourite episodes and group order, on its wire shapes: its client
 * re-POSTs the whole bookmark for every change and PUTs the group order as a bare array; the older
 * clients (movie-web, sudo-flix) send bookmarks without groups, which must never wipe them.
 */

const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;
const MIN = 60_000;

describe(`bookmark groups and group order (${testDialect})`, () => {
  let t: SyncTestApp;
  let a: SignedIn;
  const iso = (offsetMs = 0) => new Date(t.clock.ms + offsetMs).toISOString();
  const call = (
    method: string,
    path: string,
    payload?: unknown,
    who: SignedIn = a,
    headers: Record<string, string> = {},
  ) =>
    t.server.inject({
      method: method as 'GET',
      url: `/users/${who.user.id}${path}`,
      headers: { ...who.headers, ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const bookmarks = async (who = a, headers: Record<string, string> = {}) =>
    body<Bookmark[]>(await call('GET', '/bookmarks', undefined, who, headers));
  const groupsOf = async (tmdbId: string, who = a) => {
    const found = (await bookmarks(who)).find((b) => b.tmdbId === tmdbId);
    return found && { group: found.group, favoriteEpisodes: found.favoriteEpisodes };
  };
  const storedRows = () =>
    t.db.db.selectFrom('bookmarks').selectAll().where('user_id', '=', a.user.id).execute();

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => {
    // fetch may keep a spare connection open (the live stream test); the server's close would wait for it.
    t.server.server.closeAllConnections();
    await t.close();
  });
  beforeEach(async () => {
    t.clock.advance(10 * MIN);
    a = await register(t.server);
  });

  describe('bookmarks', () => {
    it('p-stream’s POST with groups and favourite episodes round-trips through the list and a page read', async () => {
      const sent = {
        tmdbId: '1396',
        meta: showMeta(),
        group: ['Favourites', 'Crime'],
        favoriteEpisodes: ['62085', '62086'],
      };
      const add = await call('POST', '/bookmarks/1396', sent);
      expect(add.statusCode, add.body).toBe(200);
      const expected = {
        tmdbId: '1396',
        meta: showMeta(),
        group: ['Favourites', 'Crime'],
        favoriteEpisodes: ['62085', '62086'],
        updatedAt: iso(),
      };
      expect(body(add)).toEqual(expected);
      expect(await bookmarks()).toEqual([expected]);
      const page = body<BookmarksPage>(await call('GET', '/bookmarks?limit=10'));
      expect(page.items).toEqual([expected]);
      // A bookmark without any (the older clients' add) carries empty arrays, never absent fields.
      await call('POST', '/bookmarks/603', { tmdbId: '603', meta: movieMeta() });
      expect(await groupsOf('603')).toEqual({ group: [], favoriteEpisodes: [] });
    });

    it('takes `group` as a string too, and trims names and drops repeats (first kept)', async () => {
      await call('POST', '/bookmarks/603', { meta: movieMeta(), group: '  Sci-fi ' });
      expect(await groupsOf('603')).toEqual({ group: ['Sci-fi'], favoriteEpisodes: [] });
      await call('POST', '/bookmarks/603', {
        meta: movieMeta(),
        group: ['B', 'A', ' B', 'A'],
        favoriteEpisodes: ['2', '1', '2'],
      });
      expect(await groupsOf('603')).toEqual({ group: ['B', 'A'], favoriteEpisodes: ['2', '1'] });
    });

    it('a later write without groups (an older client re-adding the title) keeps them; [] clears', async () => {
      await call('POST', '/bookmarks/1396', {
        meta: showMeta(),
        group: ['Crime'],
        favoriteEpisodes: ['62085'],
      });
      t.clock.advance(MIN);
      const readd = await call('POST', '/bookmarks/1396', { tmdbId: '1396', meta: showMeta('Renamed') });
      expect(readd.statusCode).toBe(200);
      expect(body<Bookmark>(readd)).toMatchObject({ group: ['Crime'], favoriteEpisodes: ['62085'] });
      expect(await bookmarks()).toEqual([
        {
          tmdbId: '1396',
          meta: showMeta('Renamed'),
          group: ['Crime'],
          favoriteEpisodes: ['62085'],
          updatedAt: iso(),
        },
      ]);
      // Each list on its own: clearing the groups keeps the favourites (left out).
      t.clock.advance(MIN);
      await call('POST', '/bookmarks/1396', { meta: showMeta(), group: [] });
      expect(await groupsOf('1396')).toEqual({ group: [], favoriteEpisodes: ['62085'] });
      t.clock.advance(MIN);
      await call('POST', '/bookmarks/1396', { meta: showMeta(), favoriteEpisodes: [] });
      expect(await groupsOf('1396')).toEqual({ group: [], favoriteEpisodes: [] });
    });

    it('an older change loses with its groups; a removed bookmark brought back starts from what the write says', async () => {
      await call('POST', '/bookmarks/603', { meta: movieMeta(), group: ['Now'] });
      const older = await call('POST', '/bookmarks/603', {
        meta: movieMeta(),
        group: ['Before'],
        updatedAt: iso(-MIN),
      });
      expect(body<Bookmark>(older).group).toEqual(['Now']);
      expect(await groupsOf('603')).toEqual({ group: ['Now'], favoriteEpisodes: [] });

      t.clock.advance(MIN);
      expect((await call('DELETE', '/bookmarks/603')).statusCode).toBe(200);
      t.clock.advance(MIN);
      await call('POST', '/bookmarks/603', { meta: movieMeta() });
      expect(await groupsOf('603')).toEqual({ group: [], favoriteEpisodes: [] });
      t.clock.advance(MIN);
      await call('DELETE', '/bookmarks/603');
      t.clock.advance(MIN);
      await call('POST', '/bookmarks/603', { meta: movieMeta(), group: ['Again'] });
      expect(await groupsOf('603')).toEqual({ group: ['Again'], favoriteEpisodes: [] });
    });

    it('the bulk PUT (import) carries groups: string or array; left out keeps, dated [] clears, undated only fills gaps', async () => {
      await call('POST', '/bookmarks/1396', { meta: showMeta(), group: ['Kept'], favoriteEpisodes: ['e1'] });
      await call('POST', '/bookmarks/1399', { meta: showMeta('GoT'), group: ['Cleared'] });
      t.clock.advance(MIN);
      const put = await call('PUT', '/bookmarks', [
        { tmdbId: '603', meta: movieMeta(), group: 'Imported', favoriteEpisodes: [] },
        { tmdbId: '604', meta: movieMeta('Reloaded'), group: ['X', 'Y'], updatedAt: iso() },
        { tmdbId: '1396', meta: showMeta(), updatedAt: iso() },
        { tmdbId: '1399', meta: showMeta('GoT'), group: [], updatedAt: iso() },
        // Undated, over a held bookmark: leaves it as it is.
        { tmdbId: '1396', meta: showMeta(), group: ['Ignored'] },
      ]);
      expect(put.statusCode, put.body).toBe(200);
      const answer = body<Bookmark[]>(put);
      expect(answer.find((b) => b.tmdbId === '603')?.group).toEqual(['Imported']);
      expect(await groupsOf('603')).toEqual({ group: ['Imported'], favoriteEpisodes: [] });
      expect(await groupsOf('604')).toEqual({ group: ['X', 'Y'], favoriteEpisodes: [] });
      expect(await groupsOf('1396')).toEqual({ group: ['Kept'], favoriteEpisodes: ['e1'] });
      expect(await groupsOf('1399')).toEqual({ group: [], favoriteEpisodes: [] });
    });

    it('refuses bad group names and lists with 400, writing nothing', async () => {
      const tooMany = Array.from({ length: 51 }, (_, i) => `G${i}`);
      const bad: unknown[] = [
        { meta: movieMeta(), group: 'x'.repeat(101) },
        { meta: movieMeta(), group: ['ok', 'tab\there'] },
        { meta: movieMeta(), group: 'line\nbreak' },
        { meta: movieMeta(), group: 'del\u007f' },
        { meta: movieMeta(), group: '   ' },
        { meta: movieMeta(), group: tooMany },
        { meta: movieMeta(), group: [1] },
        { meta: movieMeta(), group: null },
        { meta: movieMeta(), favoriteEpisodes: ['x'.repeat(65)] },
        { meta: movieMeta(), favoriteEpisodes: Array.from({ length: 2001 }, (_, i) => `${i}`) },
        { meta: movieMeta(), favoriteEpisodes: '62085' },
      ];
      for (const payload of bad) {
        const res = await call('POST', '/bookmarks/603', payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
        const imported = await call('PUT', '/bookmarks', [
          { tmdbId: '604', meta: movieMeta() },
          { tmdbId: '603', ...(payload as object) },
        ]);
        expect(imported.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      }
      expect(await storedRows()).toEqual([]);
      // 100 characters (after trimming) and 50 groups are fine.
      const fine = await call('POST', '/bookmarks/603', {
        meta: movieMeta(),
        group: [` ${'x'.repeat(100)} `, ...tooMany.slice(2)],
      });
      expect(fine.statusCode, fine.body).toBe(200);
      expect(body<Bookmark>(fine).group).toHaveLength(50);
    });
  });

  describe('group order', () => {
    it('reads [] before any PUT; PUT of a bare array answers it and GET returns it', async () => {
      const before = await call('GET', '/group-order');
      expect(before.statusCode).toBe(200);
      expect(body(before)).toEqual({ groupOrder: [] });
      const put = await call('PUT', '/group-order', ['Crime', 'Favourites', 'Sci-fi']);
      expect(put.statusCode, put.body).toBe(200);
      expect(body(put)).toEqual({ groupOrder: ['Crime', 'Favourites', 'Sci-fi'] });
      expect(body<GroupOrder>(await call('GET', '/group-order'))).toEqual({
        groupOrder: ['Crime', 'Favourites', 'Sci-fi'],
      });
      // Replaced as a whole; names trimmed, repeats dropped; [] empties it.
      await call('PUT', '/group-order', [' Sci-fi', 'Crime', 'Sci-fi']);
      expect(body(await call('GET', '/group-order'))).toEqual({ groupOrder: ['Sci-fi', 'Crime'] });
      await call('PUT', '/group-order', []);
      expect(body(await call('GET', '/group-order'))).toEqual({ groupOrder: [] });
    });

    it('refuses a body that is not an array of group names (400, nothing written)', async () => {
      for (const payload of [
        { groupOrder: ['a'] },
        [1, 2],
        ['ok', null],
        ['x'.repeat(101)],
        ['bell\u0007'],
        [''],
        Array.from({ length: 201 }, (_, i) => `G${i}`),
      ]) {
        const res = await call('PUT', '/group-order', payload);
        expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      }
      // A bare string, bad JSON, another content type, a body over the 1 MiB limit.
      for (const [type, payload] of [
        ['application/json', '"Crime"'],
        ['application/json', '["Crime"'],
        ['application/json', 'null'],
        ['text/plain', '["Crime"]'],
        ['application/json', JSON.stringify(['x'.repeat(1024 * 1024)])],
      ] as const) {
        const res = await t.server.inject({
          method: 'PUT',
          url: `/users/${a.user.id}/group-order`,
          headers: { ...a.headers, 'content-type': type },
          payload,
        });
        expect(res.statusCode, `${type} ${payload.slice(0, 20)}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${type} ${payload.slice(0, 20)}`).toBeLessThan(500);
        expect(body(res).code, `${type} ${payload.slice(0, 20)}`).toBeTruthy();
      }
      const rows = await t.db.db
        .selectFrom('group_orders')
        .selectAll()
        .where('user_id', '=', a.user.id)
        .execute();
      expect(rows).toEqual([]);
      expect(
        body(
          await call(
            'PUT',
            '/group-order',
            Array.from({ length: 200 }, (_, i) => `G${i}`),
          ),
        ).groupOrder,
      ).toHaveLength(200);
    });

    it('another account’s token can neither read nor write it (403)', async () => {
      await call('PUT', '/group-order', ['Mine']);
      const mallory = await register(t.server);
      const read = await t.server.inject({
        method: 'GET',
        url: `/users/${a.user.id}/group-order`,
        headers: mallory.headers,
      });
      expect(read.statusCode).toBe(403);
      const write = await t.server.inject({
        method: 'PUT',
        url: `/users/${a.user.id}/group-order`,
        headers: mallory.headers,
        payload: ['Injected'],
      });
      expect(write.statusCode).toBe(403);
      expect(body(await call('GET', '/group-order'))).toEqual({ groupOrder: ['Mine'] });
      expect(body(await call('GET', '/group-order', undefined, mallory))).toEqual({ groupOrder: [] });
    });

    it('keeps one per profile (X-Profile-Id), removed with the profile', async () => {
      const profileOf = async (fullname: string) =>
        body<{ profile: { _id: string } }>(
          await t.server.inject({
            method: 'POST',
            url: `/customers/${a.user.id}/profiles`,
            headers: a.headers,
            // A passphrase account's profile names are sealed with its key (decision 108).
            payload: { fullname: a.keys.encryptDevice(fullname), icon: 'cat' },
          }),
        ).profile._id;
      const pa = await profileOf('A');
      const pb = await profileOf('B');
      await call('PUT', '/group-order', ['Own']);
      await call('PUT', '/group-order', ['Kids'], a, { 'x-profile-id': pa });
      await call('POST', '/bookmarks/603', { meta: movieMeta(), group: ['Kids'] }, a, { 'x-profile-id': pa });
      await call('PUT', '/group-order', ['Teens'], a, { 'x-profile-id': pb });
      expect(body(await call('GET', '/group-order'))).toEqual({ groupOrder: ['Own'] });
      expect(body(await call('GET', '/group-order', undefined, a, { 'x-profile-id': pa }))).toEqual({
        groupOrder: ['Kids'],
      });
      expect(body(await call('GET', '/group-order', undefined, a, { 'x-profile-id': pb }))).toEqual({
        groupOrder: ['Teens'],
      });
      expect(await bookmarks()).toEqual([]);
      expect((await bookmarks(a, { 'x-profile-id': pa }))[0]?.group).toEqual(['Kids']);
      // Not one of the caller's profiles: 404, as on the other library routes.
      const foreign = await call('PUT', '/group-order', ['x'], a, {
        'x-profile-id': 'ffffffffffffffffffffffff',
      });
      expect(foreign.statusCode).toBe(404);

      await t.server.inject({
        method: 'DELETE',
        url: `/customers/${a.user.id}/profiles/${pb}`,
        headers: a.headers,
      });
      const left = await t.db.db
        .selectFrom('group_orders')
        .select('profile_id')
        .where('user_id', '=', a.user.id)
        .orderBy('profile_id')
        .execute();
      expect(left.map((r) => r.profile_id)).toEqual(['', pa].sort());
    });

    it('a PUT is announced to the account’s other devices as a bookmarks change', async () => {
      const address = await t.server.listen({ port: 0, host: '127.0.0.1' });
      const laptop = await login(t.server, a.keys, 'Laptop');
      const controller = new AbortController();
      try {
        const stream = await fetch(`${address}/users/${a.user.id}/events`, {
          headers: { ...laptop.headers, accept: 'text/event-stream' },
          signal: controller.signal,
        });
        const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
        let text = '';
        const until = async (part: string) => {
          while (!text.includes(part)) text += (await reader.read()).value ?? '';
        };
        await until('event: ready');
        expect((await call('PUT', '/group-order', ['Crime'])).statusCode).toBe(200);
        await until('event: changed');
        expect(text.slice(text.indexOf('event: changed'))).toContain('{"kind":"bookmarks"}');
      } finally {
        controller.abort();
      }
    });

    it('is removed with the account', async () => {
      await call('PUT', '/group-order', ['Gone']);
      await call('POST', '/bookmarks/603', { meta: movieMeta(), group: ['Gone'] });
      const del = await t.server.inject({ method: 'DELETE', url: `/users/${a.user.id}`, headers: a.headers });
      expect(del.statusCode).toBe(200);
      for (const table of ['group_orders', 'bookmarks'] as const) {
        const rows = await t.db.db
          .selectFrom(table)
          .select('user_id')
          .where('user_id', '=', a.user.id)
          .execute();
        expect(rows, table).toEqual([]);
      }
    });
  });
});
