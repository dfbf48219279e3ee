import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PASSKEYS, type Passkey, type PasskeyLoginResponse } from '@marquee/contract';
import { PASSWORD, signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { register, startSyncApp, type SignedIn, type SyncTestApp, wordsProof } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Passkeys (decision 109), verified by the server's real WebAuthn checks against answers a software
 * authenticator builds in the standard formats: adding one needs a fresh proof of the owner, signing in
 * gives an email account a session and a passphrase account its wrapped seed, and every forged, replayed
 * or foreign answer is refused with no 5xx.
 */

const HOST = 'localhost:5180';
const ORIGIN = `http://${HOST}`;
const WRAPPED = { iv: 'AAAAAAAAAAAAAAAA', ciphertext: 'B'.repeat(64) };

describe(`passkeys (${testDialect})`, () => {
  let t: SyncTestApp;
  let email: Customer;
  let passphrase: SignedIn;

  const call = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
    t.server.inject({
      method: method as 'GET',
      url,
      headers: { host: HOST, ...headers },
      ...(payload ? { payload } : {}),
    });
  const codeOf = (res: { statusCode: number; body: string }) =>
    `${res.statusCode} ${(JSON.parse(res.body) as { code?: string }).code ?? ''}`.trim();
  const optionsFor = async (who: { headers: Record<string, string> }) => {
    const res = await call('POST', '/auth/passkeys/register/options', who.headers);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { options: Record<string, unknown> }).options;
  };
  const loginOptions = async () => {
    const res = await call('POST', '/auth/passkeys/login/options', {});
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { options: Record<string, unknown> }).options;
  };
  const login = (response: object) =>
    call('POST', '/auth/passkeys/login', {}, { response, device: 'Kitchen tablet' });
  const proofOf = (who: SignedIn) => wordsProof(t.server, who.keys);

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { passwordCost: TEST_PASSWORD_COST, rateLimits: false } } });
    email = await signUp(t.server, { fullname: 'Ada' });
    passphrase = await register(t.server);
  });
  afterAll(async () => t.close());

  it('adds a passkey to an email account with its password, and signs in with it instead of the password', async () => {
    const phone = new SoftAuthenticator(ORIGIN);
    const options = await optionsFor(email);
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Marquee' },
      user: { name: email.email },
      authenticatorSelection: { residentKey: 'required' },
      attestation: 'none',
    });
    const made = phone.create(options);
    const url = '/auth/passkeys/register';
    expect(codeOf(await call('POST', url, email.headers, { response: made.response, name: 'Phone' }))).toBe(
      '403 proof_required',
    );
    expect(
      codeOf(
        await call('POST', url, email.headers, {
          response: made.response,
          name: 'Phone',
          password: 'wrong one',
        }),
      ),
    ).toBe('403 password_incorrect');
    const kept = await call('POST', url, email.headers, {
      response: made.response,
      name: 'Phone',
      password: PASSWORD,
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toEqual({
      id: made.passkey.id,
      name: 'Phone',
      createdAt: expect.any(String),
      lastUsedAt: null,
      unlocksAccount: false,
    });
    // The challenge was used: the same answer again is refused.
    expect(
      codeOf(
        await call('POST', url, email.headers, {
          response: made.response,
          name: 'Phone',
          password: PASSWORD,
        }),
      ),
    ).toBe('400 passkey_invalid');

    const signedIn = await login(phone.get(await loginOptions()));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const answer = signedIn.json() as PasskeyLoginResponse;
    if (answer.kind !== 'email') throw new Error('an email account signs in');
    expect(answer.auth.user.email).toBe(email.email);
    expect(answer.auth.session.device).toBe('Kitchen tablet');
    const me = await call('GET', '/customers', { authorization: `Bearer ${answer.auth.token}` });
    expect(me.statusCode).toBe(200);
    const list = (await call('GET', `/users/${email.user.id}/passkeys`, email.headers)).json() as Passkey[];
    expect(list.map((p) => [p.name, p.lastUsedAt !== null])).toEqual([['Phone', true]]);
  });

  it('refuses replayed, forged, foreign-site and stale answers with 401 passkey_invalid, never a 5xx', async () => {
    const laptop = new SoftAuthenticator(ORIGIN);
    const made = laptop.create(await optionsFor(email));
    expect(
      (
        await call('POST', '/auth/passkeys/register', email.headers, {
          response: made.response,
          name: 'Laptop',
          password: PASSWORD,
        })
      ).statusCode,
    ).toBe(200);
    const options = await loginOptions();
    const answer = laptop.get(options);
    expect((await login(answer)).statusCode).toBe(200);
    // The same signed answer again (its challenge is used).
    expect(codeOf(await login(answer))).toBe('401 passkey_invalid');
    // Another site's page, another site's RP id, a challenge never issued, a registration challenge.
    expect(
      codeOf(await login(laptop.get(await loginOptions(), made.passkey, { origin: 'https://evil.example' }))),
    ).toBe('401 passkey_invalid');
    expect(
      codeOf(await login(laptop.get(await loginOptions(), made.passkey, { rpID: 'evil.example' }))),
    ).toBe('401 passkey_invalid');
    expect(codeOf(await login(laptop.get({ challenge: 'bmV2ZXItaXNzdWVk' }, made.passkey)))).toBe(
      '401 passkey_invalid',
    );
    expect(codeOf(await login(laptop.get(await optionsFor(email), made.passkey)))).toBe(
      '401 passkey_invalid',
    );
    // A passkey the server never kept, and a signature by another key.
    const stranger = new SoftAuthenticator(ORIGIN);
    const unknown = stranger.create(await optionsFor(email));
    expect(codeOf(await login(stranger.get(await loginOptions(), unknown.passkey)))).toBe(
      '401 passkey_invalid',
    );
    const forged = laptop.get(await loginOptions(), {
      ...made.passkey,
      privateKey: unknown.passkey.privateKey,
    });
    expect(codeOf(await login(forged))).toBe('401 passkey_invalid');
    // A challenge past its five minutes.
    const stale = await loginOptions();
    t.clock.advance(5 * 60_000 + 1);
    expect(codeOf(await login(laptop.get(stale, made.passkey)))).toBe('401 passkey_invalid');
    // Malformed answers are 400s.
    expect((await call('POST', '/auth/passkeys/login', {}, { response: { id: 'x' } })).statusCode).toBe(400);
  });

  it('keeps a passphrase account’s passkey only with its 12 words and its seed wrapped; signing in answers the wrapped seed', async () => {
    const key = new SoftAuthenticator(ORIGIN);
    const made = key.create(await optionsFor(passphrase));
    const url = '/auth/passkeys/register';
    const name = passphrase.keys.encryptDevice('Security key');
    const base = { response: made.response, name };
    expect(
      codeOf(await call('POST', url, passphrase.headers, { ...base, proof: await proofOf(passphrase) })),
    ).toBe('400 passkey_unlock_required');
    expect(
      codeOf(await call('POST', url, passphrase.headers, { ...base, wrappedSeed: WRAPPED, password: 'x' })),
    ).toBe('400 wrong_account_kind');
    expect(
      codeOf(
        await call('POST', url, passphrase.headers, {
          ...base,
          name: 'Security key',
          wrappedSeed: WRAPPED,
          proof: await proofOf(passphrase),
        }),
      ),
    ).toBe('400 profile_name_form');
    const other = await register(t.server);
    expect(
      codeOf(
        await call('POST', url, passphrase.headers, {
          ...base,
          wrappedSeed: WRAPPED,
          proof: await proofOf(other),
        }),
      ),
    ).toBe('403 words_incorrect');
    const kept = await call('POST', url, passphrase.headers, {
      ...base,
      wrappedSeed: WRAPPED,
      proof: await proofOf(passphrase),
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((kept.json() as Passkey).unlocksAccount).toBe(true);
    expect(passphrase.keys.decryptDevice((kept.json() as Passkey).name)).toBe('Security key');

    const signedIn = await login(key.get(await loginOptions()));
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // No session: the device opens the seed with the passkey's PRF output and signs in with it.
    expect(signedIn.json()).toEqual({
      kind: 'passphrase',
      wrappedSeed: WRAPPED,
      publicKey: passphrase.keys.publicKey,
    });
  });

  it('lists and removes only the caller’s passkeys; a removed one signs in no more', async () => {
    const tablet = new SoftAuthenticator(ORIGIN);
    const made = tablet.create(await optionsFor(email));
    await call('POST', '/auth/passkeys/register', email.headers, {
      response: made.response,
      name: 'Tablet',
      password: PASSWORD,
    });
    const url = `/users/${email.user.id}/passkeys/${made.passkey.id}`;
    expect(codeOf(await call('GET', `/users/${email.user.id}/passkeys`, passphrase.headers))).toBe(
      '403 forbidden',
    );
    expect(
      codeOf(
        await call('DELETE', `/users/${passphrase.user.id}/passkeys/${made.passkey.id}`, passphrase.headers),
      ),
    ).toBe('404 passkey_not_found');
    expect((await call('DELETE', url, email.headers)).json()).toEqual({ id: made.passkey.id });
    expect(codeOf(await call('DELETE', url, email.headers))).toBe('404 passkey_not_found');
    expect(codeOf(await login(tablet.get(await loginOptions(), made.passkey)))).toBe('401 passkey_invalid');
  });

  it(`keeps at most ${MAX_PASSKEYS} passkeys per account (409 passkey_limit)`, async () => {
    const owner = await signUp(t.server, { fullname: 'Many keys' });
    const many = new SoftAuthenticator(ORIGIN);
    for (let i = 0; i < MAX_PASSKEYS; i++) {
      const made = many.create(await optionsFor(owner));
      const res = await call('POST', '/auth/passkeys/register', owner.headers, {
        response: made.response,
        name: `Key ${i}`,
        password: PASSWORD,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(codeOf(await call('POST', '/auth/passkeys/register/options', owner.headers))).toBe(
      '409 passkey_limit',
    );
  });
});
