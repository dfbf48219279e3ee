import { testSession, testUser } from '../../test/account-fixtures.ts';
import { contractServer } from '../../test/contract-server.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { moveSeedToKeyStore } from '../../stores/account-seed.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { memoryStorage, setAppStorage, type KeyValueStorage } from '../storage.ts';
import { logout } from '../sync/session.ts';
import { login } from './auth.ts';
import { toBase64 } from '../base64.ts';
import { setKeyStore, type KeyStore } from '../device-key.ts';
import { accountDeviceKey, encryptDeviceName, readDeviceName } from './device-name.ts';
import { seedFromPassphrase } from './passphrase.ts';

const PASSPHRASE = 'awkward safe differ large subway junk gallery flight left glue fault glory';
const seed = seedFromPassphrase(PASSPHRASE);
const seedText = toBase64(seed);

/** IndexedDB as the test sees it: keys kept as structured clones, as IndexedDB keeps them. */
function memoryKeyStore(options: { refuse?: boolean; beforePut?: () => Promise<void> } = {}) {
  const keys = new Map<string, CryptoKey>();
  const store: KeyStore = {
    get: async (id) => keys.get(id),
    put: async (id, key) => {
      await options.beforePut?.();
      if (options.refuse) throw new DOMException('The object could not be cloned.', 'DataCloneError');
      keys.set(id, structuredClone(key));
    },
    delete: async (id) => void keys.delete(id),
    clear: async () => keys.clear(),
  };
  return { keys, store };
}

/** Every localStorage value that still holds the seed. */
const valuesWithSeed = (storage: KeyValueStorage) =>
  Array.from({ length: storage.length }, (_, i) => storage.key(i)!).filter((k) =>
    storage.getItem(k)!.includes(seedText),
  );

/**
 * Enough of the account server for a sign-in, typed by the contract; everything else (the restore after
 * it) answers 503, as a server that is down for it.
 */
function fakeAuthServer() {
  const sent: { device?: string } = {};
  const api = contractServer({
    account: {
      loginStart: () => ({ challenge: 'c1' }),
      loginComplete: ({ body }) => {
        const { device } = body as { device: string };
        sent.device = device;
        return {
          user: testUser({ colorA: '#0A54FF', colorB: '#2ECFA8', icon: 'couch' }),
          session: testSession(device),
          token: 'tok',
        };
      },
      patchSession: () => testSession(sent.device ?? ''),
    },
  });
  const handler = async (input: string | URL | Request, init: RequestInit = {}) => {
    const answer = await api.fetch(input, init);
    return answer.status === 404
      ? Response.json({ errorType: 'message', code: 'internal_error', message: 'down' }, { status: 503 })
      : answer;
  };
  return { sent, handler };
}

const mw = (state: unknown) => JSON.stringify({ state, version: 0 });
const oldAccount = async () => ({
  token: 'tok',
  userId: 'u1',
  sessionId: 's1',
  deviceName: await encryptDeviceName('Laptop', seed),
  seed: seedText,
  profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'cat' },
});

let storage: KeyValueStorage;
beforeEach(() => {
  storage = memoryStorage();
  setAppStorage(storage);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setKeyStore(null);
});

describe('sign-in keeps the seed out of localStorage where the platform allows (decision 074)', () => {
  it('the key goes into IndexedDB, no stored value holds the seed, and the device name still reads', async () => {
    const keys = memoryKeyStore();
    setKeyStore(keys.store);
    initStores();
    const server = fakeAuthServer();
    vi.stubGlobal('fetch', vi.fn(server.handler));

    await login(PASSPHRASE, 'Laptop');

    const account = useAccountStore.getState().account!;
    expect(account).toMatchObject({ token: 'tok', userId: 'u1', seed: '', deviceKey: 'indexeddb' });
    expect(valuesWithSeed(storage)).toEqual([]);
    expect([...keys.keys.keys()]).toEqual(['u1']);
    expect(keys.keys.get('u1')!.extractable).toBe(false);
    // The name sent to the server is the one this device reads back, and the older clients read it too.
    expect(account.deviceName).toBe(server.sent.device);
    expect(await readDeviceName(account.deviceName, await accountDeviceKey(account))).toBe('Laptop');
    expect(await readDeviceName(account.deviceName, seed)).toBe('Laptop');

    // After a reload the account is still signed in and its key found.
    initStores();
    expect(useAccountStore.getState().account).toMatchObject({ userId: 'u1', deviceKey: 'indexeddb' });
  });

  it('sign-out removes the key from IndexedDB', async () => {
    const keys = memoryKeyStore();
    setKeyStore(keys.store);
    initStores();
    vi.stubGlobal('fetch', vi.fn(fakeAuthServer().handler));
    await login(PASSPHRASE, 'Laptop');
    expect(keys.keys.size).toBe(1);

    await logout();
    expect(useAccountStore.getState().account).toBeNull();
    await vi.waitFor(() => expect(keys.keys.size).toBe(0));
  });

  it('without WebCrypto or IndexedDB (plain http) the seed is stored as the older clients store it', async () => {
    setKeyStore(null);
    initStores();
    vi.stubGlobal('fetch', vi.fn(fakeAuthServer().handler));
    await login(PASSPHRASE, 'Laptop');
    const account = useAccountStore.getState().account!;
    expect(account.seed).toBe(seedText);
    expect(account.deviceKey).toBeUndefined();
    expect(await readDeviceName(account.deviceName, await accountDeviceKey(account))).toBe('Laptop');
  });

  it('an IndexedDB that refuses the key (a private window) keeps the seed instead of losing it', async () => {
    setKeyStore(memoryKeyStore({ refuse: true }).store);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    initStores();
    vi.stubGlobal('fetch', vi.fn(fakeAuthServer().handler));
    await login(PASSPHRASE, 'Laptop');
    expect(useAccountStore.getState().account).toMatchObject({ seed: seedText });
    expect(useAccountStore.getState().account?.deviceKey).toBeUndefined();
  });
});

describe('an account stored with its seed is converted on start', () => {
  it('the older clients’ account: key into IndexedDB, the seed gone from every stored value, the rest kept', async () => {
    const keys = memoryKeyStore();
    setKeyStore(keys.store);
    storage.setItem(
      '__MW::auth',
      mw({ account: await oldAccount(), backendUrl: null, proxySet: ['https://proxy.example'] }),
    );

    initStores();
    await vi.waitFor(() => expect(useAccountStore.getState().account?.deviceKey).toBe('indexeddb'));

    const account = useAccountStore.getState().account!;
    expect(account).toMatchObject({ token: 'tok', userId: 'u1', sessionId: 's1', seed: '' });
    expect(useAccountStore.getState().proxyUrls).toEqual(['https://proxy.example']);
    expect(await readDeviceName(account.deviceName, await accountDeviceKey(account))).toBe('Laptop');
    // Not in our store, not in the backup its import made, not in the older clients' key.
    expect(valuesWithSeed(storage)).toEqual([]);
    expect(storage.getItem('marquee:backup:v0:account')).toContain('"userId":"u1"');
    expect(JSON.parse(storage.getItem('__MW::auth')!).state).toMatchObject({
      account: { token: 'tok', userId: 'u1', seed: '' },
      proxySet: ['https://proxy.example'],
    });
    expect(keys.keys.get('u1')!.extractable).toBe(false);
  });

  it('an account stored by an earlier Marquee, with its seed, is converted the same way', async () => {
    setKeyStore(memoryKeyStore().store);
    const state = { account: await oldAccount(), backendUrl: null, proxyUrls: null, lastRestoredAt: 5 };
    storage.setItem('marquee:account', JSON.stringify({ state, version: 1 }));

    initStores();
    await vi.waitFor(() => expect(useAccountStore.getState().account?.deviceKey).toBe('indexeddb'));
    expect(valuesWithSeed(storage)).toEqual([]);
    expect(JSON.parse(storage.getItem('marquee:account')!).state).toMatchObject({
      account: { userId: 'u1', seed: '', deviceKey: 'indexeddb' },
      lastRestoredAt: 5,
    });
  });

  it('without WebCrypto or IndexedDB nothing changes and the name still reads with the seed', async () => {
    setKeyStore(null);
    const state = { account: await oldAccount(), backendUrl: null, proxyUrls: null, lastRestoredAt: null };
    const raw = JSON.stringify({ state, version: 1 });
    storage.setItem('marquee:account', raw);
    initStores();
    await moveSeedToKeyStore();
    expect(storage.getItem('marquee:account')).toBe(raw);
    const account = useAccountStore.getState().account!;
    expect(await readDeviceName(account.deviceName, await accountDeviceKey(account))).toBe('Laptop');
  });

  it('another tab signing out during the conversion leaves no key behind', async () => {
    let release!: () => void;
    let putStarted!: () => void;
    const started = new Promise<void>((resolve) => (putStarted = resolve));
    const keys = memoryKeyStore({
      beforePut: () => {
        putStarted();
        return new Promise<void>((resolve) => (release = resolve));
      },
    });
    setKeyStore(keys.store);
    const state = { account: await oldAccount(), backendUrl: null, proxyUrls: null, lastRestoredAt: null };
    storage.setItem('marquee:account', JSON.stringify({ state, version: 1 }));

    initStores();
    await started;
    // The other tab's sign-out, as it lands in the shared storage.
    storage.setItem('marquee:account', JSON.stringify({ state: { ...state, account: null }, version: 1 }));
    release();
    await vi.waitFor(() => expect(useAccountStore.getState().account).toBeNull());
    await vi.waitFor(() => expect(keys.keys.size).toBe(0));
  });

  it('a stored passphrase account with neither a seed nor its key in IndexedDB is not signed in', () => {
    const state = {
      account: { ...{ token: 't', userId: 'u1', sessionId: 's1', deviceName: 'a.b.c' }, seed: '' },
      backendUrl: null,
    };
    storage.setItem('marquee:account', JSON.stringify({ state, version: 1 }));
    initStores();
    expect(useAccountStore.getState().account).toBeNull();
  });
});
