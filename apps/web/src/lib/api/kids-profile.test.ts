import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaDetails } from '@marquee/contract';
import { testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { contractServer } from '../../test/contract-server.ts';
import { initStores, kidsLimitOf, useAccountStore } from '../../stores/index.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { api } from './index.ts';

/* Decision 106: in a kids' profile, every call names the kid's profile, so the server keeps to its limit. */

const LIMIT = { region: 'US', maxAge: 10, showUnrated: false } as const;

/** The parent's account on this device, in profile `profileId` ('' = the parent's own). */
const signedInAs = (profileId: string) =>
  useAccountStore.setState({
    account: {
      ...testEmailAccount({
        ...testCustomer(),
        hasPin: true,
        profiles: [
          { _id: 'kid', fullname: 'Kid', icon: 'cat', hasPin: false, kids: LIMIT },
          { _id: 'teen', fullname: 'Teen', icon: 'cat', hasPin: false, kids: null },
        ],
      }),
      profileId,
    },
  });

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAccountStore.setState({ account: null, backendUrl: null });
});

/** The headers each call arrived with. */
function recording() {
  const seen: { route: string; auth: string | null; profile: string | null }[] = [];
  const note =
    (route: string) =>
    ({ headers }: { headers: Headers }) => {
      seen.push({ route, auth: headers.get('authorization'), profile: headers.get('x-profile-id') });
    };
  const server = contractServer({
    metadata: {
      details: (input) => {
        note('details')(input);
        return { id: '862' } as unknown as MediaDetails;
      },
    },
    sync: {
      progress: (input) => {
        note('progress')(input);
        return [];
      },
    },
    customer: {
      me: (input) => {
        note('me')(input);
        return { user: useAccountStore.getState().account!.user!, access_token: 't' };
      },
    },
  });
  vi.stubGlobal('fetch', server.fetch);
  return seen;
}

describe("a kids' profile's calls", () => {
  it('knows the profile in use is a kid’s from the account the server described', () => {
    signedInAs('kid');
    expect(kidsLimitOf(useAccountStore.getState().account)).toEqual(LIMIT);
    signedInAs('teen');
    expect(kidsLimitOf(useAccountStore.getState().account)).toBeNull();
    signedInAs('');
    expect(kidsLimitOf(useAccountStore.getState().account)).toBeNull();
  });

  it('name the kid’s profile on metadata and account calls, with the session; a call naming its own keeps it', async () => {
    const seen = recording();
    signedInAs('kid');
    await api.metadata.details({
      params: { type: 'movie', id: '862' },
      query: { language: 'en', region: 'US' },
    });
    await api.customer.me();
    await api.sync.progress({ params: { uid: 'u1' }, headers: { 'x-profile-id': 'teen' } });
    expect(seen).toEqual([
      { route: 'details', auth: 'Bearer t', profile: 'kid' },
      { route: 'me', auth: 'Bearer t', profile: 'kid' },
      { route: 'progress', auth: 'Bearer t', profile: 'teen' },
    ]);
  });

  it('name no profile for a grown-up’s profile', async () => {
    const seen = recording();
    signedInAs('teen');
    await api.metadata.details({
      params: { type: 'movie', id: '862' },
      query: { language: 'en', region: 'US' },
    });
    expect(seen).toEqual([{ route: 'details', auth: 'Bearer t', profile: null }]);
  });
});
