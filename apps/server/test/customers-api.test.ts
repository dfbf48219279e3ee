import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerUser, Session } from '@marquee/contract';
import { PasswordHasher } from '../src/modules/customers/password-hasher.ts';
import {
  loginCustomer,
  PASSWORD,
  registerCustomer,
  signUp,
  TEST_PASSWORD_COST,
  uniqueEmail,
  type Customer,
} from './customer-harness.ts';
import { movieMeta, register, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;

describe(`email accounts and household profiles (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        AUTH_METHODS: 'passphrase,email',
        ADMIN_EMAILS: 'Boss@Example.org',
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
  });
  afterAll(async () => t.close());

  describe('registration and sign-in', () => {
    it('registers with {fullname, email, password} and answers the customer user shape', async () => {
      const email = uniqueEmail();
      const res = await t.server.inject({
        method: 'POST',
        url: '/customers',
        // The client removes passConf before sending; anything extra is ignored anyway.
        payload: { fullname: '  Grace Hopper ', email, password: PASSWORD, passConf: PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { user, message, error } = body<{ user: CustomerUser; message: string; error: boolean }>(res);
      expect(error).toBe(false);
      expect(message).toBeTruthy();
      expect(Object.keys(user).sort()).toEqual(
        [
          'email',
          'endSubcriptionDate',
          'fullname',
          'hasMembership',
          'hasPin',
          'icon',
          'id',
          'isAdmin',
          'profiles',
        ].sort(),
      );
      expect(user).toMatchObject({
        fullname: 'Grace Hopper',
        email,
        icon: 'cat',
        profiles: [],
        isAdmin: false,
        endSubcriptionDate: null,
        hasMembership: false,
      });
      // The password is stored as a scrypt hash, never in clear.
      const row = await t.db.db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$1024\$8\$1\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
    });

    it('signs in with the same email in any case and spacing; the token works on every signed-in route', async () => {
      const { email } = await registerCustomer(t.server, { email: uniqueEmail('Case') });
      const res = await t.server.inject({
        method: 'POST',
        url: '/customers/auth',
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' },
        payload: { email: `  ${email.toUpperCase()} `, password: PASSWORD },
      });
      expect(res.statusCode, res.body).toBe(200);
      const { user, token, session } = body<{ user: CustomerUser; token: string; session: Session }>(res);
      expect(user.email).toBe(email.toLowerCase());
      expect(token.length).toBeGreaterThanOrEqual(43);
      expect(session).toMatchObject({ userId: user.id, device: 'Firefox on Linux' });
      // Same session mechanism as passphrase accounts: /users/@me, with either header.
      const me = await t.server.inject({
        method: 'GET',
        url: '/users/@me',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(me.statusCode).toBe(200);
      expect(body(me).user).toMatchObject({ id: user.id, publicKey: null, namespace: 'email' });
      const customersGet = await t.server.inject({
        method: 'GET',
        url: '/customers',
        headers: { 'x-auth-token': token },
      });
      expect(customersGet.statusCode).toBe(200);
      expect(body(customersGet)).toEqual({ user, access_token: token });
    });

    it('refuses a wrong password and an unknown email alike with 401', async () => {
      const { email } = await registerCustomer(t.server);
      const wrong = await t.server.inject({
        method: 'POST',
        url: '/customers/auth',
        payload: { email, password: 'not the password' },
      });
      const unknown = await t.server.inject({
        method: 'POST',
        url: '/customers/auth',
        payload: { email: uniqueEmail('nobody'), password: PASSWORD },
      });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(body(res)).toEqual({
          errorType: 'message',
          code: 'invalid_credentials',
          message: 'Email or password is incorrect',
        });
      }
      expect((await t.server.inject({ method: 'GET', url: '/customers' })).statusCode).toBe(401);
      expect(
        (await t.server.inject({ method: 'GET', url: '/customers', headers: { 'x-auth-token': 'forged' } }))
          .statusCode,
      ).toBe(401);
    });

    it('refuses a duplicate email (whatever its case) with 409 and a message the form can show', async () => {
      const { email } = await registerCustomer(t.server);
      const res = await t.server.inject({
        method: 'POST',
        url: '/customers',
        payload: { fullname: 'Copy', email: email.toUpperCase(), password: PASSWORD },
      });
      expect(res.statusCode).toBe(409);
      expect(body(res)).toEqual({
        errorType: 'message',
        code: 'email_taken',
        message: 'An account with this email already exists',
      });
    });

    it('validates the form: name, email and a password of at least 8 characters', async () => {
      for (const payload of [
        { fullname: '', email: uniqueEmail(), password: PASSWORD },
        { fullname: 'A', email: 'not-an-email', password: PASSWORD },
        { fullname: 'A', email: uniqueEmail(), password: 'short' },
        { email: uniqueEmail(), password: PASSWORD },
      ]) {
        const res = await t.server.inject({ method: 'POST', url: '/customers', payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(body(res).code).toBe('validation_failed');
      }
    });

    it('makes ADMIN_EMAILS accounts admins at registration', async () => {
      const res = await t.server.inject({
        method: 'POST',
        url: '/customers',
        payload: { fullname: 'Boss', email: 'boss@example.org', password: PASSWORD },
      });
      expect(body<{ user: CustomerUser }>(res).user.isAdmin).toBe(true);
      const me = await loginCustomer(t.server, 'boss@example.org');
      expect(me.user.isAdmin).toBe(true);
      expect(
        (await t.server.inject({ method: 'GET', url: '/users/@me', headers: me.headers })).json().user.roles,
      ).toEqual(['admin']);
    });
  });

  describe('account changes', () => {
    it('changes the name and icon with POST /customers/:id/update; another user’s id is 403', async () => {
      const a = await signUp(t.server);
      const b = await signUp(t.server);
      const res = await t.server.inject({
        method: 'POST',
        url: `/customers/${a.user.id}/update`,
        headers: { 'x-auth-token': a.token },
        payload: { fullname: 'Ada L.', icon: 'couch' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res).user).toMatchObject({ id: a.user.id, fullname: 'Ada L.', icon: 'couch' });
      const other = await t.server.inject({
        method: 'POST',
        url: `/customers/${b.user.id}/update`,
        headers: a.headers,
        payload: { fullname: 'Hijack' },
      });
      expect(other.statusCode).toBe(403);
      expect(
        (
          await t.server.inject({
            method: 'POST',
            url: `/customers/${a.user.id}/update`,
            headers: a.headers,
            payload: { icon: 'dragon' },
          })
        ).statusCode,
      ).toBe(400);
    });

    it('changes the password: mismatch → "Password didn\'t match", then the old one no longer works and other sessions end', async () => {
      const a = await signUp(t.server);
      const other = await loginCustomer(t.server, a.email);
      const url = `/customers/${a.user.id}/password`;
      const mismatch = await t.server.inject({
        method: 'POST',
        url,
        headers: a.headers,
        payload: { password: 'new password 1', confirm: 'new password 2' },
      });
      expect(mismatch.statusCode).toBe(400);
      expect(body(mismatch)).toMatchObject({ code: 'password_mismatch', message: "Password didn't match" });
      const ok = await t.server.inject({
        method: 'POST',
        url,
        headers: a.headers,
        payload: { password: 'new password 1', confirm: 'new password 1' },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(body(ok)).toMatchObject({ error: false, message: 'Password changed' });
      expect(
        (
          await t.server.inject({
            method: 'POST',
            url: '/customers/auth',
            payload: { email: a.email, password: PASSWORD },
          })
        ).statusCode,
      ).toBe(401);
      await loginCustomer(t.server, a.email, 'new password 1');
      expect(
        (await t.server.inject({ method: 'GET', url: '/customers', headers: a.headers })).statusCode,
      ).toBe(200);
      expect(
        (await t.server.inject({ method: 'GET', url: '/customers', headers: other.headers })).statusCode,
      ).toBe(401);
    });

    it('refuses a password change for a passphrase account', async () => {
      const p = await register(t.server);
      const res = await t.server.inject({
        method: 'POST',
        url: `/customers/${p.user.id}/password`,
        headers: p.headers,
        payload: { password: 'whatever12', confirm: 'whatever12' },
      });
      expect(res.statusCode).toBe(400);
      expect(body(res).code).toBe('wrong_account_kind');
      // The customer shape still describes a passphrase account.
      expect(
        body(await t.server.inject({ method: 'GET', url: '/customers', headers: p.headers })).user,
      ).toMatchObject({ id: p.user.id, email: null, fullname: '', isAdmin: false });
    });
  });

  describe('household profiles', () => {
    let a: Customer;
    beforeAll(async () => {
      a = await signUp(t.server);
    });
    const call = (
      method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
      url: string,
      payload?: unknown,
      headers: Record<string, string> = {},
    ) =>
      t.server.inject({
        method,
        url,
        headers: { ...a.headers, ...headers },
        ...(payload !== undefined ? { payload: payload as object } : {}),
      });

    it('creates, renames, re-icons and deletes profiles; fullname required, icon one of six', async () => {
      const created = await call('POST', `/customers/${a.user.id}/profiles`, {
        fullname: 'Kids',
        icon: 'ticket',
      });
      expect(created.statusCode, created.body).toBe(200);
      const { profile, user } = body<{ profile: { _id: string }; user: CustomerUser }>(created);
      expect(profile).toMatchObject({ fullname: 'Kids', icon: 'ticket' });
      expect(profile._id).toMatch(/^[0-9a-f]{24}$/);
      expect(user.profiles).toEqual([profile]);
      const renamed = await call('PATCH', `/customers/${a.user.id}/profiles/${profile._id}`, {
        fullname: 'Children',
        icon: 'mobile',
      });
      expect(body(renamed).profile).toEqual({
        _id: profile._id,
        fullname: 'Children',
        icon: 'mobile',
        hasPin: false,
        kids: null,
      });
      expect(
        (await call('POST', `/customers/${a.user.id}/profiles`, { fullname: '', icon: 'cat' })).statusCode,
      ).toBe(400);
      expect(
        (await call('POST', `/customers/${a.user.id}/profiles`, { fullname: 'X', icon: 'dog' })).statusCode,
      ).toBe(400);
      const deleted = await call('DELETE', `/customers/${a.user.id}/profiles/${profile._id}`);
      expect(deleted.statusCode).toBe(200);
      expect(body(deleted).user.profiles).toEqual([]);
      expect((await call('DELETE', `/customers/${a.user.id}/profiles/${profile._id}`)).statusCode).toBe(404);
    });

    it('replaces the whole list through POST /customers/:id/update and limits it to five', async () => {
      const first = body<{ user: CustomerUser }>(
        await call('POST', `/customers/${a.user.id}/update`, {
          profiles: [
            { fullname: 'Mum', icon: 'weed' },
            { fullname: 'Dad', icon: 'userGroup' },
          ],
        }),
      ).user.profiles;
      expect(first.map((p) => p.fullname)).toEqual(['Mum', 'Dad']);
      const second = await call('POST', `/customers/${a.user.id}/update`, {
        profiles: [
          { _id: first[1]!._id, fullname: 'Father', icon: 'couch' },
          { fullname: 'Guest', icon: 'cat' },
        ],
      });
      expect(second.statusCode, second.body).toBe(200);
      const list = body<{ user: CustomerUser }>(second).user.profiles;
      expect(list.map((p) => [p.fullname, p.icon])).toEqual([
        ['Father', 'couch'],
        ['Guest', 'cat'],
      ]);
      expect(list[0]!._id).toBe(first[1]!._id);
      // An id that is not one of yours is refused, and nothing changes.
      expect(
        (
          await call('POST', `/customers/${a.user.id}/update`, {
            profiles: [{ _id: 'ffffffffffffffffffffffff', fullname: 'X', icon: 'cat' }],
          })
        ).statusCode,
      ).toBe(404);
      expect(body<{ user: CustomerUser }>(await call('GET', '/customers')).user.profiles).toEqual(list);
      const six = Array.from({ length: 6 }, (_, i) => ({ fullname: `P${i}`, icon: 'cat' }));
      expect((await call('POST', `/customers/${a.user.id}/update`, { profiles: six })).statusCode).toBe(400);
      for (let i = list.length; i < 5; i++)
        await call('POST', `/customers/${a.user.id}/profiles`, { fullname: `P${i}`, icon: 'cat' });
      const sixth = await call('POST', `/customers/${a.user.id}/profiles`, {
        fullname: 'Sixth',
        icon: 'cat',
      });
      expect(sixth.statusCode).toBe(409);
      expect(body(sixth).code).toBe('profile_limit');
      await call('POST', `/customers/${a.user.id}/update`, { profiles: [] });
    });

    it('keeps a library per profile: a bookmark in profile A is not in profile B nor in the account’s own', async () => {
      const pa = body<{ profile: { _id: string } }>(
        await call('POST', `/customers/${a.user.id}/profiles`, { fullname: 'A', icon: 'cat' }),
      ).profile._id;
      const pb = body<{ profile: { _id: string } }>(
        await call('POST', `/customers/${a.user.id}/profiles`, { fullname: 'B', icon: 'weed' }),
      ).profile._id;
      const url = `/users/${a.user.id}`;
      const added = await call('POST', `${url}/bookmarks/603`, { meta: movieMeta() }, { 'x-profile-id': pa });
      expect(added.statusCode, added.body).toBe(200);
      await call(
        'PUT',
        `${url}/progress/550`,
        { meta: movieMeta('Fight Club', 1999), duration: 8000, watched: 1200 },
        { 'x-profile-id': pb },
      );
      await call(
        'PUT',
        `${url}/settings`,
        {
          applicationTheme: 'teal',
          enableAutoplay: false,
          subtitleStyling: {
            color: '#e2e535',
            backgroundOpacity: 0.5,
            backgroundBlur: 0.2,
            size: 1.5,
            bold: true,
          },
        },
        { 'x-profile-id': pb },
      );

      const bookmarks = async (profile?: string) =>
        body<{ tmdbId: string }[]>(
          await call('GET', `${url}/bookmarks`, undefined, profile ? { 'x-profile-id': profile } : {}),
        ).map((b) => b.tmdbId);
      expect(await bookmarks(pa)).toEqual(['603']);
      expect(await bookmarks(pb)).toEqual([]);
      expect(await bookmarks()).toEqual([]);
      expect(
        body<unknown[]>(await call('GET', `${url}/progress`, undefined, { 'x-profile-id': pb })),
      ).toHaveLength(1);
      expect(
        body<unknown[]>(await call('GET', `${url}/progress`, undefined, { 'x-profile-id': pa })),
      ).toHaveLength(0);
      expect(body(await call('GET', `${url}/settings`, undefined, { 'x-profile-id': pb }))).toMatchObject({
        applicationTheme: 'teal',
        enableAutoplay: false,
        subtitleStyling: {
          color: '#e2e535',
          backgroundOpacity: 0.5,
          backgroundBlur: 0.2,
          size: 1.5,
          bold: true,
        },
      });
      expect(body(await call('GET', `${url}/settings`, undefined, { 'x-profile-id': pa }))).toMatchObject({
        applicationTheme: null,
        enableAutoplay: null,
        subtitleStyling: null,
      });

      // Deleting a profile deletes its library.
      await call('DELETE', `/customers/${a.user.id}/profiles/${pb}`);
      for (const table of ['bookmarks', 'progress_items', 'user_settings'] as const) {
        const rows = await t.db.db.selectFrom(table).select('user_id').where('profile_id', '=', pb).execute();
        expect(rows, table).toHaveLength(0);
      }
      expect(await bookmarks(pa)).toEqual(['603']);
    });

    it('refuses another user’s profile id, and an unknown one, with 404 (and writes nothing)', async () => {
      const mallory = await signUp(t.server);
      const own = body<{ profile: { _id: string } }>(
        await call('POST', `/customers/${a.user.id}/profiles`, { fullname: 'Mine', icon: 'cat' }),
      ).profile._id;
      for (const profile of [own, 'ffffffffffffffffffffffff']) {
        const res = await t.server.inject({
          method: 'POST',
          url: `/users/${mallory.user.id}/bookmarks/603`,
          headers: { ...mallory.headers, 'x-profile-id': profile },
          payload: { meta: movieMeta() },
        });
        expect(res.statusCode).toBe(404);
        expect(body(res).code).toBe('profile_not_found');
        const read = await t.server.inject({
          method: 'GET',
          url: `/users/${mallory.user.id}/bookmarks`,
          headers: { ...mallory.headers, 'x-profile-id': profile },
        });
        expect(read.statusCode).toBe(404);
      }
      const rows = await t.db.db
        .selectFrom('bookmarks')
        .select('profile_id')
        .where('user_id', '=', mallory.user.id)
        .execute();
      expect(rows).toHaveLength(0);
      // Nor can anyone rename or delete it.
      expect(
        (
          await t.server.inject({
            method: 'PATCH',
            url: `/customers/${mallory.user.id}/profiles/${own}`,
            headers: mallory.headers,
            payload: { fullname: 'x' },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await t.server.inject({
            method: 'DELETE',
            url: `/customers/${a.user.id}/profiles/${own}`,
            headers: mallory.headers,
          })
        ).statusCode,
      ).toBe(403);
    });

    it('deletes profiles, payments and membership with the account (DELETE /users/:uid)', async () => {
      const c = await signUp(t.server);
      await t.server.inject({
        method: 'POST',
        url: `/customers/${c.user.id}/profiles`,
        headers: c.headers,
        payload: { fullname: 'Kid', icon: 'cat' },
      });
      const sub = await t.server.inject({
        method: 'POST',
        url: `/customers/${c.user.id}/suscription`,
        headers: c.headers,
        payload: { planId: 2, criptoName: 'BTC', code: null },
      });
      await t.server.inject({
        method: 'POST',
        url: `/api/payments/${sub.json().payment.id}/simulate-paid`,
        headers: c.headers,
      });
      expect(
        (await t.server.inject({ method: 'DELETE', url: `/users/${c.user.id}`, headers: c.headers }))
          .statusCode,
      ).toBe(200);
      for (const table of ['profiles', 'payments', 'memberships'] as const) {
        expect(
          await t.db.db.selectFrom(table).select('user_id').where('user_id', '=', c.user.id).execute(),
          table,
        ).toHaveLength(0);
      }
      expect(
        (
          await t.server.inject({
            method: 'POST',
            url: '/customers/auth',
            payload: { email: c.email, password: PASSWORD },
          })
        ).statusCode,
      ).toBe(401);
    });

    it('documents the customer paths (typos included) and their aliases in the OpenAPI document', async () => {
      const doc = (await t.server.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
        paths: Record<string, unknown>;
      };
      for (const path of [
        '/customers',
        '/customers/auth',
        '/customers/{uid}/update',
        '/customers/{uid}/password',
        '/customers/{uid}/suscription',
        '/customers/{uid}/subscription',
        '/promos',
        '/promos/create',
        '/promos/{code}',
        '/shkeeper/list-cripto',
        '/shkeeper/list-crypto',
        '/api/plans',
        '/api/admin/self-test',
      ]) {
        expect(doc.paths[path], path).toBeDefined();
      }
    });

    it('lets email accounts sync exactly like passphrase accounts (bookmarks, progress, settings)', async () => {
      const c = await signUp(t.server);
      const url = `/users/${c.user.id}`;
      const h = { 'x-auth-token': c.token };
      expect(
        (
          await t.server.inject({
            method: 'PUT',
            url: `${url}/bookmarks`,
            headers: h,
            payload: [{ tmdbId: '603', meta: movieMeta() }],
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await t.server.inject({
            method: 'PUT',
            url: `${url}/progress/import`,
            headers: h,
            payload: [{ tmdbId: '603', meta: movieMeta(), duration: 100, watched: 50 }],
          })
        ).statusCode,
      ).toBe(200);
      expect(
        body<unknown[]>(
          await t.server.inject({ method: 'GET', url: `${url}/bookmarks`, headers: c.headers }),
        ),
      ).toHaveLength(1);
      expect(
        body<unknown[]>(await t.server.inject({ method: 'GET', url: `${url}/progress`, headers: c.headers })),
      ).toHaveLength(1);
    });
  });
});

describe(`email sign-in limits (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: { AUTH_METHODS: 'email' },
      deps: {
        accounts: {
          passwordCost: TEST_PASSWORD_COST,
          rateLimits: {
            customer_login_email: { points: 3, durationMs: 60_000 },
            customer_register: { points: 2, durationMs: 60_000 },
          },
        },
      },
    });
  });
  afterAll(async () => t.close());

  it('rate-limits sign-in per email and registration per address with 429 and Retry-After', async () => {
    const { email } = await registerCustomer(t.server);
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t.server.inject({
            method: 'POST',
            url: '/customers/auth',
            payload: { email, password: 'guess' },
          })
        ).statusCode,
      ).toBe(401);
    }
    const limited = await t.server.inject({
      method: 'POST',
      url: '/customers/auth',
      payload: { email: email.toUpperCase(), password: PASSWORD },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(body(limited).code).toBe('rate_limited');
    await registerCustomer(t.server);
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url: '/customers',
          payload: { fullname: 'X', email: uniqueEmail(), password: PASSWORD },
        })
      ).statusCode,
    ).toBe(429);
  });
});

describe(`email registration with a captcha (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: { AUTH_METHODS: 'email', CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '1000' },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
  });
  afterAll(async () => t.close());

  it('needs a solved captcha (the register form’s widget) and takes each solution once', async () => {
    const form = { fullname: 'Robot?', email: uniqueEmail(), password: PASSWORD };
    const missing = await t.server.inject({ method: 'POST', url: '/customers', payload: form });
    expect(missing.statusCode).toBe(400);
    expect(body(missing).code).toBe('captcha_required');
    const challenge = body(await t.server.inject({ method: 'GET', url: '/auth/captcha/challenge' }));
    const solution = await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise;
    const captchaToken = Buffer.from(
      JSON.stringify({ ...challenge, number: solution!.number, took: solution!.took }),
    ).toString('base64');
    expect(
      (await t.server.inject({ method: 'POST', url: '/customers', payload: { ...form, captchaToken } }))
        .statusCode,
    ).toBe(200);
    const replay = await t.server.inject({
      method: 'POST',
      url: '/customers',
      payload: { ...form, email: uniqueEmail(), captchaToken },
    });
    expect(body(replay).code).toBe('captcha_invalid');
  });
});

describe('password hashing', () => {
  it('uses scrypt with OWASP-strength parameters by default and verifies in constant time', async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash('pässword');
    expect(hash).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await hasher.verify('pässword', hash)).toBe(true);
    // NFKC: the same text typed with a combining accent is the same password.
    expect(await hasher.verify('pa\u0308ssword', hash)).toBe(true);
    expect(await hasher.verify('password', hash)).toBe(false);
    expect(await hasher.verify('pässword', 'garbage')).toBe(false);
    expect(await hasher.verify('pässword', 'scrypt$99999999$8$1$aa$bb')).toBe(false);
    expect(new PasswordHasher(TEST_PASSWORD_COST).needsRehash(hash)).toBe(true);
    expect(hasher.needsRehash(hash)).toBe(false);
  });
});
