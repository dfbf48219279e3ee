import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerUser, ProfileUnlockResponse } from '@marquee/contract';
import { callOn, signUp, TEST_PASSWORD_COST, type Caller } from './customer-harness.ts';
import {
  login,
  register,
  showMeta,
  startSyncApp,
  type SignedIn,
  type SyncTestApp,
  wordsProof,
} from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Household profiles for passphrase accounts (decision 108): the customer routes serve both account
 * kinds; a passphrase account's profile names arrive sealed with its key and are stored unread; its
 * owner proves a PIN change with a fresh signed login challenge (the 12 words); older clients, which name
 * no profile, keep using the account's own library.
 */

const PIN = '1357';

describe(`profiles for passphrase accounts (${testDialect})`, () => {
  let t: SyncTestApp;
  let account: SignedIn;
  let stranger: SignedIn;
  let kid: string;

  const call: Caller = (...args) => callOn(t.server, ...args);
  const codeOf = (res: { statusCode: number; body: string }) =>
    `${res.statusCode} ${(JSON.parse(res.body) as { code?: string }).code ?? ''}`.trim();
  const sealed = (who: SignedIn, name: string) => who.keys.encryptDevice(name);
  const proofOf = (who: SignedIn) => wordsProof(t.server, who.keys);
  const setPin = (who: SignedIn, body: object) =>
    call('PUT', `/customers/${who.user.id}/profile-pin`, who.headers, body);
  const as = (who: SignedIn, profileId: string, token?: string) => ({
    ...who.headers,
    'x-profile-id': profileId,
    ...(token ? { 'x-profile-token': token } : {}),
  });
  const progressOf = async (headers: Record<string, string>) => {
    const res = await call('GET', `/users/${account.user.id}/progress`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { tmdbId: string }[]).map((p) => p.tmdbId);
  };

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { passwordCost: TEST_PASSWORD_COST } } });
    account = await register(t.server);
    stranger = await register(t.server);
  });
  afterAll(async () => t.close());

  it('keeps a passphrase household: profiles named in sealed form, read back as sent, never in clear', async () => {
    const name = sealed(account, 'Mia');
    const made = await call('POST', `/customers/${account.user.id}/profiles`, account.headers, {
      fullname: name,
      icon: 'cat',
    });
    expect(made.statusCode, made.body).toBe(200);
    kid = (made.json() as { profile: { _id: string } }).profile._id;
    const me = (await call('GET', '/customers', account.headers)).json() as { user: CustomerUser };
    expect(me.user.email).toBeNull();
    expect(me.user.profiles).toEqual([expect.objectContaining({ _id: kid, fullname: name, icon: 'cat' })]);
    expect(account.keys.decryptDevice(me.user.profiles[0]!.fullname)).toBe('Mia');
    // Stored as it came: the server holds no readable name of the household.
    const rows = await t.db.db
      .selectFrom('profiles')
      .select('fullname')
      .where('user_id', '=', account.user.id)
      .execute();
    expect(JSON.stringify(rows)).not.toContain('Mia');

    // Renamed, and the account's own profile named, the same way.
    const renamed = sealed(account, 'Mia B.');
    const patched = await call('PATCH', `/customers/${account.user.id}/profiles/${kid}`, account.headers, {
      fullname: renamed,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const own = await call('POST', `/customers/${account.user.id}/update`, account.headers, {
      fullname: sealed(account, 'Sam'),
      icon: 'couch',
    });
    expect(own.statusCode, own.body).toBe(200);
    const user = (own.json() as { user: CustomerUser }).user;
    expect(account.keys.decryptDevice(user.fullname)).toBe('Sam');
    expect(user.icon).toBe('couch');
    expect(account.keys.decryptDevice(user.profiles[0]!.fullname)).toBe('Mia B.');
  });

  it('refuses a name in the other account kind’s form (400 profile_name_form), changing nothing', async () => {
    const url = `/customers/${account.user.id}`;
    const update = `${url}/update`;
    const before = JSON.stringify((await call('GET', '/customers', account.headers)).json());
    expect(
      codeOf(await call('POST', `${url}/profiles`, account.headers, { fullname: 'Plain', icon: 'cat' })),
    ).toBe('400 profile_name_form');
    expect(
      codeOf(await call('PATCH', `${url}/profiles/${kid}`, account.headers, { fullname: 'Plain' })),
    ).toBe('400 profile_name_form');
    expect(codeOf(await call('POST', update, account.headers, { fullname: 'Plain' }))).toBe(
      '400 profile_name_form',
    );
    expect(
      codeOf(
        await call('POST', update, account.headers, {
          profiles: [{ _id: kid, fullname: 'Plain', icon: 'cat' }],
        }),
      ),
    ).toBe('400 profile_name_form');
    expect(JSON.stringify((await call('GET', '/customers', account.headers)).json())).toBe(before);

    // An email account's names are plain, at most 100 characters: a sealed blob is not one.
    const email = await signUp(t.server, { fullname: 'Parent' });
    const blob = sealed(account, 'x'.repeat(90));
    expect(blob.length).toBeGreaterThan(100);
    expect(
      codeOf(
        await call('POST', `/customers/${email.user.id}/profiles`, email.headers, {
          fullname: blob,
          icon: 'cat',
        }),
      ),
    ).toBe('400 profile_name_form');
    const ok = await call('POST', `/customers/${email.user.id}/profiles`, email.headers, {
      fullname: 'Jo.Ann.Lee',
      icon: 'cat',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('gives each profile its own library; an older client naming no profile sees the account’s own', async () => {
    const progress = { meta: showMeta(), duration: 2900, watched: 600, seasonId: 's', episodeId: 'e' };
    expect(
      (await call('PUT', `/users/${account.user.id}/progress/1396`, as(account, kid), progress)).statusCode,
    ).toBe(200);
    expect(
      (await call('PUT', `/users/${account.user.id}/progress/1399`, account.headers, progress)).statusCode,
    ).toBe(200);
    expect(await progressOf(as(account, kid))).toEqual(['1396']);
    // Another device of the account, signed in the way the app family's clients do.
    const older = await login(t.server, account.keys, 'Old client');
    expect(await progressOf(older.headers)).toEqual(['1399']);
    // Another account cannot name this account's profile.
    const foreign = await call('GET', `/users/${stranger.user.id}/progress`, as(stranger, kid));
    expect(codeOf(foreign)).toBe('404 profile_not_found');
  });

  it('locks a profile with the 12 words as the owner’s proof, and opens it with its PIN', async () => {
    expect(codeOf(await setPin(account, { profileId: kid, pin: PIN, password: 'anything' }))).toBe(
      '400 wrong_account_kind',
    );
    expect(codeOf(await setPin(account, { profileId: kid, pin: PIN }))).toBe('403 pin_proof_required');
    const locked = await setPin(account, { profileId: kid, pin: PIN, proof: await proofOf(account) });
    expect(locked.statusCode, locked.body).toBe(200);
    expect((locked.json() as { user: CustomerUser }).user.profiles[0]!.hasPin).toBe(true);
    expect(codeOf(await call('GET', `/users/${account.user.id}/progress`, as(account, kid)))).toBe(
      '403 profile_locked',
    );
    const unlock = await call('POST', `/customers/${account.user.id}/profile-unlock`, account.headers, {
      profileId: kid,
      pin: PIN,
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
    const { token } = unlock.json() as ProfileUnlockResponse;
    expect(await progressOf(as(account, kid, token))).toEqual(['1396']);
    // The current PIN changes it too.
    const changed = await setPin(account, { profileId: kid, pin: '97531', currentPin: PIN });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(codeOf(await call('GET', `/users/${account.user.id}/progress`, as(account, kid, token)))).toBe(
      '403 profile_locked',
    );
  });

  it('refuses stale, replayed, tampered and another account’s words, then makes the device wait; never a 5xx', async () => {
    const device = await login(t.server, account.keys, 'Shared laptop');
    const proof = await proofOf(account);
    const tampered = {
      ...proof,
      challenge: {
        ...proof.challenge,
        signature: proof.challenge.signature.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')),
      },
    };
    const tries = [
      { proof: await proofOf(stranger) },
      { proof: tampered },
      { proof: { ...proof, challenge: { ...proof.challenge, code: 'never-issued' } } },
      { proof: { publicKey: stranger.keys.publicKey, challenge: proof.challenge } },
    ];
    for (const body of tries)
      expect(codeOf(await setPin(device, { profileId: kid, pin: null, ...body }))).toBe(
        '403 words_incorrect',
      );
    // A proof is spent once it is checked.
    const used = await proofOf(account);
    expect((await setPin(device, { profileId: kid, pin: '2468', proof: used })).statusCode).toBe(200);
    expect(codeOf(await setPin(device, { profileId: kid, pin: null, proof: used }))).toBe(
      '403 words_incorrect',
    );
    // Past the free failures the account waits, even with a right proof, on this device and the others.
    let res = await setPin(device, { profileId: kid, pin: null, proof: await proofOf(stranger) });
    for (let i = 0; i < 10 && res.statusCode !== 429; i++)
      res = await setPin(device, { profileId: kid, pin: null, proof: await proofOf(stranger) });
    expect(codeOf(res)).toBe('429 rate_limited');
    expect(res.headers['retry-after']).toBeDefined();
    for (const who of [device, account])
      expect(codeOf(await setPin(who, { profileId: kid, pin: null, proof: await proofOf(account) }))).toBe(
        '429 rate_limited',
      );
    // The PIN is as the last right proof set it.
    const unlock = await call('POST', `/customers/${account.user.id}/profile-unlock`, account.headers, {
      profileId: kid,
      pin: '2468',
    });
    expect(unlock.statusCode, unlock.body).toBe(200);
  });

  it('makes a passphrase household’s profile a kids’ one, held by the server like an email account’s', async () => {
    const limit = { region: 'US', maxAge: 7, showUnrated: false };
    const tokenOn = async (who: SignedIn) => {
      const res = await call('POST', `/customers/${who.user.id}/profile-unlock`, who.headers, {
        profileId: kid,
        pin: '2468',
      });
      return (res.json() as ProfileUnlockResponse).token;
    };
    const patched = await call(
      'PATCH',
      `/customers/${account.user.id}/profiles/${kid}`,
      as(account, kid, await tokenOn(account)),
      {
        kids: limit,
      },
    );
    expect(patched.statusCode, patched.body).toBe(200);
    const tv = await login(t.server, account.keys, 'Living-room TV');
    const entered = await call(
      'POST',
      `/customers/${account.user.id}/profile-enter`,
      as(tv, kid, await tokenOn(tv)),
      {
        profileId: kid,
      },
    );
    expect(entered.statusCode, entered.body).toBe(200);
    expect(entered.json()).toEqual({ profileId: kid, kids: limit });
    // The kid's device: its own library whatever it names, and none of the account's settings.
    expect(codeOf(await call('GET', `/users/${account.user.id}/progress`, tv.headers))).toBe(
      '403 profile_locked',
    );
    expect(await progressOf(as(tv, kid, await tokenOn(tv)))).toEqual(['1396']);
    expect(codeOf(await call('GET', `/users/${account.user.id}/sessions`, tv.headers))).toBe(
      '403 kids_profile',
    );
    expect(codeOf(await setPin(tv, { profileId: kid, pin: null, proof: await proofOf(account) }))).toBe(
      '403 kids_profile',
    );
  });
});
