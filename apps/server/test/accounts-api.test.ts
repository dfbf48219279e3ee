import { createChallenge, solveChallenge } from 'altcha-lib/v1';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes, type AuthResponse, type Session } from '@marquee/contract';
import { runCleanup } from '../src/modules/maintenance/cleanup.job.ts';
import { deriveKeys, KNOWN_MNEMONIC, newMnemonic } from './passphrase-client.ts';
import { login, movieMeta, register, showMeta, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

const DAY = 24 * 60 * 60_000;
const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;

async function challengeFor(
  server: FastifyInstance,
  flow: 'register' | 'login',
  publicKey?: string,
): Promise<string> {
  const res = await server.inject({
    method: 'POST',
    url: `/auth/${flow}/start`,
    payload: flow === 'login' ? { publicKey } : {},
  });
  expect(res.statusCode, res.body).toBe(200);
  return body<{ challenge: string }>(res).challenge;
}

function completeRegistration(
  server: FastifyInstance,
  keys: ReturnType<typeof deriveKeys>,
  code: string,
  extra: Record<string, unknown> = {},
) {
  return server.inject({
    method: 'POST',
    url: '/auth/register/complete',
    headers: { 'user-agent': 'vitest' },
    payload: {
      namespace: 'movie-web',
      publicKey: keys.publicKey,
      challenge: { code, signature: keys.sign(code) },
      device: keys.encryptDevice('Phone'),
      profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' },
      ...extra,
    },
  });
}

describe(`accounts API (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => t.close());

  it('registers with the client protocol and answers {user, session, token} in the older servers’ shapes', async () => {
    const keys = deriveKeys(KNOWN_MNEMONIC);
    const code = await challengeFor(t.server, 'register');
    expect(code).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const device = keys.encryptDevice('Living room TV');
    const res = await completeRegistration(t.server, keys, code, { device });
    expect(res.statusCode).toBe(200);
    const { user, session, token } = body<AuthResponse>(res);
    expect(Object.keys(user).sort()).toEqual([
      'createdAt',
      'id',
      'lastLoggedIn',
      'namespace',
      'nickname',
      'profile',
      'publicKey',
      'roles',
    ]);
    expect(user).toMatchObject({
      namespace: 'movie-web',
      // p-stream's display name (decision 094): '' until set.
      nickname: '',
      publicKey: keys.publicKey,
      roles: [],
      profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' },
    });
    expect(user.id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(user.createdAt).toBe(new Date(t.clock.ms).toISOString());
    expect(Object.keys(session).sort()).toEqual([
      'accessedAt',
      'createdAt',
      'device',
      'id',
      'userAgent',
      'userId',
    ]);
    // The encrypted device name comes back byte for byte and still decrypts.
    expect(session.device).toBe(device);
    expect(keys.decryptDevice(session.device)).toBe('Living room TV');
    expect(session.userAgent).toBe('vitest');
    expect(token.length).toBeGreaterThanOrEqual(43);
    // Login with the same passphrase on another device.
    const second = await login(t.server, keys, 'Laptop');
    expect(second.user.id).toBe(user.id);
    expect(second.session.id).not.toBe(session.id);
    const me = await t.server.inject({ method: 'GET', url: '/users/@me', headers: second.headers });
    expect(me.statusCode).toBe(200);
    expect(body(me)).toEqual({ user: second.user, session: second.session });
  });

  it('refuses a second account for the same key, in any spelling, with 409 (not 500)', async () => {
    const keys = deriveKeys(newMnemonic());
    await register(t.server, { mnemonic: keys.mnemonic });
    const again = await completeRegistration(t.server, keys, await challengeFor(t.server, 'register'));
    expect(again.statusCode).toBe(409);
    expect(body(again)).toMatchObject({ errorType: 'message', code: 'account_exists' });
    const code = await challengeFor(t.server, 'register');
    const padded = await completeRegistration(t.server, keys, code, {
      publicKey: `${Buffer.from(keys.publicKey, 'base64url').toString('base64')}`,
    });
    expect(padded.statusCode).toBe(409);
  });

  it('makes challenges single-use, bound to their flow and (for login) to the key, and short-lived', async () => {
    const keys = deriveKeys(newMnemonic());
    const code = await challengeFor(t.server, 'register');
    expect((await completeRegistration(t.server, keys, code)).statusCode).toBe(200);
    // Replay of a used code.
    const replay = await completeRegistration(t.server, deriveKeys(newMnemonic()), code);
    expect(replay.statusCode).toBe(401);
    expect(body(replay)).toMatchObject({ code: 'challenge_invalid', message: 'Challenge Code Invalid' });
    // A login challenge cannot finish a registration.
    const loginCode = await challengeFor(t.server, 'login', keys.publicKey);
    expect(body(await completeRegistration(t.server, deriveKeys(newMnemonic()), loginCode)).code).toBe(
      'challenge_invalid',
    );
    // A login challenge issued for one key cannot be used by another registered key.
    const other = await register(t.server);
    const stolen = await challengeFor(t.server, 'login', keys.publicKey);
    const res = await t.server.inject({
      method: 'POST',
      url: '/auth/login/complete',
      payload: {
        publicKey: other.keys.publicKey,
        challenge: { code: stolen, signature: other.keys.sign(stolen) },
        device: 'x',
      },
    });
    expect(res.statusCode).toBe(401);
    expect(body(res).code).toBe('challenge_invalid');
    // Expiry in minutes (the older server's "30 s" constant was ~35 days).
    const late = await challengeFor(t.server, 'register');
    t.clock.advance(5 * 60_000 + 1);
    const expired = await completeRegistration(t.server, deriveKeys(newMnemonic()), late);
    expect(expired.statusCode).toBe(401);
    expect(body(expired)).toMatchObject({ code: 'challenge_expired', message: 'Challenge Code Expired' });
  });

  it('lets exactly one of two concurrent completions of one challenge through', async () => {
    const a = deriveKeys(newMnemonic());
    const b = deriveKeys(newMnemonic());
    const code = await challengeFor(t.server, 'register');
    const results = await Promise.all([
      completeRegistration(t.server, a, code),
      completeRegistration(t.server, b, code),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('rejects bad signatures and unknown keys with 401 and the older servers’ messages', async () => {
    const keys = deriveKeys(newMnemonic());
    const code = await challengeFor(t.server, 'register');
    const bad = await completeRegistration(t.server, keys, code, {
      challenge: { code, signature: keys.sign('something else') },
    });
    expect(bad.statusCode).toBe(401);
    expect(body(bad)).toEqual({
      errorType: 'message',
      code: 'signature_invalid',
      message: 'Challenge Code Signature Invalid',
    });
    const garbage = await completeRegistration(t.server, keys, await challengeFor(t.server, 'register'), {
      publicKey: 'not-a-key',
    });
    expect(garbage.statusCode).toBe(401);
    // Unknown key at login/start: 401, which clients show as "invalid passphrase".
    const unknown = await t.server.inject({
      method: 'POST',
      url: '/auth/login/start',
      payload: { publicKey: deriveKeys(newMnemonic()).publicKey },
    });
    expect(unknown.statusCode).toBe(401);
    expect(body(unknown)).toMatchObject({ code: 'user_not_found', message: 'User cannot be found' });
    // A code that is not a UUID (the older server: 500).
    const notUuid = await completeRegistration(t.server, keys, 'not-a-uuid');
    expect(notUuid.statusCode).toBe(401);
  });

  it('accepts a missing User-Agent (the older server answered 500) and ignores login’s namespace', async () => {
    const keys = deriveKeys(newMnemonic());
    const code = await challengeFor(t.server, 'register');
    const res = await t.server.inject({
      method: 'POST',
      url: '/auth/register/complete',
      headers: { 'user-agent': undefined as unknown as string },
      payload: {
        namespace: 'movie-web',
        publicKey: keys.publicKey,
        challenge: { code, signature: keys.sign(code) },
        device: 'dev',
        profile: { colorA: 'a', colorB: 'b', icon: 'c' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(body(res).session.userAgent).toBe('');
  });

  it('slides session expiry on use and signs out sessions left unused', async () => {
    const a = await register(t.server);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(20 * DAY);
      expect(
        (await t.server.inject({ method: 'GET', url: '/users/@me', headers: a.headers })).statusCode,
      ).toBe(200);
    }
    const me = body(await t.server.inject({ method: 'GET', url: '/users/@me', headers: a.headers }));
    expect(me.session.accessedAt).toBe(new Date(t.clock.ms).toISOString());
    t.clock.advance(21 * DAY + 1);
    const gone = await t.server.inject({ method: 'GET', url: '/users/@me', headers: a.headers });
    expect(gone.statusCode).toBe(401);
    expect(body(gone).code).toBe('unauthorized');
  });

  it('lists, renames and deletes own sessions; deleting the current one signs it out', async () => {
    const a = await register(t.server, { device: 'Phone' });
    const b = await login(t.server, a.keys, 'Laptop');
    const list = body<Session[]>(
      await t.server.inject({ method: 'GET', url: `/users/${a.user.id}/sessions`, headers: a.headers }),
    );
    expect(list.map((s) => a.keys.decryptDevice(s.device)).sort()).toEqual(['Laptop', 'Phone']);
    const newName = a.keys.encryptDevice('Work laptop');
    const renamed = await t.server.inject({
      method: 'PATCH',
      url: `/sessions/${b.session.id}`,
      headers: a.headers,
      payload: { deviceName: newName },
    });
    expect(renamed.statusCode).toBe(200);
    expect(body(renamed)).toMatchObject({ id: b.session.id, device: newName });
    const missing = await t.server.inject({
      method: 'PATCH',
      url: '/sessions/00000000-0000-4000-8000-000000000000',
      headers: a.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(404);
    expect(body(missing).code).toBe('session_not_found');
    const del = await t.server.inject({
      method: 'DELETE',
      url: `/sessions/${b.session.id}`,
      headers: b.headers,
    });
    expect(del.statusCode).toBe(200);
    expect(body(del)).toEqual({ id: b.session.id });
    expect((await t.server.inject({ method: 'GET', url: '/users/@me', headers: b.headers })).statusCode).toBe(
      401,
    );
    // Idempotent (logout retries), also for ids that are not UUIDs (the older server: 500).
    expect(
      (await t.server.inject({ method: 'DELETE', url: `/sessions/${b.session.id}`, headers: a.headers }))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.server.inject({ method: 'DELETE', url: '/sessions/nope', headers: a.headers })).statusCode,
    ).toBe(200);
  });

  it('"sign out everywhere else" ends every other session of the caller, none of anyone else’s', async () => {
    const a = await register(t.server, { device: 'Phone' });
    const laptop = await login(t.server, a.keys, 'Laptop');
    const tv = await login(t.server, a.keys, 'TV');
    const stranger = await register(t.server);
    const me = (who: { headers: typeof a.headers }) =>
      t.server.inject({ method: 'GET', url: '/users/@me', headers: who.headers });
    const res = await t.server.inject({
      method: 'DELETE',
      url: `/users/${a.user.id}/sessions`,
      headers: laptop.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toEqual({ count: 2 });
    expect((await me(laptop)).statusCode).toBe(200);
    expect((await me(a)).statusCode).toBe(401);
    expect((await me(tv)).statusCode).toBe(401);
    expect((await me(stranger)).statusCode).toBe(200);
    const left = body<Session[]>(
      await t.server.inject({ method: 'GET', url: `/users/${a.user.id}/sessions`, headers: laptop.headers }),
    );
    expect(left.map((s) => s.id)).toEqual([laptop.session.id]);
    // Again: nothing more to end. Another account's sessions are not the caller's to end.
    expect(
      body(
        await t.server.inject({
          method: 'DELETE',
          url: `/users/${a.user.id}/sessions`,
          headers: laptop.headers,
        }),
      ),
    ).toEqual({ count: 0 });
    const foreign = await t.server.inject({
      method: 'DELETE',
      url: `/users/${stranger.user.id}/sessions`,
      headers: laptop.headers,
    });
    expect(foreign.statusCode).toBe(403);
    expect((await me(stranger)).statusCode).toBe(200);
  });

  it('answers the clients’ GET /users/{id} (their buggy "delete account"), and PATCH changes the profile only', async () => {
    const a = await register(t.server);
    const get = await t.server.inject({ method: 'GET', url: `/users/${a.user.id}`, headers: a.headers });
    expect(get.statusCode).toBe(200);
    expect(body(get)).toEqual({ user: a.user });
    const patched = await t.server.inject({
      method: 'PATCH',
      url: `/users/${a.user.id}`,
      headers: a.headers,
      payload: { profile: { colorA: '#F9DD7F', colorB: '#7652DD', icon: 'cat' }, name: 'ignored' },
    });
    expect(patched.statusCode).toBe(200);
    expect(body(patched)).toEqual({
      ...a.user,
      profile: { colorA: '#F9DD7F', colorB: '#7652DD', icon: 'cat' },
    });
  });

  it('DELETE /users/{id} removes every row of the user, and only theirs', async () => {
    const a = await register(t.server);
    const keep = await register(t.server);
    await login(t.server, a.keys);
    for (const who of [a, keep]) {
      const u = who.user.id;
      await t.server.inject({
        method: 'POST',
        url: `/users/${u}/bookmarks/603`,
        headers: who.headers,
        payload: { meta: movieMeta() },
      });
      await t.server.inject({ method: 'DELETE', url: `/users/${u}/bookmarks/604`, headers: who.headers });
      await t.server.inject({
        method: 'PUT',
        url: `/users/${u}/progress/1396`,
        headers: who.headers,
        payload: {
          meta: showMeta(),
          duration: 3000,
          watched: 60,
          seasonId: '3572',
          episodeId: '62085',
          seasonNumber: 1,
          episodeNumber: 1,
        },
      });
      await t.server.inject({
        method: 'DELETE',
        url: `/users/${u}/progress/1397`,
        headers: who.headers,
        payload: {},
      });
      await t.server.inject({
        method: 'PUT',
        url: `/users/${u}/settings`,
        headers: who.headers,
        payload: { applicationTheme: 'teal' },
      });
    }
    const db = t.db.db;
    const tables = [
      'users',
      'sessions',
      'bookmarks',
      'progress_items',
      'progress_deletions',
      'user_settings',
    ] as const;
    const countFor = async (uid: string) => {
      const out: Record<string, number> = {};
      for (const table of tables) {
        const column = table === 'users' ? 'id' : 'user_id';
        const row = await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where(column as never, '=', uid as never)
          .executeTakeFirstOrThrow();
        out[table] = Number(row.n);
      }
      return out;
    };
    expect(Object.values(await countFor(a.user.id)).every((n) => n > 0)).toBe(true);
    const del = await t.server.inject({ method: 'DELETE', url: `/users/${a.user.id}`, headers: a.headers });
    expect(del.statusCode).toBe(200);
    expect(body(del)).toEqual({ id: a.user.id });
    expect(Object.values(await countFor(a.user.id))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Object.values(await countFor(keep.user.id)).every((n) => n > 0)).toBe(true);
    expect((await t.server.inject({ method: 'GET', url: '/users/@me', headers: a.headers })).statusCode).toBe(
      401,
    );
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url: '/auth/login/start',
          payload: { publicKey: a.keys.publicKey },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('the cleanup job removes expired challenges, sessions and captcha solutions, never live ones', async () => {
    const live = await register(t.server);
    await challengeFor(t.server, 'register');
    const db = t.db.db;
    await db
      .insertInto('captcha_solutions')
      .values({ id: 'x-old', expires_at: t.clock.ms - 1 })
      .execute();
    // A sign-in code a new device asked for and nobody approved.
    const asked = await t.server.inject({ method: 'POST', url: '/auth/device-links', payload: {} });
    expect(asked.statusCode, asked.body).toBe(200);
    t.clock.advance(22 * DAY);
    const fresh = await register(t.server);
    const { ChallengesRepository } = await import('../src/modules/auth/auth.repository.ts');
    const { SessionsRepository } = await import('../src/modules/users/sessions.repository.ts');
    const { CaptchaSolutionsRepository } = await import('../src/modules/captcha/captcha.repository.ts');
    const { BookmarksRepository } = await import('../src/modules/bookmarks/bookmarks.repository.ts');
    const { ProgressRepository } = await import('../src/modules/progress/progress.repository.ts');
    const { HistoryRepository } = await import('../src/modules/history/history.repository.ts');
    const { RatingsRepository } = await import('../src/modules/ratings/ratings.repository.ts');
    const { DeviceLinksRepository } = await import('../src/modules/device-links/device-links.repository.ts');
    const removed = await runCleanup(
      {
        challenges: new ChallengesRepository(db),
        sessions: new SessionsRepository(db),
        captchaSolutions: new CaptchaSolutionsRepository(db),
        deviceLinks: new DeviceLinksRepository(db),
        bookmarks: new BookmarksRepository(db),
        progress: new ProgressRepository(db),
        history: new HistoryRepository(db),
        ratings: new RatingsRepository(db),
      },
      t.clock.ms,
    );
    expect(removed.challenges).toBeGreaterThan(0);
    expect(removed.sessions).toBeGreaterThan(0);
    expect(removed.captchaSolutions).toBe(1);
    expect(removed.deviceLinks).toBe(1);
    expect(
      (await t.server.inject({ method: 'GET', url: '/users/@me', headers: fresh.headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.server.inject({ method: 'GET', url: '/users/@me', headers: live.headers })).statusCode,
    ).toBe(401);
  });

  it('answers every error with a known code', () => {
    expect(errorCodes).toContain('challenge_expired');
  });
});

describe(`/meta, captcha and metrics (${testDialect})`, () => {
  const apps: SyncTestApp[] = [];
  afterEach(async () => {
    while (apps.length) await apps.pop()!.close();
  });
  const start = async (...args: Parameters<typeof startSyncApp>) => {
    const app = await startSyncApp(...args);
    apps.push(app);
    return app;
  };

  it('GET /meta tells existing clients the name and captcha needs (site key only for reCAPTCHA)', async () => {
    const plain = await start({ env: { INSTANCE_NAME: 'Home', INSTANCE_DESCRIPTION: 'Our films' } });
    expect(body(await plain.server.inject({ url: '/meta' }))).toEqual({
      name: 'Home',
      description: 'Our films',
      version: '4.7.0',
      hasCaptcha: false,
    });
    const recaptcha = await start({
      env: { CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'site' },
    });
    expect(body(await recaptcha.server.inject({ url: '/meta' }))).toEqual({
      name: 'Marquee',
      version: '4.7.0',
      hasCaptcha: true,
      captchaClientKey: 'site',
    });
    // Existing clients cannot solve ALTCHA: they register without it (decision 015, cross-origin-clients.test.ts).
    const altcha = await start({ env: { CAPTCHA_PROVIDER: 'altcha' } });
    expect(body(await altcha.server.inject({ url: '/meta' }))).toEqual({
      name: 'Marquee',
      version: '4.7.0',
      hasCaptcha: false,
    });
  });

  it('ALTCHA: issues challenges, accepts a solved one once, refuses forged and replayed tokens', async () => {
    const t = await start({ env: { CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '2000' } });
    // (No token at all is accepted under tighter limits: decision 015, cross-origin-clients.test.ts.)
    const challenge = body(await t.server.inject({ url: '/auth/captcha/challenge' }));
    expect(challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: 2000 });
    const solution = await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise;
    const token = Buffer.from(
      JSON.stringify({ ...challenge, number: solution!.number, took: solution!.took }),
    ).toString('base64');
    const ok = await t.server.inject({
      method: 'POST',
      url: '/auth/register/start',
      payload: { captchaToken: token },
    });
    expect(ok.statusCode).toBe(200);
    const replay = await t.server.inject({
      method: 'POST',
      url: '/auth/register/start',
      payload: { captchaToken: token },
    });
    expect(replay.statusCode).toBe(400);
    expect(body(replay).code).toBe('captcha_invalid');
    // Signed with another key.
    const forged = await createChallenge({ hmacKey: 'attacker', maxNumber: 10, number: 3 });
    const forgedToken = Buffer.from(JSON.stringify({ ...forged, number: 3 })).toString('base64');
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url: '/auth/register/start',
          payload: { captchaToken: forgedToken },
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url: '/auth/register/start',
          payload: { captchaToken: '%%%' },
        })
      ).statusCode,
    ).toBe(400);
    // Two apps of one instance agree on the generated HMAC key (it lives in the database).
    const sibling = await start({ env: { CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '2000' }, db: t.db });
    const c2 = body(await t.server.inject({ url: '/auth/captcha/challenge' }));
    const s2 = await solveChallenge(c2.challenge, c2.salt, c2.algorithm, c2.maxnumber).promise;
    const t2 = Buffer.from(JSON.stringify({ ...c2, number: s2!.number })).toString('base64');
    expect(
      (
        await sibling.server.inject({
          method: 'POST',
          url: '/auth/register/start',
          payload: { captchaToken: t2 },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('Turnstile and reCAPTCHA v3: siteverify decides; a low score or a vendor outage never passes', async () => {
    const calls: { url: string; body: string }[] = [];
    let answer: unknown = { success: true, score: 0.9 };
    const fakeFetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, body: String(init.body) });
      if (answer instanceof Error) throw answer;
      return new Response(JSON.stringify(answer), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof fetch;
    const t = await start({
      env: { CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET: 'sekrit', CAPTCHA_SITE_KEY: 'site' },
      deps: { fetch: fakeFetch },
    });
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url: '/auth/register/start',
          payload: { captchaToken: 'tok' },
        })
      ).statusCode,
    ).toBe(200);
    expect(calls[0]!.url).toBe('https://www.google.com/recaptcha/api/siteverify');
    expect(new URLSearchParams(calls[0]!.body).get('secret')).toBe('sekrit');
    expect(new URLSearchParams(calls[0]!.body).get('response')).toBe('tok');
    answer = { success: true, score: 0.1 };
    expect(
      body(
        await t.server.inject({
          method: 'POST',
          url: '/auth/register/start',
          payload: { captchaToken: 'tok' },
        }),
      ).code,
    ).toBe('captcha_invalid');
    answer = new Error('down');
    const down = await t.server.inject({
      method: 'POST',
      url: '/auth/register/start',
      payload: { captchaToken: 'tok' },
    });
    expect(down.statusCode).toBe(503);
    expect(body(down).code).toBe('captcha_unavailable');

    const turnstile = await start({
      env: { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: 'ts', CAPTCHA_SITE_KEY: 'ts-site' },
      deps: { fetch: fakeFetch },
    });
    answer = { success: false, 'error-codes': ['timeout-or-duplicate'] };
    expect(
      (
        await turnstile.server.inject({
          method: 'POST',
          url: '/auth/register/start',
          payload: { captchaToken: 'XXXX.DUMMY.TOKEN.XXXX' },
        })
      ).statusCode,
    ).toBe(400);
    expect(calls.at(-1)!.url).toBe('https://challenges.cloudflare.com/turnstile/v0/siteverify');
    expect((await turnstile.server.inject({ url: '/auth/captcha/challenge' })).statusCode).toBe(404);
    await expect(startSyncApp({ env: { CAPTCHA_PROVIDER: 'turnstile' } })).rejects.toThrow(/CAPTCHA_SECRET/);
  });

  it('rate limits count before the work: the 11th registration challenge is 429 with Retry-After', async () => {
    const t = await start();
    for (let i = 0; i < 10; i++)
      expect(
        (await t.server.inject({ method: 'POST', url: '/auth/register/start', payload: {} })).statusCode,
      ).toBe(200);
    const limited = await t.server.inject({ method: 'POST', url: '/auth/register/start', payload: {} });
    expect(limited.statusCode).toBe(429);
    expect(body(limited)).toEqual({ errorType: 'message', code: 'rate_limited', message: 'Ratelimited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another client IP has its own bucket.
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url: '/auth/register/start',
          payload: {},
          remoteAddress: '10.0.0.9',
        })
      ).statusCode,
    ).toBe(200);
    // Unless TRUST_PROXY is set, a client cannot claim another address to get a fresh bucket.
    const spoofed = await t.server.inject({
      method: 'POST',
      url: '/auth/register/start',
      payload: {},
      headers: { 'x-forwarded-for': '198.51.100.1' },
    });
    expect(spoofed.statusCode).toBe(429);
  });

  it('behind a trusted proxy, the client address comes from X-Forwarded-For', async () => {
    const t = await start({ env: { TRUST_PROXY: 'true' } });
    const from = (ip: string) =>
      t.server.inject({
        method: 'POST',
        url: '/auth/register/start',
        payload: {},
        headers: { 'x-forwarded-for': ip },
      });
    for (let i = 0; i < 10; i++) expect((await from('198.51.100.1')).statusCode).toBe(200);
    expect((await from('198.51.100.1')).statusCode).toBe(429);
    expect((await from('198.51.100.2')).statusCode).toBe(200);
  });

  it('a refused progress import writes nothing (the older server checked the limit after writing)', async () => {
    const t = await start({
      deps: { accounts: { rateLimits: { progress_import: { points: 1, durationMs: 60_000 } } } },
    });
    const a = await register(t.server);
    const item = (id: string) => ({
      tmdbId: id,
      meta: movieMeta(),
      duration: 100,
      watched: 50,
      updatedAt: new Date(t.clock.ms).toISOString(),
    });
    const url = `/users/${a.user.id}/progress/import`;
    expect(
      (await t.server.inject({ method: 'PUT', url, headers: a.headers, payload: [item('1')] })).statusCode,
    ).toBe(200);
    const refused = await t.server.inject({ method: 'PUT', url, headers: a.headers, payload: [item('2')] });
    expect(refused.statusCode).toBe(429);
    const list = body<unknown[]>(
      await t.server.inject({ url: `/users/${a.user.id}/progress`, headers: a.headers }),
    );
    expect(list).toHaveLength(1);
  });

  it('metrics: bare true answers, mw_* series with bounded labels, no titles, optional token', async () => {
    const t = await start({ env: { METRICS_TOKEN: 'scrape-me' } });
    await register(t.server, { namespace: 'movie-web' });
    const item = (providerId: string, status: string) => ({
      tmdbId: '603',
      type: 'movie',
      title: 'The Matrix',
      status,
      providerId,
    });
    const res = await t.server.inject({
      method: 'POST',
      url: '/metrics/providers',
      headers: { origin: 'https://watch.example' },
      payload: { items: [item('a', 'failed'), item('b', 'success')], tool: 'extension', batchId: 'x' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('true');
    for (let i = 0; i < 400; i++) {
      await t.server.inject({
        method: 'POST',
        url: '/metrics/providers',
        payload: { items: [item(`p${i}`, 'notfound')] },
        remoteAddress: `10.1.${i >> 8}.${i & 255}`,
      });
    }
    expect(
      (await t.server.inject({ method: 'POST', url: '/metrics/captcha', payload: { success: false } })).body,
    ).toBe('true');
    expect((await t.server.inject({ url: '/metrics' })).statusCode).toBe(401);
    const text = (await t.server.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-me' } }))
      .body;
    expect(text).toContain('mw_user_count{namespace="movie-web"} 1');
    expect(text).toContain('mw_provider_hostname_count{hostname="watch.example"} 1');
    expect(text).toContain('mw_provider_status_count{provider_id="b",status="success"} 1');
    expect(text).toContain('mw_media_watch_count{tmdb_full_id="movie-603",provider_id="b",success="true"} 1');
    expect(text).toContain('mw_provider_tool_count{tool="extension"} 1');
    expect(text).toContain('mw_captcha_solves{success="false"} 1');
    expect(text).toContain('provider_id="other"');
    expect(text).not.toContain('The Matrix');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/metrics\/providers",status_code="200"\}/,
    );
    const series = text.split('\n').filter((l) => l.startsWith('mw_provider_status_count{')).length;
    expect(series).toBeLessThanOrEqual(302);
  });
});
