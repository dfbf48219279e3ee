import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '@marquee/contract';
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
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface RouteCase {
  method: Method;
  path: (uid: string, sid: string) => string;
  payload?: unknown;
}

/** Every route that acts on a user's data or a session, with a body that would succeed for its owner. */
const routes: RouteCase[] = [
  { method: 'GET', path: () => '/users/@me' },
  { method: 'GET', path: (u) => `/users/${u}` },
  {
    method: 'PATCH',
    path: (u) => `/users/${u}`,
    payload: { profile: { colorA: 'x', colorB: 'y', icon: 'z' } },
  },
  { method: 'DELETE', path: (u) => `/users/${u}` },
  { method: 'GET', path: (u) => `/users/${u}/sessions` },
  { method: 'PATCH', path: (_u, s) => `/sessions/${s}`, payload: { deviceName: 'renamed' } },
  { method: 'DELETE', path: (_u, s) => `/sessions/${s}` },
  { method: 'GET', path: (u) => `/users/${u}/bookmarks` },
  {
    method: 'PUT',
    path: (u) => `/users/${u}/bookmarks`,
    payload: [{ tmdbId: '1', meta: movieMeta('Injected') }],
  },
  {
    method: 'POST',
    path: (u) => `/users/${u}/bookmarks/2`,
    payload: { tmdbId: '2', meta: movieMeta('Injected') },
  },
  { method: 'DELETE', path: (u) => `/users/${u}/bookmarks/603` },
  { method: 'GET', path: (u) => `/users/${u}/progress` },
  {
    method: 'PUT',
    path: (u) => `/users/${u}/progress/import`,
    payload: [{ tmdbId: '3', meta: movieMeta('Injected'), duration: 10, watched: 5 }],
  },
  {
    method: 'PUT',
    path: (u) => `/users/${u}/progress/4`,
    payload: { meta: movieMeta('Injected'), duration: 10, watched: 5 },
  },
  { method: 'DELETE', path: (u) => `/users/${u}/progress/1396`, payload: {} },
  { method: 'GET', path: (u) => `/users/${u}/settings` },
  { method: 'PUT', path: (u) => `/users/${u}/settings`, payload: { applicationTheme: 'injected' } },
  // customer API (issue 6): any account kind
  { method: 'GET', path: () => '/customers' },
  { method: 'POST', path: (u) => `/customers/${u}/update`, payload: { fullname: 'Injected' } },
  { method: 'POST', path: (u) => `/customers/${u}/profiles`, payload: { fullname: 'Injected', icon: 'cat' } },
  {
    method: 'POST',
    path: (u) => `/customers/${u}/suscription`,
    payload: { planId: 2, criptoName: 'BTC', code: null },
  },
  {
    method: 'POST',
    path: (u) => `/customers/${u}/subscription`,
    payload: { planId: 2, criptoName: 'BTC', code: null },
  },
];
/** Routes about the caller only (no user id): another user's token just reads the other user. */
const selfOnly = new Set(['/users/@me', '/customers']);

describe(`authorization matrix (${testDialect})`, () => {
  let t: SyncTestApp;
  let victim: SignedIn;
  let attacker: SignedIn;
  let expiredToken: string;
  let revokedToken: string;
  let snapshot: () => Promise<string>;

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
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
        db.selectFrom('profiles').selectAll().where('user_id', '=', u).execute(),
        db.selectFrom('payments').selectAll().where('user_id', '=', u).execute(),
      ]);
      return JSON.stringify(rows);
    };
  });
  afterAll(async () => t.close());

  const send = (
    route: RouteCase,
    authorization: string | undefined,
    uid = victim.user.id,
    sid = victim.session.id,
  ) =>
    t.server.inject({
      method: route.method,
      url: route.path(uid, sid),
      headers: authorization === undefined ? {} : { authorization },
      ...(route.payload !== undefined ? { payload: route.payload as object } : {}),
    });

  const expectError = (res: { statusCode: number; body: string }, status: number) => {
    expect(res.statusCode, res.body).toBe(status);
    const parsed = JSON.parse(res.body) as { errorType: string; code: string };
    expect(parsed.errorType).toBe('message');
    expect(errorCodes).toContain(parsed.code);
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

  it.each(routes.map((r) => [`${r.method} ${r.path(':uid', ':sid')}`, r] as const))(
    '%s: 401 for every missing or bad token',
    async (_name, route) => {
      const before = await snapshot();
      for (const [, authorization] of badTokens()) expectError(await send(route, authorization), 401);
      expect(await snapshot()).toBe(before);
    },
  );

  it.each(
    routes
      .filter((r) => !selfOnly.has(r.path('U', 'S')))
      .map((r) => [`${r.method} ${r.path(':uid', ':sid')}`, r] as const),
  )('%s: 403 with another user’s token, victim untouched', async (_name, route) => {
    const before = await snapshot();
    expectError(await send(route, `Bearer ${attacker.token}`), 403);
    expect(await snapshot()).toBe(before);
  });

  it('a user id that does not exist is 403 too (no existence oracle), and owners still get 200 everywhere', async () => {
    for (const route of routes.filter((r) => r.path('U', 'S').includes('U'))) {
      expectError(await send(route, `Bearer ${attacker.token}`, 'no-such-user'), 403);
    }
    const owner = await register(t.server);
    const other = await login(t.server, owner.keys);
    for (const route of routes) {
      if (route.method === 'DELETE' && route.path('U', 'S') === '/users/U') continue; // covered in accounts-api
      const res = await send(
        route,
        `Bearer ${owner.token}`,
        owner.user.id,
        route.method === 'DELETE' ? other.session.id : owner.session.id,
      );
      expect(res.statusCode, `${route.method} ${route.path('U', 'S')}: ${res.body}`).toBe(200);
    }
  });
});
