import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CustomerProfile, CustomerUser } from '@marquee/contract';
import { testAccount, testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { contractServer } from '../../test/contract-server.ts';
import { initStores, profileChosen, useAccountStore, type Account } from '../../stores/index.ts';
import { toBase64 } from '../base64.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { createProfile, fetchCustomer, patchProfile, updateCustomer } from './customer-api.ts';
import { decryptDeviceName, encryptDeviceName } from './device-name.ts';
import { readableUser } from './profile-names.ts';

/* Decision 108: a passphrase account's profile names leave the device sealed with its key, and come back readable. */

const SEED = new Uint8Array(32).map((_, i) => i + 1);
const OTHER_SEED = new Uint8Array(32).fill(7);
const passphraseAccount = (): Account => ({ ...testAccount(), seed: toBase64(SEED) });

/** A customer server that keeps what it is sent, as the real one does (names unread). */
function household(initial: CustomerUser) {
  let user = initial;
  const received: string[] = [];
  const profile = (fullname: string, _id = `p${user.profiles.length + 1}`): CustomerProfile => ({
    _id,
    fullname,
    icon: 'cat',
    hasPin: false,
    kids: null,
  });
  const server = contractServer({
    customer: {
      me: () => ({ user, access_token: 't' }),
      createProfile: (input) => {
        const body = input.body as { fullname: string };
        received.push(body.fullname);
        const made = profile(body.fullname);
        user = { ...user, profiles: [...user.profiles, made] };
        return { user, profile: made };
      },
      patchProfile: ({ params, body: sent }) => {
        const body = sent as { fullname?: string };
        if (body.fullname) received.push(body.fullname);
        user = {
          ...user,
          profiles: user.profiles.map((p) =>
            p._id === params.profileId ? { ...p, fullname: body.fullname ?? p.fullname } : p,
          ),
        };
        return { user, profile: user.profiles.find((p) => p._id === params.profileId)! };
      },
      update: ({ body: sent }) => {
        const body = sent as { fullname?: string };
        if (body.fullname) received.push(body.fullname);
        user = { ...user, fullname: body.fullname ?? user.fullname };
        return { user };
      },
    },
  });
  vi.stubGlobal('fetch', server.fetch);
  return { received, stored: () => user };
}

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAccountStore.setState({ account: null, backendUrl: null });
});

describe('profile names of a passphrase account', () => {
  const passphraseUser = (): CustomerUser => ({ ...testCustomer(), email: null, fullname: '' });

  it('leave sealed with the account key, and are stored and shown readable', async () => {
    useAccountStore.getState().setAccount(passphraseAccount());
    const server = household(passphraseUser());
    await createProfile({ fullname: 'Mia', icon: 'cat' });
    const id = server.stored().profiles[0]!._id;
    await patchProfile(id, { fullname: 'Mia B.' });
    const user = await updateCustomer({ fullname: 'Sam' });
    // What the server got: nothing readable, each opening with the seed to what was typed.
    expect(server.received.some((name) => /Mia|Sam/.test(name))).toBe(false);
    expect(await Promise.all(server.received.map((name) => decryptDeviceName(name, SEED)))).toEqual([
      'Mia',
      'Mia B.',
      'Sam',
    ]);
    // What the device keeps and shows.
    expect(user.fullname).toBe('Sam');
    const stored = useAccountStore.getState().account!.user!;
    expect(stored.fullname).toBe('Sam');
    expect(stored.profiles.map((p) => p.fullname)).toEqual(['Mia B.']);
  });

  it('read as empty when they do not open with this account’s key (the screens name them then)', async () => {
    const foreign = await encryptDeviceName('Someone', OTHER_SEED);
    const user = {
      ...passphraseUser(),
      fullname: 'plain text',
      profiles: [
        { _id: 'a', fullname: foreign, icon: 'cat' as const },
        { _id: 'b', fullname: await encryptDeviceName('Kid', SEED), icon: 'cat' as const },
      ],
    };
    const readable = await readableUser(passphraseAccount(), user);
    expect(readable.fullname).toBe('');
    expect(readable.profiles.map((p) => p.fullname)).toEqual(['', 'Kid']);
  });

  it('of an email account travel and stay as typed', async () => {
    useAccountStore.getState().setAccount(testEmailAccount());
    const server = household(testCustomer());
    await createProfile({ fullname: 'Mia', icon: 'cat' });
    expect(server.received).toEqual(['Mia']);
    expect((await fetchCustomer()).profiles.map((p) => p.fullname)).toEqual(['Mia']);
  });
});

describe("who's watching", () => {
  const withProfiles = (account: Account, profiles: CustomerProfile[]): Account => ({
    ...account,
    user: { ...testCustomer(), profiles },
  });
  const kid: CustomerProfile = { _id: 'kid', fullname: 'Kid', icon: 'cat' };

  it('asks an email account until a profile is chosen on the device', () => {
    expect(profileChosen(testEmailAccount())).toBe(false);
    expect(profileChosen({ ...testEmailAccount(), profileId: '' })).toBe(true);
  });

  it('asks a passphrase account only once it has household profiles', () => {
    expect(profileChosen(passphraseAccount())).toBe(true);
    expect(profileChosen(withProfiles(passphraseAccount(), []))).toBe(true);
    expect(profileChosen(withProfiles(passphraseAccount(), [kid]))).toBe(false);
    expect(profileChosen({ ...withProfiles(passphraseAccount(), [kid]), profileId: 'kid' })).toBe(true);
    expect(profileChosen(null)).toBe(false);
  });
});
