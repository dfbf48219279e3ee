import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisEventBus, type LibraryChange } from '../src/modules/live/event-bus.ts';
import { JobRuns } from '../src/modules/maintenance/job-runs.ts';
import { login, movieMeta, register, startSyncApp, type SignedIn, type SyncTestApp } from './sync-harness.ts';
import { StreamReader } from './stream-reader.ts';
import { createTestDatabase, testRedisUrl, type TestDatabase } from './test-database.ts';

/*
 * Live library changes (issue 13, decision 079): the per-device event stream, the event bus between
 * processes, clock-safe change times and background jobs that run once across processes.
 */

const listening = new Set<FastifyInstance>();
const openApps: SyncTestApp[] = [];
const readers: StreamReader[] = [];
const extraDbs: TestDatabase[] = [];

afterEach(async () => {
  for (const r of readers.splice(0)) r.close();
  for (const app of openApps.splice(0)) {
    // fetch may hold a spare connection that never sent a request; Node waits for those otherwise.
    app.server.server.closeAllConnections();
    await app.close();
  }
  for (const db of extraDbs.splice(0)) await db.destroy();
  listening.clear();
});

async function start(
  options: Parameters<typeof startSyncApp>[0] = {},
): Promise<SyncTestApp & { url: string }> {
  const app = await startSyncApp(options);
  openApps.push(app);
  const address = await app.server.listen({ port: 0, host: '127.0.0.1' });
  listening.add(app.server);
  return Object.assign(app, { url: address });
}

async function openStream(
  url: string,
  who: SignedIn,
  headers: Record<string, string> = {},
): Promise<StreamReader> {
  const controller = new AbortController();
  const response = await fetch(`${url}/users/${who.user.id}/events`, {
    headers: { ...who.headers, accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const reader = new StreamReader(response, controller);
  readers.push(reader);
  return reader;
}

const addBookmark = (app: SyncTestApp, who: SignedIn, id: string, headers: Record<string, string> = {}) =>
  app.server.inject({
    method: 'POST',
    url: `/users/${who.user.id}/bookmarks/${id}`,
    headers: { ...who.headers, ...headers },
    payload: { meta: movieMeta() },
  });

describe('the library stream of a device', () => {
  it('hears bookmark, progress and settings changes of the other sessions, not its own', async () => {
    const app = await start();
    const phone = await register(app.server, { device: 'Phone' });
    const laptop = await login(app.server, phone.keys, 'Laptop');
    const laptopStream = await openStream(app.url, laptop);
    const phoneStream = await openStream(app.url, phone);
    expect(laptopStream.response.status).toBe(200);
    expect(laptopStream.response.headers.get('content-type')).toContain('text/event-stream');
    await laptopStream.waitFor('ready');
    await phoneStream.waitFor('ready');

    expect((await addBookmark(app, phone, '603')).statusCode).toBe(200);
    const put = await app.server.inject({
      method: 'PUT',
      url: `/users/${phone.user.id}/progress/603`,
      headers: phone.headers,
      payload: { meta: movieMeta(), duration: 8000, watched: 600 },
    });
    expect(put.statusCode).toBe(200);
    const settings = await app.server.inject({
      method: 'PUT',
      url: `/users/${phone.user.id}/settings`,
      headers: phone.headers,
      payload: { applicationTheme: 'blue' },
    });
    expect(settings.statusCode).toBe(200);

    const changes = await laptopStream.waitFor('changed', 3);
    expect(changes.map((c) => c.data)).toEqual([
      { kind: 'bookmarks' },
      { kind: 'progress' },
      { kind: 'settings' },
    ]);
    // The phone made them: its own stream stays quiet (a refused write is not announced either).
    const refused = await app.server.inject({
      method: 'PUT',
      url: `/users/${phone.user.id}/progress/603`,
      headers: laptop.headers,
      payload: { meta: movieMeta(), duration: -1, watched: 600 },
    });
    expect(refused.statusCode).toBe(400);
    expect(phoneStream.events.map((e) => e.event)).toEqual(['ready']);
    expect(laptopStream.events.filter((e) => e.event === 'changed')).toHaveLength(3);
  });

  it('hears ratings rated, imported and removed on another session as `ratings` (decision 103)', async () => {
    const app = await start();
    const phone = await register(app.server, { device: 'Phone' });
    const laptop = await login(app.server, phone.keys, 'Laptop');
    const laptopStream = await openStream(app.url, laptop);
    await laptopStream.waitFor('ready');
    const send = (method: 'PUT' | 'DELETE', path: string, payload: object) =>
      app.server.inject({ method, url: `/users/${phone.user.id}${path}`, headers: phone.headers, payload });
    const rating = { type: 'movie', meta: movieMeta(), rating: 8 };
    expect((await send('PUT', '/ratings/603', rating)).statusCode).toBe(200);
    expect((await send('PUT', '/ratings/import', [{ ...rating, tmdbId: '550' }])).statusCode).toBe(200);
    expect((await send('DELETE', '/ratings/603', {})).statusCode).toBe(200);
    // A refused rating is not announced: the next announcement is the change after it (announcements
    // come in order on the stream).
    expect((await send('PUT', '/ratings/603', { ...rating, rating: 11 })).statusCode).toBe(400);
    const progress = { meta: movieMeta(), duration: 7200, watched: 600 };
    expect((await send('PUT', '/progress/603', progress)).statusCode).toBe(200);
    const changes = await laptopStream.waitFor('changed', 4);
    expect(changes.map((c) => c.data)).toEqual([
      { kind: 'ratings' },
      { kind: 'ratings' },
      { kind: 'ratings' },
      { kind: 'progress' },
    ]);
  });

  it('is for its own account only: another account hears nothing and cannot open it', async () => {
    const app = await start();
    const alice = await register(app.server);
    const bob = await register(app.server);
    const bobStream = await openStream(app.url, bob);
    await bobStream.waitFor('ready');
    const aliceSecond = await login(app.server, alice.keys);
    const aliceStream = await openStream(app.url, aliceSecond);
    await aliceStream.waitFor('ready');
    await addBookmark(app, alice, '603');
    await aliceStream.waitFor('changed');
    expect(bobStream.events.map((e) => e.event)).toEqual(['ready']);

    const stolen = await fetch(`${app.url}/users/${alice.user.id}/events`, { headers: bob.headers });
    expect(stolen.status).toBe(403);
    expect((await stolen.json()) as object).toMatchObject({ code: 'forbidden' });
    const anonymous = await fetch(`${app.url}/users/${alice.user.id}/events`);
    expect(anonymous.status).toBe(401);
  });

  it('refuses more streams per account than the limit with 429, and counts closed ones out', async () => {
    const app = await start({ deps: { accounts: { live: { maxPerAccount: 2 } } } });
    const user = await register(app.server);
    const first = await openStream(app.url, user);
    const second = await openStream(app.url, user);
    await first.waitFor('ready');
    await second.waitFor('ready');
    const third = await fetch(`${app.url}/users/${user.user.id}/events`, { headers: user.headers });
    expect(third.status).toBe(429);
    expect((await third.json()) as object).toMatchObject({ code: 'rate_limited' });
    first.close();
    await first.done;
    await expect
      .poll(async () => {
        const again = await openStream(app.url, user);
        if (again.response.status !== 200) again.close();
        return again.response.status;
      })
      .toBe(200);
  });

  it('ends when its session is signed out, revoked from another device, or its account deleted', async () => {
    // They stayed open ~16 minutes, hearing the account's changes and holding its stream slots.
    const app = await start({ deps: { accounts: { live: { sessionCheckMs: 200 } } } });
    const phone = await register(app.server, { device: 'Phone' });
    const laptop = await login(app.server, phone.keys, 'Laptop');
    const tablet = await login(app.server, phone.keys, 'Tablet');
    const onPhone = await openStream(app.url, phone);
    const onLaptop = await openStream(app.url, laptop);
    const onTablet = await openStream(app.url, tablet);
    await Promise.all([onPhone, onLaptop, onTablet].map((s) => s.waitFor('ready')));
    // The laptop signs itself out: its stream ends at once.
    const signOut = await app.server.inject({
      method: 'DELETE',
      url: `/sessions/${laptop.session.id}`,
      headers: laptop.headers,
    });
    expect(signOut.statusCode).toBe(200);
    await onLaptop.done;
    // The phone removes the tablet's session.
    const revoke = await app.server.inject({
      method: 'DELETE',
      url: `/sessions/${tablet.session.id}`,
      headers: phone.headers,
    });
    expect(revoke.statusCode).toBe(200);
    await onTablet.done;
    // A session deleted some other way (another process, the account's deletion, its expiry sweep) ends
    // its stream at the next check.
    await app.db.db.deleteFrom('sessions').where('id', '=', phone.session.id).execute();
    await onPhone.done;
  });

  it('ends when the server closes and when it reaches its age, so clients reconnect', async () => {
    const app = await start({ deps: { accounts: { live: { maxAgeMs: 300 } } } });
    const user = await register(app.server);
    const stream = await openStream(app.url, user);
    await stream.waitFor('ready');
    await stream.done; // closed by the server after ~300 ms
    expect(stream.events.map((e) => e.event)).toEqual(['ready']);

    const other = await start();
    const someone = await register(other.server);
    const open = await openStream(other.url, someone);
    await open.waitFor('ready');
    const closed = other.server.close();
    await open.done;
    await closed;
    openApps.splice(openApps.indexOf(other), 1);
    await other.db.destroy();
  });
});

/** Redis is always there on CI and developer machines: TEST_REDIS_URL or the local one. */
const redisUrl = testRedisUrl ?? 'redis://127.0.0.1:6379';

describe('the event bus between processes (Redis)', () => {
  it('a change made through one process reaches a stream held by another', async () => {
    const prefix = `test-live-${randomBytes(5).toString('hex')}:`;
    const db = await createTestDatabase();
    extraDbs.push(db);
    const env = { REDIS_URL: redisUrl, REDIS_PREFIX: prefix };
    const one = await start({ db, env });
    const two = await start({ db, env });
    const phone = await register(one.server);
    const tv = await login(two.server, phone.keys, 'TV');
    const tvStream = await openStream(two.url, tv);
    await tvStream.waitFor('ready');
    expect((await addBookmark(one, phone, '603')).statusCode).toBe(200);
    expect((await tvStream.waitFor('changed'))[0]!.data).toEqual({ kind: 'bookmarks' });
  });

  it('after its connection comes back, listeners are told to catch up and changes flow again', async () => {
    const { Redis } = await import('ioredis');
    const prefix = `test-bus-${randomBytes(5).toString('hex')}:`;
    const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    const log = { warn: () => undefined, info: () => undefined };
    const bus = new RedisEventBus(publisher, prefix, log);
    try {
      const heard: LibraryChange[] = [];
      let gaps = 0;
      bus.onGap(() => (gaps += 1));
      await expect
        .poll(() => (bus as unknown as { subscriber: { status: string } }).subscriber.status)
        .toBe('ready');
      await bus.subscribe('u1', (c) => heard.push(c));
      const change: LibraryChange = { userId: 'u1', profileId: '', kind: 'progress', origin: null };
      await bus.publish(change);
      await expect.poll(() => heard.length).toBe(1);

      // The subscriber's connection drops and comes back by itself.
      (bus as unknown as { subscriber: { disconnect(reconnect: boolean): void } }).subscriber.disconnect(
        true,
      );
      await expect.poll(() => gaps, { timeout: 5_000 }).toBe(1);
      await expect
        .poll(
          async () => {
            await bus.publish({ ...change, kind: 'bookmarks' });
            return heard.some((c) => c.kind === 'bookmarks');
          },
          { timeout: 5_000 },
        )
        .toBe(true);
      // Another account's changes are not delivered to this listener.
      await bus.publish({ ...change, userId: 'u2' });
      await bus.publish({ ...change, kind: 'settings' });
      await expect.poll(() => heard.some((c) => c.kind === 'settings')).toBe(true);
      expect(heard.every((c) => c.userId === 'u1')).toBe(true);
    } finally {
      await bus.close();
      publisher.disconnect();
    }
  });
});

describe('clock-safe change times (device clocks 10 minutes off)', () => {
  const TEN_MIN = 10 * 60_000;
  /** A device's view of now: the server's clock plus its error. */
  const deviceNow = (app: SyncTestApp, skewMs: number) => app.clock.ms + skewMs;
  const deviceHeaders = (app: SyncTestApp, skewMs: number) => ({
    'x-client-time': String(deviceNow(app, skewMs)),
  });

  it('the newer real change wins whichever device has the fast clock', async () => {
    const app = await start();
    const fast = await register(app.server, { device: 'Fast clock' });
    const slow = await login(app.server, fast.keys, 'Slow clock');
    const bookmarks = async () =>
      (
        JSON.parse(
          (await app.server.inject({ url: `/users/${fast.user.id}/bookmarks`, headers: fast.headers })).body,
        ) as { tmdbId: string }[]
      ).map((b) => b.tmdbId);

    // The fast device adds, the slow one removes a minute later (really): the removal is newer.
    const add = await app.server.inject({
      method: 'POST',
      url: `/users/${fast.user.id}/bookmarks/603`,
      headers: { ...fast.headers, ...deviceHeaders(app, TEN_MIN) },
      payload: { meta: movieMeta(), updatedAt: new Date(deviceNow(app, TEN_MIN)).toISOString() },
    });
    expect(add.statusCode).toBe(200);
    app.clock.advance(60_000);
    const removal = await app.server.inject({
      method: 'DELETE',
      url: `/users/${fast.user.id}/bookmarks/603?updatedAt=${encodeURIComponent(new Date(deviceNow(app, -TEN_MIN)).toISOString())}`,
      headers: { ...slow.headers, ...deviceHeaders(app, -TEN_MIN) },
    });
    expect(removal.statusCode).toBe(200);
    expect(await bookmarks()).toEqual([]);

    // And the other way round: the slow device adds, the fast one removes a minute later.
    app.clock.advance(60_000);
    await app.server.inject({
      method: 'POST',
      url: `/users/${fast.user.id}/bookmarks/604`,
      headers: { ...slow.headers, ...deviceHeaders(app, -TEN_MIN) },
      payload: {
        meta: movieMeta('Reloaded', 2003),
        updatedAt: new Date(deviceNow(app, -TEN_MIN)).toISOString(),
      },
    });
    app.clock.advance(60_000);
    await app.server.inject({
      method: 'DELETE',
      url: `/users/${fast.user.id}/bookmarks/604?updatedAt=${encodeURIComponent(new Date(deviceNow(app, TEN_MIN)).toISOString())}`,
      headers: { ...fast.headers, ...deviceHeaders(app, TEN_MIN) },
    });
    expect(await bookmarks()).toEqual([]);

    // Progress: the slow device's later position wins over the fast one's earlier one.
    const putProgress = (who: SignedIn, skew: number, watched: number) =>
      app.server.inject({
        method: 'PUT',
        url: `/users/${fast.user.id}/progress/603`,
        headers: { ...who.headers, ...deviceHeaders(app, skew) },
        payload: {
          meta: movieMeta(),
          duration: 8000,
          watched,
          updatedAt: new Date(deviceNow(app, skew)).toISOString(),
        },
      });
    expect((await putProgress(fast, TEN_MIN, 100)).statusCode).toBe(200);
    app.clock.advance(30_000);
    expect((await putProgress(slow, -TEN_MIN, 2000)).statusCode).toBe(200);
    const progress = JSON.parse(
      (await app.server.inject({ url: `/users/${fast.user.id}/progress`, headers: fast.headers })).body,
    ) as { watched: string; updatedAt: string }[];
    expect(progress.map((p) => p.watched)).toEqual(['2000']);
    // Stored in the server's clock: when the slow device really made it.
    expect(progress[0]!.updatedAt).toBe(new Date(app.clock.ms).toISOString());
  });

  it('a change queued offline on a fast device keeps its real time, behind a newer one from elsewhere', async () => {
    const app = await start();
    const fast = await register(app.server, { device: 'Fast clock, offline' });
    const other = await login(app.server, fast.keys, 'Right clock');
    const madeAt = new Date(deviceNow(app, TEN_MIN)).toISOString(); // recorded offline, now
    app.clock.advance(2 * 60_000);
    await app.server.inject({
      method: 'PUT',
      url: `/users/${fast.user.id}/settings`,
      headers: other.headers,
      payload: { applicationLanguage: 'fr', updatedAt: new Date(app.clock.ms).toISOString() },
    });
    app.clock.advance(3 * 60_000); // back online five minutes after the change: sent now
    const late = await app.server.inject({
      method: 'PUT',
      url: `/users/${fast.user.id}/settings`,
      headers: { ...fast.headers, ...deviceHeaders(app, TEN_MIN) },
      payload: { applicationLanguage: 'ja', applicationTheme: 'teal', updatedAt: madeAt },
    });
    expect(late.statusCode).toBe(200);
    expect(JSON.parse(late.body)).toMatchObject({ applicationLanguage: 'fr', applicationTheme: 'teal' });
  });

  it('without the device clock header (the older clients) times are taken as sent', async () => {
    const app = await start();
    const user = await register(app.server);
    const sent = new Date(app.clock.ms - TEN_MIN).toISOString();
    const add = await app.server.inject({
      method: 'POST',
      url: `/users/${user.user.id}/bookmarks/603`,
      headers: user.headers,
      payload: { meta: movieMeta(), updatedAt: sent },
    });
    expect(JSON.parse(add.body)).toMatchObject({ updatedAt: sent });
    const nonsense = await addBookmark(app, user, '604', { 'x-client-time': 'yesterday' });
    expect(nonsense.statusCode).toBe(200);
  });

  it('a device clock no real clock reads (16 digits, 0) is ignored; a corrected time never passes now', async () => {
    const app = await start();
    const user = await register(app.server);
    const sent = new Date(app.clock.ms - TEN_MIN).toISOString();
    for (const reading of ['9999999999999999', '1000000000000000', '0', '000000000000001']) {
      const res = await app.server.inject({
        method: 'POST',
        url: `/users/${user.user.id}/bookmarks/603`,
        headers: { ...user.headers, 'x-client-time': reading },
        payload: { meta: movieMeta(), updatedAt: sent },
      });
      expect(res.statusCode, `${reading}: ${res.body}`).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ updatedAt: sent });
    }
    // A device far behind (its clock reads 2001) sends a time near year 9999: moved by its offset it
    // would pass year 9999 (400 before); it is taken as now, like any time in the future.
    const imported = await app.server.inject({
      method: 'PUT',
      url: `/users/${user.user.id}/progress/import`,
      headers: { ...user.headers, 'x-client-time': String(Date.UTC(2001, 0, 1)) },
      payload: [
        {
          tmdbId: '603',
          meta: movieMeta(),
          duration: 100,
          watched: 50,
          updatedAt: '9999-12-30T00:00:00.000Z',
        },
      ],
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const progress = JSON.parse(
      (await app.server.inject({ url: `/users/${user.user.id}/progress`, headers: user.headers })).body,
    ) as { updatedAt: string }[];
    expect(Date.parse(progress[0]!.updatedAt)).toBeLessThanOrEqual(app.clock.ms);
  });
});

describe('background jobs run once across processes', () => {
  it('of several processes claiming a job at once, one runs it per interval', async () => {
    const db = await createTestDatabase();
    extraDbs.push(db);
    const processes = ['a', 'b', 'c'].map((name) => new JobRuns(db.db, name));
    const at = Date.UTC(2026, 10, 23, 12);
    const first = await Promise.all(processes.map((p) => p.claim('cleanup', at, 60_000)));
    expect(first.filter(Boolean)).toHaveLength(1);
    const soon = await Promise.all(processes.map((p) => p.claim('cleanup', at + 30_000, 60_000)));
    expect(soon.filter(Boolean)).toHaveLength(0);
    const later = await Promise.all(processes.map((p) => p.claim('cleanup', at + 60_000, 60_000)));
    expect(later.filter(Boolean)).toHaveLength(1);
    // Another job is claimed on its own schedule.
    expect(await processes[0]!.claim('other', at + 30_000, 60_000)).toBe(true);
  });
});
