import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildPath,
  errorCodes,
  errorResponses,
  isStreamEndpoint,
  listEndpoints,
  type Endpoint,
  type ErrorStatus,
  type SubscriptionResponse,
} from '@marquee/contract';
import { loginCustomer, signUp, TEST_PASSWORD_COST } from './customer-harness.ts';
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

const DAY = 24 * 60 * 60_000;
const ADMIN_EMAIL = 'matrix-admin@example.org';
/** The accounts here are passphrase accounts: their profile names come sealed (decision 108). */
const SEALED_NAME = 'aW5qZWN0ZWQ=.aW5qZWN0ZWQ=.aW5qZWN0ZWQ=';

/** The ids a route's path needs, of the account whose data it touches. */
interface Ids {
  uid: string;
  sid: string;
  profileId: string;
  paymentId: string;
}

/** Who may call an endpoint and how to call it so that it succeeds for its rightful caller. */
type Entry =
  /** Anyone may call it (auth `none` / `optional`): nothing to refuse. */
  | { access: 'public'; why: string }
  | {
      /** Signed-in callers (auth `session`). */
      access: 'owner';
      /** Path parameters besides those of Ids. */
      params?: Record<string, string>;
      payload?: unknown;
      /**
       * What another user's token gets on the victim's data: 403 (`:uid` is checked), 404 (the id is
       * looked up among the caller's own rows), or `self` (the route is about the caller only).
       */
      foreign: 403 | 404 | 'self';
      /** Only email accounts get 200 (the others answer a typed 400). */
      emailOnly?: true;
      /** What the owner gets here when it is not the route's success status, and why. */
      owner?: { status: number; why: string };
    }
  | { access: 'admin'; payload?: unknown };

const subscription = { planId: 2, criptoName: 'BTC', code: null };

/**
 * One entry per contract endpoint (contractEndpoints, by `group.name`): an endpoint without one fails the
 * suite, so a new endpoint states who may call it and is tried with bad, foreign and admin-less tokens.
 */
const entries: Record<string, Entry> = {
  'accounts.meta': { access: 'public', why: 'instance name and captcha needs' },
  'accounts.captchaChallenge': { access: 'public', why: 'a captcha to solve before signing up' },
  'accounts.registerStart': { access: 'public', why: 'sign-up' },
  'accounts.registerComplete': { access: 'public', why: 'sign-up' },
  'accounts.loginStart': { access: 'public', why: 'sign-in' },
  'accounts.loginComplete': { access: 'public', why: 'sign-in' },
  'accounts.me': { access: 'owner', foreign: 'self' },
  'accounts.getUser': { access: 'owner', foreign: 403 },
  'accounts.patchUser': {
    access: 'owner',
    foreign: 403,
    payload: { profile: { colorA: 'x', colorB: 'y', icon: 'z' } },
  },
  'accounts.deleteUser': { access: 'owner', foreign: 403 },
  'accounts.userSessions': { access: 'owner', foreign: 403 },
  'accounts.deleteOtherSessions': { access: 'owner', foreign: 403 },
  'accounts.patchSession': { access: 'owner', foreign: 403, payload: { deviceName: 'renamed' } },
  'accounts.deleteSession': { access: 'owner', foreign: 403 },
  'accounts.providerMetrics': { access: 'public', why: 'anonymous scrape statistics' },
  'accounts.captchaMetrics': { access: 'public', why: 'anonymous captcha statistics' },
  'sync.bookmarks': { access: 'owner', foreign: 403 },
  'sync.importBookmarks': {
    access: 'owner',
    foreign: 403,
    payload: [{ tmdbId: '1', meta: movieMeta('Injected') }],
  },
  'sync.addBookmark': {
    access: 'owner',
    foreign: 403,
    params: { tmdbId: '2' },
    payload: { tmdbId: '2', meta: movieMeta('Injected') },
  },
  'sync.deleteBookmark': { access: 'owner', foreign: 403, params: { tmdbId: '603' } },
  'sync.groupOrder': { access: 'owner', foreign: 403 },
  'sync.putGroupOrder': { access: 'owner', foreign: 403, payload: ['Injected'] },
  'sync.progress': { access: 'owner', foreign: 403 },
  'sync.importProgress': {
    access: 'owner',
    foreign: 403,
    payload: [{ tmdbId: '3', meta: movieMeta('Injected'), duration: 10, watched: 5 }],
  },
  'sync.putProgress': {
    access: 'owner',
    foreign: 403,
    params: { tmdbId: '4' },
    payload: { meta: movieMeta('Injected'), duration: 10, watched: 5 },
  },
  'sync.deleteProgress': { access: 'owner', foreign: 403, params: { tmdbId: '1396' }, payload: {} },
  'sync.cleanupProgress': { access: 'owner', foreign: 403 },
  'history.watchHistory': { access: 'owner', foreign: 403 },
  'trakt.status': { access: 'owner', foreign: 403 },
  'trakt.link': {
    access: 'owner',
    foreign: 403,
    owner: { status: 503, why: 'this instance has no Trakt app; linking is in trakt-sync.test.ts' },
  },
  'trakt.unlink': { access: 'owner', foreign: 403 },
  'trakt.sync': {
    access: 'owner',
    foreign: 403,
    owner: { status: 409, why: 'nothing is linked here; a linked library syncs in trakt-sync.test.ts' },
  },
  'trakt.scrobble': {
    access: 'owner',
    foreign: 403,
    payload: { action: 'start', tmdbId: '603', type: 'movie', progress: 1 },
  },
  'history.importWatchHistory': {
    access: 'owner',
    foreign: 403,
    payload: [
      {
        tmdbId: '5',
        meta: movieMeta('Injected'),
        duration: 10,
        watched: 5,
        watchedAt: '2026-01-01T00:00:00Z',
      },
    ],
  },
  'history.putWatchHistory': {
    access: 'owner',
    foreign: 403,
    params: { tmdbId: '6' },
    payload: { meta: movieMeta('Injected'), duration: 10, watched: 5, watchedAt: '2026-01-01T00:00:00Z' },
  },
  'history.deleteWatchHistory': { access: 'owner', foreign: 403, params: { tmdbId: '603' }, payload: {} },
  'ratings.ratings': { access: 'owner', foreign: 403 },
  'ratings.importRatings': {
    access: 'owner',
    foreign: 403,
    payload: [{ tmdbId: '7', type: 'movie', meta: movieMeta('Injected'), rating: 1 }],
  },
  'ratings.postRating': {
    access: 'owner',
    foreign: 403,
    payload: { tmdb_id: 9, type: 'movie', rating: 1 },
  },
  'ratings.putRating': {
    access: 'owner',
    foreign: 403,
    params: { tmdbId: '8' },
    payload: { type: 'movie', meta: movieMeta('Injected'), rating: 1 },
  },
  'ratings.deleteRating': { access: 'owner', foreign: 403, params: { tmdbId: '603' }, payload: {} },
  'sync.settings': { access: 'owner', foreign: 403 },
  'sync.putSettings': { access: 'owner', foreign: 403, payload: { applicationTheme: 'injected' } },
  'sync.events': { access: 'owner', foreign: 403 },
  'customers.register': { access: 'public', why: 'sign-up' },
  'customers.login': { access: 'public', why: 'sign-in' },
  'customers.me': { access: 'owner', foreign: 'self' },
  'customers.update': { access: 'owner', foreign: 403, payload: { fullname: SEALED_NAME } },
  'customers.password': {
    access: 'owner',
    foreign: 403,
    emailOnly: true,
    payload: { password: 'injected password', confirm: 'injected password' },
  },
  'customers.createProfile': {
    access: 'owner',
    foreign: 403,
    payload: { fullname: SEALED_NAME, icon: 'cat' },
  },
  'customers.patchProfile': { access: 'owner', foreign: 403, payload: { fullname: SEALED_NAME } },
  'customers.deleteProfile': { access: 'owner', foreign: 403 },
  'customers.setProfilePin': {
    access: 'owner',
    foreign: 403,
    emailOnly: true,
    owner: { status: 403, why: 'the password proof is wrong here; the rules are in profile-locks.test.ts' },
    payload: { profileId: '', pin: '2468', password: 'not the password' },
  },
  'deviceLinks.create': { access: 'public', why: 'a new device asks for a sign-in code' },
  'deviceLinks.poll': { access: 'public', why: 'the new device, with the poll token only it holds' },
  'deviceLinks.byCode': {
    access: 'owner',
    foreign: 'self',
    params: { code: '000000' },
    owner: { status: 404, why: 'no device waits with this code; the flow is in device-links.test.ts' },
  },
  'deviceLinks.approve': {
    access: 'owner',
    foreign: 'self',
    params: { code: '000000' },
    payload: { password: 'not the password' },
    owner: { status: 404, why: 'no device waits with this code; the flow is in device-links.test.ts' },
  },
  'parties.clock': { access: 'public', why: 'members keep their offset from the server clock' },
  'parties.create': {
    access: 'owner',
    foreign: 'self',
    payload: {
      title: { type: 'movie', title: 'Inception', tmdbId: '27205', releaseYear: 2010 },
      name: 'Ana',
    },
  },
  'parties.preview': { access: 'public', why: 'the invite link shows what the party watches before joining' },
  'parties.get': { access: 'public', why: 'a member, by the party token only it holds (parties.test.ts)' },
  'parties.join': {
    access: 'public',
    why: 'the invite link; who may play the title is checked (parties.test.ts)',
  },
  'parties.leave': { access: 'public', why: 'a member, by the party token only it holds' },
  'parties.events': { access: 'public', why: 'a member, by the party token only it holds' },
  'parties.command': { access: 'public', why: 'a member, by the party token only it holds' },
  'parties.message': { access: 'public', why: 'a member, by the party token only it holds' },
  'parties.postPlayerStatus': {
    access: 'owner',
    foreign: 'self',
    payload: { userId: 'matrix-member', roomCode: 'MATRIX' },
  },
  'parties.playerStatus': {
    access: 'owner',
    foreign: 'self',
    owner: { status: 400, why: 'names no room (roomCode); the answers are in parties.test.ts' },
  },
  'passkeys.registerOptions': { access: 'owner', foreign: 'self' },
  'passkeys.register': {
    access: 'owner',
    foreign: 'self',
    payload: {
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
      },
      name: SEALED_NAME,
      wrappedSeed: { iv: 'A'.repeat(16), ciphertext: 'A'.repeat(64) },
    },
    owner: { status: 403, why: 'no fresh proof of the owner given; the ceremony is in passkeys.test.ts' },
  },
  'passkeys.loginOptions': { access: 'public', why: 'a device signs in with a passkey' },
  'passkeys.login': { access: 'public', why: 'a device signs in with a passkey' },
  'passkeys.list': { access: 'owner', foreign: 403 },
  'passkeys.remove': {
    access: 'owner',
    foreign: 403,
    params: { passkeyId: 'no-such-passkey' },
    owner: { status: 404, why: 'no such passkey; removal is in passkeys.test.ts' },
  },
  'customers.unlockProfile': { access: 'owner', foreign: 403, payload: { profileId: '', pin: '0000' } },
  'customers.enterProfile': { access: 'owner', foreign: 403, payload: { profileId: '' } },
  'membership.plans': { access: 'public', why: 'the landing page shows the prices' },
  'membership.cryptoList': { access: 'public', why: 'payment options before signing in' },
  'membership.cryptoListAlias': { access: 'public', why: 'payment options before signing in' },
  'membership.subscribe': { access: 'owner', foreign: 403, payload: subscription },
  'membership.subscribeAlias': { access: 'owner', foreign: 403, payload: subscription },
  'membership.membership': { access: 'owner', foreign: 'self' },
  'membership.payment': { access: 'owner', foreign: 404 },
  'membership.simulatePaid': { access: 'owner', foreign: 404 },
  'membership.promos': { access: 'admin' },
  'membership.createPromo': { access: 'admin', payload: { rate: 20 } },
  'membership.checkPromo': { access: 'owner', foreign: 'self', params: { code: 'NOSUCHCODE' } },
  'membership.adminPayments': { access: 'admin' },
  'membership.selfTest': { access: 'admin' },
  'membership.libraryStatus': { access: 'admin' },
  'membership.libraryScan': { access: 'admin' },
  'metadata.search': { access: 'public', why: 'catalogue' },
  'metadata.list': { access: 'public', why: 'catalogue' },
  'metadata.genres': { access: 'public', why: 'catalogue' },
  'metadata.discover': { access: 'public', why: 'catalogue' },
  'metadata.details': { access: 'public', why: 'catalogue' },
  'metadata.season': { access: 'public', why: 'catalogue' },
  'metadata.findByImdb': { access: 'public', why: 'catalogue' },
  'metadata.legacyJustWatch': { access: 'public', why: 'catalogue' },
  'metadata.match': {
    access: 'public',
    why: 'an export’s titles are matched before the import, signed in or out',
  },
  'config.runtimeConfig': { access: 'public', why: 'the web app reads it before anyone signs in' },
  'sources.scrape': {
    access: 'public',
    why: 'captcha gate and membership gate instead (sources-api, playback-gating)',
  },
  'sources.scrapeSource': {
    access: 'public',
    why: 'captcha gate and membership gate instead (sources-api, playback-gating)',
  },
  'sources.scrapeEmbed': { access: 'public', why: 'captcha gate instead (sources-api)' },
  'sources.providerMetadata': { access: 'public', why: 'the list of providers' },
  'segments.segments': {
    access: 'public',
    why: 'read under the video’s signed access token, refused as its media is (segments.test.ts)',
  },
  'segments.markSegment': {
    access: 'owner',
    foreign: 'self',
    params: { access: 'not-a-token', fileId: 'A'.repeat(22), type: 'intro' },
    payload: { start: 0, end: 30 },
    owner: { status: 403, why: 'no media token here; marks and their refusals are in segments.test.ts' },
  },
  'segments.unmarkSegment': {
    access: 'owner',
    foreign: 'self',
    params: { access: 'not-a-token', fileId: 'A'.repeat(22), type: 'intro' },
    owner: { status: 403, why: 'no media token here; marks and their refusals are in segments.test.ts' },
  },
  'jobs.status': { access: 'admin' },
  'cast.uploadCaption': {
    access: 'public',
    why: 'signed-out viewers cast too; counted per address (cast-captions.test.ts, decision 113)',
  },
};

const expectedAccess = { none: 'public', optional: 'public', session: 'owner', admin: 'admin' } as const;

interface Case {
  id: string;
  endpoint: Endpoint;
  entry: Exclude<Entry, { access: 'public' }>;
}
const cases: Case[] = listEndpoints().flatMap(({ id, endpoint }) => {
  const entry = entries[id];
  return entry && entry.access !== 'public' ? [{ id, endpoint, entry }] : [];
});
const label = (c: Case) => `${c.endpoint.method} ${c.endpoint.path}`;

const urlOf = (c: Case, ids: Ids) =>
  buildPath(c.endpoint.path, { ...ids, ...(c.entry.access === 'owner' ? c.entry.params : {}) });

describe(`authorization matrix (${testDialect})`, () => {
  let t: SyncTestApp;
  let victim: SignedIn;
  let attacker: SignedIn;
  let expiredToken: string;
  let revokedToken: string;
  let snapshot: () => Promise<string>;
  let victimIds: Ids;

  /** A profile and a payment request of the account (the ids the profile and payment routes need). */
  const dataOf = async (uid: string, sid: string, headers: Record<string, string>): Promise<Ids> => {
    const profile = await t.server.inject({
      method: 'POST',
      url: `/customers/${uid}/profiles`,
      headers,
      payload: { fullname: SEALED_NAME, icon: 'cat' },
    });
    const payment = await t.server.inject({
      method: 'POST',
      url: `/customers/${uid}/suscription`,
      headers,
      payload: subscription,
    });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(payment.statusCode, payment.body).toBe(200);
    return {
      uid,
      sid,
      profileId: (profile.json() as { profile: { _id: string } }).profile._id,
      paymentId: (payment.json() as SubscriptionResponse).payment.id,
    };
  };

  beforeAll(async () => {
    t = await startSyncApp({
      env: { ADMIN_EMAILS: ADMIN_EMAIL },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    const stale = await register(t.server);
    t.clock.advance(22 * DAY);
    expiredToken = stale.token;
    victim = await register(t.server, { device: 'Victim phone' });
    attacker = await register(t.server);
    const revoked = await login(t.server, victim.keys);
    await t.server.inject({
      method: 'DELETE',
      url: `/sessions/${revoked.session.id}`,
      headers: revoked.headers,
    });
    revokedToken = revoked.token;
    const u = victim.user.id;
    const h = victim.headers;
    victimIds = await dataOf(victim.user.id, victim.session.id, h);
    await t.server.inject({
      method: 'POST',
      url: `/users/${u}/bookmarks/603`,
      headers: h,
      payload: { meta: movieMeta() },
    });
    await t.server.inject({
      method: 'PUT',
      url: `/users/${u}/progress/1396`,
      headers: h,
      payload: { meta: showMeta(), duration: 2900, watched: 600, seasonId: 's', episodeId: 'e' },
    });
    await t.server.inject({
      method: 'PUT',
      url: `/users/${u}/settings`,
      headers: h,
      payload: { applicationLanguage: 'nl' },
    });
    await t.server.inject({
      method: 'PUT',
      url: `/users/${u}/ratings/603`,
      headers: h,
      payload: { type: 'movie', meta: movieMeta(), rating: 9 },
    });
    snapshot = async () => {
      const db = t.db.db;
      const rows = await Promise.all([
        db.selectFrom('users').selectAll().where('id', '=', u).execute(),
        db
          .selectFrom('sessions')
          .select(['id', 'device', 'expires_at'])
          .where('user_id', '=', u)
          .orderBy('id')
          .execute(),
        db.selectFrom('bookmarks').selectAll().where('user_id', '=', u).orderBy('tmdb_id').execute(),
        db.selectFrom('progress_items').selectAll().where('user_id', '=', u).orderBy('id').execute(),
        db.selectFrom('progress_deletions').selectAll().where('user_id', '=', u).execute(),
        db.selectFrom('user_settings').selectAll().where('user_id', '=', u).execute(),
        db.selectFrom('ratings').selectAll().where('user_id', '=', u).orderBy('tmdb_id').execute(),
        db.selectFrom('profiles').selectAll().where('user_id', '=', u).execute(),
        db.selectFrom('payments').selectAll().where('user_id', '=', u).execute(),
      ]);
      return JSON.stringify(rows);
    };
  });
  afterAll(async () => t.close());

  const send = (c: Case, authorization: string | undefined, ids: Ids = victimIds) =>
    t.server.inject({
      method: c.endpoint.method,
      url: urlOf(c, ids),
      headers: authorization === undefined ? {} : { authorization },
      ...(c.entry.payload !== undefined ? { payload: c.entry.payload as object } : {}),
    });

  const expectError = (res: { statusCode: number; body: string }, status: number, c?: Case) => {
    expect(res.statusCode, res.body).toBe(status);
    const parsed = JSON.parse(res.body) as { errorType: string; code: string };
    expect(parsed.errorType).toBe('message');
    expect(errorCodes).toContain(parsed.code);
    // A refusal the contract declares for this route and status (so OpenAPI and clients know it).
    if (c)
      expect(errorResponses(c.endpoint).get(status as ErrorStatus) ?? [], res.body).toContain(parsed.code);
    // Never a trace of the victim's data in an error.
    expect(res.body).not.toContain(victim.user.id);
    expect(res.body).not.toContain('Victim');
  };

  const badTokens = () =>
    [
      ['no token', undefined],
      ['empty header', ''],
      ['wrong scheme', `Basic ${victim.token}`],
      ['scheme only', 'Bearer'],
      ['garbage token', 'Bearer not-a-token'],
      ['tampered token', `Bearer ${victim.token.slice(0, -2)}${victim.token.endsWith('AA') ? 'BB' : 'AA'}`],
      ['huge token', `Bearer ${'x'.repeat(5000)}`],
      ['expired session', `Bearer ${expiredToken}`],
      ['signed-out session', `Bearer ${revokedToken}`],
    ] as const;

  it('has an entry for every contract endpoint, matching who the contract says may call it', () => {
    const listed = listEndpoints();
    const missing = listed.filter(({ id }) => !entries[id]).map(({ id }) => id);
    expect(missing, 'endpoints without an authorization entry').toEqual([]);
    expect(Object.keys(entries).filter((id) => !listed.some((e) => e.id === id))).toEqual([]);
    for (const { id, endpoint } of listed)
      expect(entries[id]!.access, `${id} (auth: ${endpoint.auth})`).toBe(expectedAccess[endpoint.auth]);
  });

  it.each(cases.map((c) => [label(c), c] as const))(
    '%s: 401 for every missing or bad token',
    async (_name, c) => {
      const before = await snapshot();
      for (const [, authorization] of badTokens()) expectError(await send(c, authorization), 401, c);
      expect(await snapshot()).toBe(before);
    },
  );

  it.each(
    cases
      .filter((c) => c.entry.access === 'owner' && c.entry.foreign !== 'self')
      .map((c) => [label(c), c] as const),
  )('%s: refused with another user’s token, victim untouched', async (_name, c) => {
    const before = await snapshot();
    expectError(await send(c, `Bearer ${attacker.token}`), (c.entry as { foreign: number }).foreign, c);
    expect(await snapshot()).toBe(before);
  });

  it.each(cases.filter((c) => c.entry.access === 'admin').map((c) => [label(c), c] as const))(
    '%s: 403 for a signed-in account without the admin role, 200 (or its success status) for an admin',
    async (_name, c) => {
      const before = await snapshot();
      expectError(await send(c, `Bearer ${attacker.token}`), 403, c);
      expectError(await send(c, `Bearer ${victim.token}`), 403, c);
      expect(await snapshot()).toBe(before);
      const admin = await signUp(t.server, { email: ADMIN_EMAIL }).catch(() =>
        loginCustomer(t.server, ADMIN_EMAIL),
      );
      const res = await send(c, `Bearer ${admin.token}`);
      expect(res.statusCode, res.body).toBe(c.endpoint.successStatus ?? 200);
    },
  );

  it('a user id that does not exist is 403 too (no existence oracle), and owners still get 200 everywhere', async () => {
    const uidCases = cases.filter((c) => c.endpoint.path.includes(':uid'));
    expect(uidCases.length).toBeGreaterThan(20);
    for (const c of uidCases) {
      expectError(await send(c, `Bearer ${attacker.token}`, { ...victimIds, uid: 'no-such-user' }), 403, c);
    }
    // An email account: every signed-in route works for both kinds; the password route only for it.
    const owner = await signUp(t.server);
    const other = await loginCustomer(t.server, owner.email);
    let ids = await dataOf(owner.user.id, other.session.id, owner.headers);
    for (const c of cases.filter((x) => x.entry.access === 'owner')) {
      if (c.id === 'accounts.deleteUser') continue; // covered in accounts-api
      // It would end the second session later routes here use; its owner case is in accounts-api.
      if (c.id === 'accounts.deleteOtherSessions') continue;
      if (isStreamEndpoint(c.endpoint)) continue; // a stream never ends: live-sync opens it over HTTP
      const res = await send(c, `Bearer ${owner.token}`, ids);
      const expected = (c.entry as { owner?: { status: number } }).owner?.status;
      expect(res.statusCode, `${label(c)}: ${res.body}`).toBe(expected ?? c.endpoint.successStatus ?? 200);
      // A new payment request supersedes the older one: later routes use the newest.
      if (c.id.startsWith('membership.subscribe'))
        ids = { ...ids, paymentId: (res.json() as SubscriptionResponse).payment.id };
    }
    // A passphrase account gets a typed 400 where only email accounts make sense.
    const passphrase = await register(t.server);
    for (const c of cases.filter((x) => x.entry.access === 'owner' && x.entry.emailOnly)) {
      const res = await send(c, `Bearer ${passphrase.token}`, { ...victimIds, uid: passphrase.user.id });
      expect(res.statusCode, res.body).toBe(400);
    }
  });
});
