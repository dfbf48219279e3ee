import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  PARTY_HOLD_MS,
  PARTY_MAX_MEMBERS,
  partyPositionAt,
  type PartyJoined,
  type PartyTitle,
  type PartyView,
} from '@marquee/contract';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { StreamReader } from './stream-reader.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { createTestDatabase, testDialect, testRedisUrl } from './test-database.ts';

/* Watch parties (decision 110): rooms, commands, holds, chat, limits, p-stream's status, processes. */

const inception: PartyTitle = { type: 'movie', title: 'Inception', releaseYear: 2010, tmdbId: '27205' };
const matrix: PartyTitle = { type: 'movie', title: 'The Matrix', releaseYear: 1999, tmdbId: '603' };
const codeOf = (res: { statusCode: number; body: string }) =>
  `${res.statusCode} ${(JSON.parse(res.body) as { code?: string }).code ?? ''}`.trim();

type App = SyncTestApp & { url: string };
const readers: StreamReader[] = [];
afterEach(() => {
  for (const r of readers.splice(0)) r.close();
});

async function listen(app: SyncTestApp): Promise<App> {
  const url = await app.server.listen({ port: 0, host: '127.0.0.1' });
  return Object.assign(app, { url });
}

async function closeApp(app: SyncTestApp): Promise<void> {
  app.server.server.closeAllConnections();
  await app.close();
}

async function openStream(app: App, partyId: string, token: string): Promise<StreamReader> {
  const controller = new AbortController();
  const response = await fetch(`${app.url}/parties/${partyId}/events`, {
    headers: { accept: 'text/event-stream', 'x-party-token': token },
    signal: controller.signal,
  });
  const reader = new StreamReader(response, controller);
  readers.push(reader);
  return reader;
}

/** The last `state` a stream heard once it holds at least `version`. */
async function stateAt(reader: StreamReader, version: number): Promise<PartyView> {
  const deadline = Date.now() + 5_000;
  for (let n = 1; ; n++) {
    const states = (await reader.waitFor('state', n, Math.max(1, deadline - Date.now()))).map(
      (e) => e.data as PartyView,
    );
    const last = states.at(-1)!;
    if (last.version >= version) return last;
  }
}

const create = (app: SyncTestApp, who: Customer, body: Record<string, unknown> = {}) =>
  app.server.inject({
    method: 'POST',
    url: '/parties',
    headers: who.headers,
    payload: { title: inception, name: 'Ana', ...body },
  });
const join = (
  app: SyncTestApp,
  partyId: string,
  name: string,
  headers: Record<string, string> = {},
  remoteAddress = '127.0.0.1',
) =>
  app.server.inject({
    method: 'POST',
    url: `/parties/${partyId}/members`,
    headers,
    remoteAddress,
    payload: { name },
  });
const command = (app: SyncTestApp, partyId: string, token: string, body: Record<string, unknown>) =>
  app.server.inject({
    method: 'POST',
    url: `/parties/${partyId}/commands`,
    headers: { 'x-party-token': token },
    payload: body,
  });
const say = (app: SyncTestApp, partyId: string, token: string, body: Record<string, unknown>) =>
  app.server.inject({
    method: 'POST',
    url: `/parties/${partyId}/messages`,
    headers: { 'x-party-token': token },
    payload: body,
  });

async function startParty(
  t: SyncTestApp,
  host: Customer,
  guest: Customer,
  body: Record<string, unknown> = {},
) {
  const made = await create(t, host, body);
  expect(made.statusCode, made.body).toBe(200);
  const hosted = made.json() as PartyJoined;
  const joined = await join(t, hosted.party.id, 'Ben', guest.headers);
  expect(joined.statusCode, joined.body).toBe(200);
  return { id: hosted.party.id, host: hosted.member, guest: (joined.json() as PartyJoined).member };
}

describe(`watch parties (${testDialect}, rooms in ${testRedisUrl ? 'Redis' : 'the process'})`, () => {
  let t: App;
  let ana: Customer;
  let ben: Customer;
  beforeAll(async () => {
    t = await listen(await startSyncApp({ deps: { accounts: { passwordCost: TEST_PASSWORD_COST } } }));
    ana = await signUp(t.server, { fullname: 'Ana' });
    ben = await signUp(t.server, { fullname: 'Ben' });
  });
  afterAll(async () => closeApp(t));

  it('lets a friend join by the link; play, pause and seek by either reach the other at once', async () => {
    const party = await startParty(t, ana, ben);
    const anaHears = await openStream(t, party.id, party.host.token);
    const benHears = await openStream(t, party.id, party.guest.token);
    const first = await stateAt(anaHears, 2);
    expect(first.members.map((m) => [m.name, m.host, m.guest])).toEqual([
      ['Ana', true, false],
      ['Ben', false, false],
    ]);
    expect(first.title).toEqual(inception);

    const played = await command(t, party.id, party.guest.token, { type: 'play', position: 42 });
    expect(played.statusCode, played.body).toBe(200);
    const heard = await stateAt(anaHears, 3);
    expect(heard.playback).toMatchObject({ playing: true, position: 42, at: t.clock.ms });
    t.clock.advance(10_000);
    expect(partyPositionAt(heard.playback, t.clock.ms)).toBe(52);

    await command(t, party.id, party.host.token, { type: 'pause', position: 52.5 });
    expect((await stateAt(benHears, 4)).playback).toMatchObject({ playing: false, position: 52.5 });
    await command(t, party.id, party.host.token, { type: 'seek', position: 600 });
    const sought = await stateAt(benHears, 5);
    expect(sought.playback).toMatchObject({ playing: false, position: 600 });
    expect(partyPositionAt(sought.playback, t.clock.ms + 60_000)).toBe(600);
  });

  it('in a host-only party only the host plays, pauses, seeks and changes it', async () => {
    const party = await startParty(t, ana, ben, { hostOnly: true });
    expect(codeOf(await command(t, party.id, party.guest.token, { type: 'pause', position: 1 }))).toBe(
      '403 party_host_only',
    );
    expect(codeOf(await command(t, party.id, party.guest.token, { type: 'hostOnly', value: false }))).toBe(
      '403 party_host_only',
    );
    // Buffering is everyone's: it is not control.
    expect((await command(t, party.id, party.guest.token, { type: 'ready' })).statusCode).toBe(200);
    const opened = await command(t, party.id, party.host.token, { type: 'hostOnly', value: false });
    expect((opened.json() as PartyView).hostOnly).toBe(false);
    expect((await command(t, party.id, party.guest.token, { type: 'pause', position: 1 })).statusCode).toBe(
      200,
    );
  });

  it('holds the room for a member who buffers, at most for the hold, and not for ever', async () => {
    const party = await startParty(t, ana, ben, { playing: true, position: 100 });
    t.clock.advance(2_000);
    const held = (
      await command(t, party.id, party.guest.token, { type: 'buffering', position: 101.5 })
    ).json() as PartyView;
    const members = held.members;
    const benId = members.find((m) => m.name === 'Ben')!.id;
    expect(held.playback).toMatchObject({
      waitingFor: [benId],
      position: 102,
      holdUntil: t.clock.ms + PARTY_HOLD_MS,
    });
    t.clock.advance(3_000);
    expect(partyPositionAt(held.playback, t.clock.ms)).toBe(102);
    const resumed = (await command(t, party.id, party.guest.token, { type: 'ready' })).json() as PartyView;
    expect(resumed.playback).toMatchObject({ playing: true, waitingFor: [], position: 102, at: t.clock.ms });

    // A member who never says ready holds the room no longer than the hold.
    const again = (
      await command(t, party.id, party.guest.token, { type: 'buffering', position: 102 })
    ).json() as PartyView;
    t.clock.advance(PARTY_HOLD_MS + 4_000);
    expect(partyPositionAt(again.playback, t.clock.ms)).toBe(106);
    // One who buffers over and over stops holding it: the room plays on.
    let last = again;
    for (let i = 0; i < 8; i++) {
      t.clock.advance(PARTY_HOLD_MS + 1);
      last = (
        await command(t, party.id, party.guest.token, { type: 'buffering', position: 0 })
      ).json() as PartyView;
      await command(t, party.id, party.guest.token, { type: 'ready' });
    }
    expect(last.playback.waitingFor).toEqual([]);
  });

  it('carries chat and reactions to every member, bounded in size and rate', async () => {
    const party = await startParty(t, ana, ben);
    const benHears = await openStream(t, party.id, party.guest.token);
    await stateAt(benHears, 2);
    expect((await say(t, party.id, party.host.token, { text: 'popcorn ready?' })).statusCode).toBe(200);
    expect((await say(t, party.id, party.host.token, { reaction: '🔥' })).statusCode).toBe(200);
    const [chat] = await benHears.waitFor('chat');
    expect(chat!.data).toMatchObject({ name: 'Ana', text: 'popcorn ready?' });
    expect((await benHears.waitFor('reaction'))[0]!.data).toMatchObject({ name: 'Ana', reaction: '🔥' });

    expect(codeOf(await say(t, party.id, party.host.token, { text: 'x'.repeat(501) }))).toBe(
      '400 validation_failed',
    );
    expect(codeOf(await say(t, party.id, party.host.token, { text: 'a\u0007b' }))).toBe(
      '400 validation_failed',
    );
    expect(codeOf(await say(t, party.id, party.host.token, { reaction: '<script>' }))).toBe(
      '400 validation_failed',
    );
    const answers: number[] = [];
    for (let i = 0; i < 40; i++)
      answers.push((await say(t, party.id, party.host.token, { text: `spam ${i}` })).statusCode);
    expect(answers).toContain(429);
    expect(answers.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('refuses a party id without its link, a member without a token, and a command flood, with no 5xx', async () => {
    const party = await startParty(t, ana, ben);
    const unknown = randomBytes(16).toString('base64url');
    expect(codeOf(await join(t, unknown, 'Eve', ben.headers))).toBe('404 party_not_found');
    expect(codeOf(await t.server.inject({ url: `/parties/${unknown}/preview` }))).toBe('404 party_not_found');
    const preview = await t.server.inject({ url: `/parties/${party.id}/preview` });
    expect(preview.json()).toEqual({ title: inception, host: 'Ana', members: 2, full: false });
    expect(codeOf(await join(t, 'not-an-id', 'Eve', ben.headers))).toBe('400 validation_failed');
    expect(codeOf(await command(t, party.id, '', { type: 'play', position: 1 }))).toBe(
      '403 party_not_member',
    );
    const other = await startParty(t, ana, ben);
    expect(codeOf(await command(t, party.id, other.guest.token, { type: 'play', position: 1 }))).toBe(
      '403 party_not_member',
    );
    const noToken = await fetch(`${t.url}/parties/${party.id}/events`);
    expect(noToken.status).toBe(403);
    expect(codeOf(await command(t, party.id, party.host.token, { type: 'seek', position: -1 }))).toBe(
      '400 validation_failed',
    );
    const statuses: number[] = [];
    for (let i = 0; i < 130; i++)
      statuses.push((await command(t, party.id, party.host.token, { type: 'seek', position: i })).statusCode);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
  });

  it('a member who leaves hears the end of their stream; the host passes on; the last one out ends it', async () => {
    const party = await startParty(t, ana, ben);
    const anaHears = await openStream(t, party.id, party.host.token);
    const benHears = await openStream(t, party.id, party.guest.token);
    await stateAt(benHears, 2);
    const left = await t.server.inject({
      method: 'DELETE',
      url: `/parties/${party.id}/members/me`,
      headers: { 'x-party-token': party.host.token },
    });
    expect(left.statusCode, left.body).toBe(200);
    expect((await anaHears.waitFor('closed'))[0]!.data).toEqual({ reason: 'left' });
    const now = await stateAt(benHears, 3);
    expect(now.members.map((m) => [m.name, m.host])).toEqual([['Ben', true]]);
    expect(codeOf(await command(t, party.id, party.host.token, { type: 'play', position: 0 }))).toBe(
      '403 party_not_member',
    );
    await t.server.inject({
      method: 'DELETE',
      url: `/parties/${party.id}/members/me`,
      headers: { 'x-party-token': party.guest.token },
    });
    expect((await benHears.waitFor('closed'))[0]!.data).toEqual({ reason: 'ended' });
    expect(codeOf(await join(t, party.id, 'Ben', ben.headers))).toBe('404 party_not_found');
  });

  it(`holds ${PARTY_MAX_MEMBERS} members and refuses one more; a member who reloads joins as themself`, async () => {
    const made = (await create(t, ana)).json() as PartyJoined;
    const again = await join(t, made.party.id, 'Ana again', {
      ...ana.headers,
      'x-party-token': made.member.token,
    });
    expect((again.json() as PartyJoined).member.id).toBe(made.member.id);
    for (let i = 1; i < PARTY_MAX_MEMBERS; i++) {
      const res = await join(t, made.party.id, `Friend ${i}`, ben.headers, `198.18.${i >> 8}.${i & 255}`);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(codeOf(await join(t, made.party.id, 'One too many', ben.headers, '198.19.0.1'))).toBe(
      '409 party_full',
    );
    const view = (
      await t.server.inject({
        url: `/parties/${made.party.id}`,
        headers: { 'x-party-token': made.member.token },
      })
    ).json() as PartyView;
    expect(view.members).toHaveLength(PARTY_MAX_MEMBERS);
    expect(view.members[0]!.name).toBe('Ana again');
  });

  it('a new title or episode must be one the member may play; unknown titles are refused', async () => {
    const party = await startParty(t, ana, ben);
    const unknown = { type: 'movie', title: 'Nothing', tmdbId: '999999999' };
    expect(codeOf(await command(t, party.id, party.guest.token, { type: 'title', title: unknown }))).toBe(
      '404 media_not_found',
    );
    expect(codeOf(await create(t, ana, { title: unknown }))).toBe('404 media_not_found');
    const changed = await command(t, party.id, party.guest.token, { type: 'title', title: matrix });
    expect((changed.json() as PartyView).title).toEqual(matrix);
    expect((changed.json() as PartyView).playback.position).toBe(0);
    const show = { type: 'show', title: 'Breaking Bad', tmdbId: '1396' };
    expect(codeOf(await create(t, ana, { title: show }))).toBe('400 validation_failed');
    // Episodes, with the embedded catalog's ids: the next one moves the room; a second "next" changes nothing.
    const episode = (n: number) => ({
      ...show,
      releaseYear: 2008,
      season: { number: 1, tmdbId: '1001396001' },
      episode: { number: n, tmdbId: `100139600100${n}` },
    });
    const made = await create(t, ana, { title: episode(1) });
    expect(made.statusCode, made.body).toBe(200);
    const { party: room, member: host } = made.json() as PartyJoined;
    const next = (
      await command(t, room.id, host.token, { type: 'title', title: episode(2) })
    ).json() as PartyView;
    expect([next.title.episode?.number, next.version]).toEqual([2, room.version + 1]);
    const again = (
      await command(t, room.id, host.token, { type: 'title', title: episode(2) })
    ).json() as PartyView;
    expect(again.version).toBe(next.version);
  });

  it('keeps p-stream’s player statuses per member id: five each, one account per id, signed in only', async () => {
    const post = (who: Customer | null, userId: string, time: number, roomCode = 'ROOM42') =>
      t.server.inject({
        method: 'POST',
        url: '/api/player/status',
        headers: who?.headers ?? {},
        payload: {
          userId,
          roomCode,
          isHost: userId === 'ana',
          content: { title: 'Inception', type: 'Movie', tmdbId: 27205 },
          player: {
            isPlaying: true,
            isPaused: false,
            isLoading: false,
            hasPlayedOnce: true,
            time,
            duration: 8880,
            playbackRate: 1,
            buffered: time + 30,
          },
        },
      });
    for (let i = 0; i < 7; i++) expect((await post(ana, 'ana', i)).json()).toMatchObject({ success: true });
    expect((await post(ben, 'ben', 3)).statusCode).toBe(200);
    expect(codeOf(await post(ben, 'ana', 99))).toBe('403 forbidden');
    expect((await post(null, 'eve', 1)).statusCode).toBe(401);
    const room = (
      await t.server.inject({ url: '/api/player/status?roomCode=ROOM42', headers: ben.headers })
    ).json() as { roomCode: string; users: Record<string, { player: { time: number } }[]> };
    expect(room.roomCode).toBe('ROOM42');
    expect(room.users.ana!.map((s) => s.player.time)).toEqual([2, 3, 4, 5, 6]);
    expect(Object.keys(room.users).sort()).toEqual(['ana', 'ben']);
    const one = (
      await t.server.inject({ url: '/api/player/status?roomCode=ROOM42&userId=ben', headers: ana.headers })
    ).json() as { statuses: unknown[] };
    expect(one.statuses).toHaveLength(1);
    expect(codeOf(await t.server.inject({ url: '/api/player/status', headers: ana.headers }))).toBe(
      '400 bad_request',
    );
    t.clock.advance(31 * 60_000);
    const later = (
      await t.server.inject({ url: '/api/player/status?roomCode=ROOM42', headers: ana.headers })
    ).json() as { users: Record<string, unknown> };
    expect(later.users).toEqual({});
  });
});

describe(`who may join a watch party (${testDialect})`, () => {
  let open: SyncTestApp;
  let paid: SyncTestApp;
  afterAll(async () => {
    await open?.close();
    await paid?.close();
  });
  beforeAll(async () => {
    open = await startSyncApp({
      env: { WATCH_PARTY_GUESTS: 'true' },
      deps: { accounts: { passwordCost: TEST_PASSWORD_COST } },
    });
    paid = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        AUTH_METHODS: 'email,passphrase',
        FREE_MOVIE_TMDB_ID: '603',
      },
      deps: { accounts: { passwordCost: TEST_PASSWORD_COST } },
    });
  });

  it('a signed-out guest joins by name where the operator allows it, and is told to sign in where not', async () => {
    const host = await signUp(open.server, { fullname: 'Host' });
    const party = ((await create(open, host)).json() as PartyJoined).party;
    const guest = await join(open, party.id, 'Cleo');
    expect(guest.statusCode, guest.body).toBe(200);
    expect((guest.json() as PartyJoined).party.members.at(-1)).toMatchObject({ name: 'Cleo', guest: true });
    expect(codeOf(await join(open, party.id, ''))).toBe('400 validation_failed');
    expect(codeOf(await join(open, party.id, 'A'.repeat(41)))).toBe('400 validation_failed');

    const member = await signUp(paid.server, { fullname: 'Paid host' });
    // No membership: the party's title cannot be played by this account, so no party for it.
    expect(codeOf(await create(paid, member))).toBe('402 membership_required');
    const free = ((await create(paid, member, { title: matrix })).json() as PartyJoined).party;
    expect(codeOf(await join(paid, free.id, 'Cleo'))).toBe('401 party_guests_closed');
    const friend = await signUp(paid.server, { fullname: 'Friend' });
    expect((await join(paid, free.id, 'Friend', friend.headers)).statusCode).toBe(200);
    expect(codeOf(await join(paid, free.id, 'Bad token', { authorization: 'Bearer nope' }))).toBe(
      '401 unauthorized',
    );
  });
});

describe('a watch party across two server processes on one Redis', () => {
  it('reaches members on either process, and goes on when the process one of them was on closes', async () => {
    const db = await createTestDatabase();
    const env = {
      REDIS_URL: testRedisUrl ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:`,
    };
    const deps = { accounts: { passwordCost: TEST_PASSWORD_COST } };
    const one = await listen(await startSyncApp({ env, deps, db }));
    const two = await listen(await startSyncApp({ env, deps, db }));
    try {
      const ana = await signUp(one.server, { fullname: 'Ana' });
      const ben = await signUp(two.server, { fullname: 'Ben' });
      const made = (await create(one, ana)).json() as PartyJoined;
      const joined = (await join(two, made.party.id, 'Ben', ben.headers)).json() as PartyJoined;
      const benHears = await openStream(two, made.party.id, joined.member.token);
      await stateAt(benHears, 2);
      const anaHears = await openStream(one, made.party.id, made.member.token);
      await stateAt(anaHears, 2);

      await command(one, made.party.id, made.member.token, { type: 'play', position: 5 });
      expect((await stateAt(benHears, 3)).playback).toMatchObject({ playing: true, position: 5 });
      await say(two, made.party.id, joined.member.token, { text: 'hi from two' });
      expect((await anaHears.waitFor('chat'))[0]!.data).toMatchObject({ text: 'hi from two' });

      // Ana's process closes; her client reconnects through the other and the party goes on.
      await closeApp(one);
      const anaBack = await openStream(two, made.party.id, made.member.token);
      expect((await stateAt(anaBack, 3)).playback).toMatchObject({ playing: true, position: 5 });
      await command(two, made.party.id, made.member.token, { type: 'pause', position: 9 });
      expect((await stateAt(benHears, 4)).playback).toMatchObject({ playing: false, position: 9 });
    } finally {
      for (const r of readers.splice(0)) r.close();
      await closeApp(two);
      if (one.server.server.listening) await closeApp(one);
      await db.destroy();
    }
  });
});
