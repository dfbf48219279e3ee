import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  errorResponses,
  listEndpoints,
  PROFILE_UNLOCK_TTL_MS,
  scrapeQuery,
  type CustomerUser,
  type Endpoint,
  type ProfileUnlockResponse,
} from '@marquee/contract';
import {
  callOn,
  loginCustomer,
  PASSWORD,
  signUp,
  TEST_PASSWORD_COST,
  type Caller,
  type Customer,
} from './customer-harness.ts';
import { movieMeta, showMeta, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Profile PINs (decision 104): every signed-in route of the contract is listed here as reading or
 * writing a profile's library (refused for a locked profile until this device entered its PIN) or as an
 * account route (with why), so a new endpoint states which it is and is tried locked and unlocked.
 */

type Scope =
  | { scope: 'profile'; params?: Record<string, string>; payload?: unknown }
  | { scope: 'account'; why: string };

const scopes: Record<string, Scope> = {
  'accounts.me': { scope: 'account', why: 'who is signed in' },
  'accounts.getUser': { scope: 'account', why: 'the account (name, colours), not a library' },
  'accounts.patchUser': { scope: 'account', why: 'the account’s own profile colours (passphrase clients)' },
  'accounts.deleteUser': {
    scope: 'account',
    why: 'closing the account; kids’ profiles are refused it (kids-profiles.test.ts)',
  },
  'accounts.userSessions': { scope: 'account', why: 'the account’s devices' },
  'accounts.deleteOtherSessions': { scope: 'account', why: 'the account’s devices' },
  'accounts.patchSession': { scope: 'account', why: 'the account’s devices' },
  'accounts.deleteSession': { scope: 'account', why: 'the account’s devices' },
  'sync.bookmarks': { scope: 'profile' },
  'sync.importBookmarks': { scope: 'profile', payload: [{ tmdbId: '1', meta: movieMeta('Added') }] },
  'sync.addBookmark': {
    scope: 'profile',
    params: { tmdbId: '2' },
    payload: { tmdbId: '2', meta: movieMeta('Added') },
  },
  'sync.deleteBookmark': { scope: 'profile', params: { tmdbId: '603' } },
  'sync.groupOrder': { scope: 'profile' },
  'sync.putGroupOrder': { scope: 'profile', payload: ['Added'] },
  'sync.progress': { scope: 'profile' },
  'sync.importProgress': {
    scope: 'profile',
    payload: [{ tmdbId: '3', meta: movieMeta('Added'), duration: 10, watched: 5 }],
  },
  'sync.putProgress': {
    scope: 'profile',
    params: { tmdbId: '4' },
    payload: { meta: movieMeta('Added'), duration: 10, watched: 5 },
  },
  'sync.deleteProgress': { scope: 'profile', params: { tmdbId: '1396' }, payload: {} },
  'sync.cleanupProgress': { scope: 'profile' },
  'sync.settings': { scope: 'profile' },
  'sync.putSettings': { scope: 'profile', payload: { applicationTheme: 'added' } },
  'sync.events': { scope: 'profile' },
  'history.watchHistory': { scope: 'profile' },
  'history.importWatchHistory': {
    scope: 'profile',
    payload: [
      { tmdbId: '5', meta: movieMeta('Added'), duration: 10, watched: 5, watchedAt: '2026-01-01T00:00:00Z' },
    ],
  },
  'history.putWatchHistory': {
    scope: 'profile',
    params: { tmdbId: '6' },
    payload: { meta: movieMeta('Added'), duration: 10, watched: 5, watchedAt: '2026-01-01T00:00:00Z' },
  },
  'history.deleteWatchHistory': { scope: 'profile', params: { tmdbId: '603' }, payload: {} },
  'ratings.ratings': { scope: 'profile' },
  'ratings.importRatings': {
    scope: 'profile',
    payload: [{ tmdbId: '7', type: 'movie', meta: movieMeta('Added'), rating: 1 }],
  },
  'ratings.postRating': { scope: 'profile', payload: { tmdb_id: 9, type: 'movie', rating: 1 } },
  'ratings.putRating': {
    scope: 'profile',
    params: { tmdbId: '8' },
    payload: { type: 'movie', meta: movieMeta('Added'), rating: 1 },
  },
  'ratings.deleteRating': { scope: 'profile', params: { tmdbId: '603' }, payload: {} },
  'trakt.status': { scope: 'profile' },
  'trakt.link': { scope: 'profile' },
  'trakt.unlink': { scope: 'profile' },
  'trakt.sync': { scope: 'profile' },
  'trakt.scrobble': {
    scope: 'profile',
    payload: { action: 'start', tmdbId: '603', type: 'movie', progress: 1 },
  },
  'customers.me': { scope: 'account', why: 'the profile picker reads it (which profiles are locked)' },
  'customers.update': { scope: 'account', why: 'guarded per profile it changes: tested below' },
  'customers.password': { scope: 'account', why: 'the account’s password' },
  'customers.createProfile': { scope: 'account', why: 'a new profile has no PIN yet' },
  'customers.patchProfile': { scope: 'account', why: 'guarded for a locked profile: tested below' },
  'customers.deleteProfile': { scope: 'account', why: 'guarded for a locked profile: tested below' },
  'customers.setProfilePin': { scope: 'account', why: 'proved with the PIN or the password: tested below' },
  'customers.unlockProfile': { scope: 'account', why: 'how a locked profile is opened' },
  'customers.enterProfile': {
    scope: 'account',
    why: 'which profile this device shows; leaving a kids’ profile needs the next one’s PIN (kids-profiles.test.ts)',
  },
  'passkeys.registerOptions': {
    scope: 'account',
    why: 'a way into the account (kids’ profiles are refused it)',
  },
  'passkeys.register': {
    scope: 'account',
    why: 'a way into the account, proved with the password or 12 words',
  },
  'passkeys.list': { scope: 'account', why: 'the account’s ways in' },
  'passkeys.remove': { scope: 'account', why: 'the account’s ways in' },
  'deviceLinks.byCode': { scope: 'account', why: 'letting another device into the account' },
  'segments.markSegment': {
    scope: 'account',
    why: 'a mark is the account’s, shared on the instance; it needs the video’s token, which a locked profile is not given (decision 111)',
  },
  'segments.unmarkSegment': { scope: 'account', why: 'takes back the account’s own mark (decision 111)' },
  'parties.create': {
    scope: 'account',
    why: 'a party is the account’s; playing its title checks the profile’s lock (parties.test.ts)',
  },
  'parties.postPlayerStatus': { scope: 'account', why: 'p-stream’s party status: no library data' },
  'parties.playerStatus': { scope: 'account', why: 'p-stream’s party status: no library data' },
  'deviceLinks.approve': { scope: 'account', why: 'letting another device into the account (password)' },
  'membership.subscribe': { scope: 'account', why: 'the account’s membership' },
  'membership.subscribeAlias': { scope: 'account', why: 'the account’s membership' },
  'membership.membership': { scope: 'account', why: 'the account’s membership' },
  'membership.payment': { scope: 'account', why: 'the account’s payments' },
  'membership.simulatePaid': { scope: 'account', why: 'the account’s payments' },
  'membership.checkPromo': { scope: 'account', why: 'the account’s membership' },
};

const PIN = '2468';

describe(`profile PINs (${testDialect})`, () => {
  let t: SyncTestApp;
  let owner: Customer;
  /** The same account on a second device. */
  let tv: Customer;
  let kid: string;
  let teen: string;
  let kidToken: string;

  const call: Caller = (...args) => callOn(t.server, ...args);
  const setPin = (who: Customer, body: object) =>
    call('PUT', `/customers/${who.user.id}/profile-pin`, who.headers, body);
  const unlock = (who: Customer, profileId: string, pin: string) =>
    call('POST', `/customers/${who.user.id}/profile-unlock`, who.headers, { profileId, pin });
  const tokenOf = async (who: Customer, profileId: string, pin = PIN) => {
    const res = await unlock(who, profileId, pin);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as ProfileUnlockResponse).token;
  };
  const as = (who: Customer, profileId: string, token?: string) => ({
    ...who.headers,
    'x-profile-id': profileId,
    ...(token !== undefined ? { 'x-profile-token': token } : {}),
  });
  const kidRows = async () =>
    JSON.stringify(
      await Promise.all(
        (['bookmarks', 'progress_items', 'watch_history', 'ratings', 'user_settings'] as const).map((table) =>
          t.db.db.selectFrom(table).selectAll().where('profile_id', '=', kid).execute(),
        ),
      ),
    );
  const expectLocked = (res: { statusCode: number; body: string }, endpoint?: Endpoint) => {
    expect(res.statusCode, res.body).toBe(403);
    expect((JSON.parse(res.body) as { code: string }).code).toBe('profile_locked');
    if (endpoint) expect(errorResponses(endpoint).get(403) ?? []).toContain('profile_locked');
  };

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } } });
    owner = await signUp(t.server, { fullname: 'Parent' });
    tv = await loginCustomer(t.server, owner.email);
    const made = async (fullname: string) => {
      const res = await call('POST', `/customers/${owner.user.id}/profiles`, owner.headers, {
        fullname,
        icon: 'cat',
      });
      return (res.json() as { profile: { _id: string } }).profile._id;
    };
    kid = await made('Kid');
    teen = await made('Teen');
    // The kid's library before the lock.
    await call('PUT', `/users/${owner.user.id}/progress/1396`, as(owner, kid), {
      meta: showMeta(),
      duration: 2900,
      watched: 600,
      seasonId: 's',
      episodeId: 'e',
    });
    const locked = await setPin(owner, { profileId: kid, pin: PIN, password: PASSWORD });
    expect(locked.statusCode, locked.body).toBe(200);
    kidToken = await tokenOf(owner, kid);
  });
  afterAll(async () => t.close());

  it('lists every signed-in endpoint of the contract as a profile or an account route', () => {
    const signedIn = listEndpoints().filter(({ endpoint }) => endpoint.auth === 'session');
    expect(signedIn.filter(({ id }) => !scopes[id]).map(({ id }) => id)).toEqual([]);
    expect(Object.keys(scopes).filter((id) => !signedIn.some((e) => e.id === id))).toEqual([]);
  });

  it('shows which profiles are locked, and nothing of the PIN', async () => {
    const res = await call('GET', '/customers', owner.headers);
    const user = (res.json() as { user: CustomerUser }).user;
    expect(user.hasPin).toBe(false);
    expect(user.profiles.map((p) => [p.fullname, p.hasPin])).toEqual([
      ['Kid', true],
      ['Teen', false],
    ]);
    expect(res.body).not.toContain(PIN);
  });

  const profileCases = listEndpoints().flatMap(({ id, endpoint }) => {
    const entry = scopes[id];
    return entry?.scope === 'profile' && endpoint.auth === 'session' ? [{ id, endpoint, entry }] : [];
  });
  const urlOf = (c: (typeof profileCases)[number]) =>
    buildPath(c.endpoint.path, { uid: owner.user.id, ...c.entry.params });

  it.each(profileCases.map((c) => [`${c.endpoint.method} ${c.endpoint.path}`, c] as const))(
    '%s: a locked profile is refused until this device entered its PIN',
    async (_name, c) => {
      const before = await kidRows();
      const send = (headers: Record<string, string>) =>
        c.endpoint.method === 'GET' && c.id === 'sync.events'
          ? // The stream never ends: its refusal comes before it opens, which is all this checks.
            call('GET', urlOf(c), headers)
          : call(c.endpoint.method, urlOf(c), headers, c.entry.payload);
      if (c.id === 'sync.events') {
        expectLocked(await send(as(owner, kid)), c.endpoint);
        return;
      }
      const otherDevice = await tokenOf(tv, kid);
      const [payload, signature] = kidToken.split('.') as [string, string];
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), e: Date.now() * 2 }),
      ).toString('base64url');
      for (const token of [
        undefined,
        '',
        'garbage',
        `${kidToken}x`,
        `${payload}.${signature.slice(0, -2)}AA`,
        `${forged}.${signature}`,
        `${kidToken}.${signature}`,
        'x'.repeat(5000),
        otherDevice, // entered on the TV: not this device's
      ])
        expectLocked(await send(as(owner, kid, token)), c.endpoint);
      expect(await kidRows()).toBe(before);

      // Unlocked on this device — and for a profile without a PIN, or the account's own, with nothing —
      // the route does its work: a success, or a refusal of its own the contract declares (Trakt without
      // an app here), never the lock.
      for (const headers of [as(owner, kid, kidToken), as(owner, teen), owner.headers]) {
        const res = await send(headers);
        if (res.statusCode >= 400) {
          const code = (res.json() as { code: string }).code;
          expect(code, res.body).not.toBe('profile_locked');
          expect(errorResponses(c.endpoint).get(res.statusCode as 400) ?? [], res.body).toContain(code);
        }
      }
    },
  );

  it('lets the TV in with its own unlock, and a new PIN ends every unlock made before', async () => {
    const tvToken = await tokenOf(tv, kid);
    const read = (who: Customer, token: string) =>
      call('GET', `/users/${owner.user.id}/progress`, as(who, kid, token));
    expect((await read(tv, tvToken)).statusCode).toBe(200);
    expect((await read(owner, kidToken)).statusCode).toBe(200);

    const changed = await setPin(owner, { profileId: kid, pin: '1357', currentPin: PIN });
    expect(changed.statusCode, changed.body).toBe(200);
    expectLocked(await read(tv, tvToken));
    expectLocked(await read(owner, kidToken));
    expect((await unlock(owner, kid, PIN)).json().code).toBe('pin_incorrect');
    kidToken = await tokenOf(owner, kid, '1357');
    expect((await read(owner, kidToken)).statusCode).toBe(200);
    // Back to the first PIN, for the other tests.
    expect((await setPin(owner, { profileId: kid, pin: PIN, currentPin: '1357' })).statusCode).toBe(200);
    kidToken = await tokenOf(owner, kid);
  });

  it('ends an unlock after its lifetime', async () => {
    const token = await tokenOf(owner, kid);
    const read = () => call('GET', `/users/${owner.user.id}/settings`, as(owner, kid, token));
    expect((await read()).statusCode).toBe(200);
    t.clock.advance(PROFILE_UNLOCK_TTL_MS + 1);
    expectLocked(await read());
    // Sessions outlive it: entering the PIN again opens the profile.
    kidToken = await tokenOf(owner, kid);
  });

  it('asks for the current PIN or the account password to set, change or remove a PIN', async () => {
    const code = async (body: object) => {
      const res = await setPin(owner, body);
      return res.statusCode === 200 ? 200 : `${res.statusCode} ${res.json().code}`;
    };
    expect(await code({ profileId: teen, pin: '1111' })).toBe('403 pin_proof_required');
    expect(await code({ profileId: teen, pin: '1111', currentPin: '0000' })).toBe('403 pin_proof_required');
    expect(await code({ profileId: teen, pin: '1111', password: 'wrong password' })).toBe(
      '403 password_incorrect',
    );
    expect(await code({ profileId: kid, pin: null })).toBe('403 pin_proof_required');
    expect(await code({ profileId: kid, pin: null, currentPin: '0000' })).toBe('403 pin_incorrect');
    expect(await code({ profileId: 'no-such-profile', pin: '1111', password: PASSWORD })).toBe(
      '404 profile_not_found',
    );
    for (const pin of ['123', '1234567', 'abcd', '12 34', '١٢٣٤'])
      expect(await code({ profileId: teen, pin, password: PASSWORD })).toBe('400 validation_failed');
    // Another account's profile is not found, as an unknown one.
    const stranger = await signUp(t.server);
    const theirs = await setPin(stranger, { profileId: kid, pin: '1111', password: PASSWORD });
    expect([theirs.statusCode, theirs.json().code]).toEqual([404, 'profile_not_found']);
    expect((await unlock(stranger, kid, PIN)).json().code).toBe('profile_not_found');

    // The owner's own profile can be locked too, and opened again with the password.
    expect(await code({ profileId: '', pin: '9999', password: PASSWORD })).toBe(200);
    expectLocked(await call('GET', `/users/${owner.user.id}/bookmarks`, owner.headers));
    expectLocked(
      await call('POST', `/customers/${owner.user.id}/update`, owner.headers, { fullname: 'Renamed' }),
    );
    const own = await tokenOf(owner, '', '9999');
    const ownHeaders = { ...owner.headers, 'x-profile-token': own };
    expect((await call('GET', `/users/${owner.user.id}/bookmarks`, ownHeaders)).statusCode).toBe(200);
    expect(await code({ profileId: '', pin: null, password: PASSWORD })).toBe(200);
    expect((await call('GET', `/users/${owner.user.id}/bookmarks`, owner.headers)).statusCode).toBe(200);
  });

  it('keeps a locked profile from being renamed or deleted, alone or through the profile list', async () => {
    const base = `/customers/${owner.user.id}`;
    expectLocked(await call('PATCH', `${base}/profiles/${kid}`, owner.headers, { fullname: 'Renamed' }));
    expectLocked(await call('DELETE', `${base}/profiles/${kid}`, owner.headers));
    expectLocked(
      await call('POST', `${base}/update`, owner.headers, {
        profiles: [{ _id: teen, fullname: 'Teen', icon: 'cat' }],
      }),
    );
    // The list may keep the locked profile as it is while changing the others.
    const kept = await call('POST', `${base}/update`, owner.headers, {
      profiles: [
        { _id: kid, fullname: 'Kid', icon: 'cat' },
        { _id: teen, fullname: 'Teenager', icon: 'couch' },
      ],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    const renamed = await call('PATCH', `${base}/profiles/${kid}`, as(owner, kid, kidToken), {
      fullname: 'Little one',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().profile).toMatchObject({ fullname: 'Little one', hasPin: true });
  });

  it('refuses playback for a locked profile until this device entered its PIN; anonymous playback is not a profile', async () => {
    const url = `/scrape?${new URLSearchParams(
      scrapeQuery({ type: 'movie', title: 'Inception', releaseYear: 2010, tmdbId: '27205' }),
    )}`;
    const isStream = (res: { statusCode: number; headers: Record<string, unknown> }) =>
      res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream');
    const scrape = listEndpoints().find(({ id }) => id === 'sources.scrape')!.endpoint;
    expectLocked(await call('GET', url, as(owner, kid)), scrape);
    expectLocked(await call('GET', url, as(owner, kid, 'forged.token')), scrape);
    expect(isStream(await call('GET', url, as(owner, kid, kidToken)))).toBe(true);
    expect(isStream(await call('GET', url, as(owner, teen)))).toBe(true);
    expect(isStream(await call('GET', url, {}))).toBe(true);
    // Someone else's profile id is not theirs to play for.
    const stranger = await signUp(t.server);
    const res = await call('GET', url, as(stranger, kid));
    expect([res.statusCode, res.json().code]).toEqual([404, 'profile_not_found']);
  });
});

describe(`profile PIN guessing (${testDialect})`, () => {
  let t: SyncTestApp;
  let owner: Customer;
  let kid: string;
  let teen: string;

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { passwordCost: TEST_PASSWORD_COST } } });
    owner = await signUp(t.server);
    const made = async (fullname: string) =>
      (
        await t.server.inject({
          method: 'POST',
          url: `/customers/${owner.user.id}/profiles`,
          headers: owner.headers,
          payload: { fullname, icon: 'cat' },
        })
      ).json().profile._id as string;
    kid = await made('Kid');
    teen = await made('Teen');
    for (const profileId of [kid, teen]) {
      const res = await t.server.inject({
        method: 'PUT',
        url: `/customers/${owner.user.id}/profile-pin`,
        headers: owner.headers,
        payload: { profileId, pin: PIN, password: PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => t.close());

  const unlock = (who: Customer, profileId: string, pin: string) =>
    t.server.inject({
      method: 'POST',
      url: `/customers/${who.user.id}/profile-unlock`,
      headers: who.headers,
      payload: { profileId, pin },
    });

  it('makes a guesser wait after five wrong PINs, even with the right one then, and never answers 5xx', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await unlock(owner, kid, String(1000 + i));
      answers.push(`${res.statusCode} ${res.json().code}`);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill('403 pin_incorrect'));
    expect(answers.slice(5)).toEqual(Array(2).fill('429 rate_limited'));
    // The right PIN during the wait tells nothing either.
    expect((await unlock(owner, kid, PIN)).statusCode).toBe(429);
    // The wait is the profile's, from every device.
    const tv = await loginCustomer(t.server, owner.email);
    expect((await unlock(tv, kid, PIN)).statusCode).toBe(429);
    // Another profile is not held by the kid's wait.
    expect((await unlock(tv, teen, PIN)).statusCode).toBe(200);
  });

  it('makes one device wait after ten wrong PINs across profiles', async () => {
    const laptop = await loginCustomer(t.server, owner.email);
    const guesses: number[] = [];
    // Four on each of two profiles (under their own limits), then more on a third: the device's tenth
    // failure makes it wait, whichever profile it tries.
    const third = (
      await t.server.inject({
        method: 'POST',
        url: `/customers/${owner.user.id}/profiles`,
        headers: owner.headers,
        payload: { fullname: 'Guest', icon: 'cat' },
      })
    ).json().profile._id as string;
    await t.server.inject({
      method: 'PUT',
      url: `/customers/${owner.user.id}/profile-pin`,
      headers: owner.headers,
      payload: { profileId: third, pin: PIN, password: PASSWORD },
    });
    for (const profileId of [teen, third]) {
      for (let i = 0; i < 4; i++) guesses.push((await unlock(laptop, profileId, '0000')).statusCode);
    }
    const own = (
      await t.server.inject({
        method: 'PUT',
        url: `/customers/${owner.user.id}/profile-pin`,
        headers: owner.headers,
        payload: { profileId: '', pin: PIN, password: PASSWORD },
      })
    ).statusCode;
    expect(own).toBe(200);
    guesses.push((await unlock(laptop, '', '0000')).statusCode);
    guesses.push((await unlock(laptop, '', '0000')).statusCode);
    expect(guesses).toEqual([...Array(10).fill(403)]);
    expect((await unlock(laptop, '', PIN)).statusCode).toBe(429);
    // Another device is not held by this one's guesses.
    expect((await unlock(owner, '', PIN)).statusCode).toBe(200);
  });
});
