import type { ContentLimit, CustomerUser } from '@marquee/contract';
import { provideApiCredentials } from '../lib/api/credentials.ts';
import { appStorage, type KeyValueStorage } from '../lib/storage.ts';
import { createPersistedStore, storageKey } from './persisted.ts';
import { LEGACY_KEYS, readLegacyState } from './library/legacy.ts';

/** The five gradient colours and the six icons of a passphrase account's avatar (picked when registering). */
export const PROFILE_COLORS = ['#0A54FF', '#CF2E68', '#F9DD7F', '#7652DD', '#2ECFA8'] as const;
export const PROFILE_ICONS = ['cat', 'weed', 'userGroup', 'couch', 'mobile', 'ticket'] as const;
export type ProfileIcon = (typeof PROFILE_ICONS)[number];

export interface AccountProfile {
  colorA: string;
  colorB: string;
  icon: string;
}

/**
 * A signed-in account. Passphrase accounts are stored as the older clients stored them
 * (the app family's client behaviour), except that where the platform allows, the seed is not stored here but kept
 * as a non-extractable key in IndexedDB (`deviceKey`, decision 074); email accounts (`kind: 'email'`,
 * decision 042) have no seed and keep their device name in clear.
 */
export interface Account {
  token: string;
  userId: string;
  sessionId: string;
  /** Passphrase: encrypted with the seed (base64(iv).base64(ct).base64(tag)); email: the name itself. */
  deviceName: string;
  profile: AccountProfile;
  /**
   * base64 of the 32-byte key seed, which encrypts the device name; '' for email accounts and when the
   * key lives in IndexedDB (`deviceKey`). Only where WebCrypto is missing (plain http) is it kept here.
   */
  seed: string;
  /** 'indexeddb': the device-name key is a non-extractable CryptoKey in IndexedDB (lib/device-key.ts). */
  deviceKey?: 'indexeddb';
  kind?: 'email';
  /** The account as GET /customers last described it (name, household profiles, admin, membership). */
  user?: CustomerUser;
  /** The household profile chosen on this device ('' = the account's own); absent = not chosen yet. */
  profileId?: string;
  /** This device's unlocks of PIN-locked profiles, by profile id ('' = the account's own), decision 104. */
  unlocks?: Record<string, ProfileUnlock>;
}

/** A PIN-locked profile opened on this device: its token for the server, until `expiresAt` (epoch ms). */
export interface ProfileUnlock {
  token: string;
  expiresAt: number;
}

/** Whether the account's profile `profileId` ('' = its own) has a PIN, as the server last said. */
export function profileHasPin(account: Account | null, profileId: string): boolean {
  const user = account?.user;
  if (!user) return false;
  if (profileId === '') return user.hasPin === true;
  return user.profiles.some((p) => p._id === profileId && p.hasPin === true);
}

/**
 * The limit of the profile in use when it is a kids' profile (decision 106), as the server last said;
 * null for any other profile.
 */
export function kidsLimitOf(account: Account | null): ContentLimit | null {
  if (!account?.profileId || !account.user) return null;
  return account.user.profiles.find((p) => p._id === account.profileId)?.kids ?? null;
}

/**
 * Whether this device knows whose library it shows: a profile was chosen here, or (a passphrase account,
 * decision 108) the account has no household profiles to choose from. Else "who's watching" asks.
 */
export function profileChosen(account: Account | null): boolean {
  if (!account) return false;
  if (account.profileId !== undefined) return true;
  return account.kind !== 'email' && !account.user?.profiles.length;
}

/** The household profile in use's name, '' for the account's own (or none chosen). */
export function householdProfileName(account: Account | null): string {
  return account?.user?.profiles.find((p) => p._id === account.profileId)?.fullname ?? '';
}

/** This device's live unlock of a profile, or null. */
export function liveUnlock(
  account: Account | null,
  profileId: string,
  now = Date.now(),
): ProfileUnlock | null {
  const unlock = account?.unlocks?.[profileId];
  return unlock && unlock.expiresAt > now ? unlock : null;
}

/** A locked profile this device cannot open now: its library waits for the PIN. */
export const isProfileShut = (account: Account | null, profileId: string, now = Date.now()): boolean =>
  profileHasPin(account, profileId) && !liveUnlock(account, profileId, now);

export interface AccountStoreData {
  account: Account | null;
  /** The account server chosen in settings; null = this instance. */
  backendUrl: string | null;
  /** Custom proxy list (settings › connections); null = the instance's default. */
  proxyUrls: string[] | null;
  /** When this device last loaded the account's library from the server (epoch ms). */
  lastRestoredAt: number | null;
}

interface AccountActions {
  setAccount(account: Account | null): void;
  updateAccount(patch: Partial<Account>): void;
  setBackendUrl(url: string | null): void;
  setProxyUrls(urls: string[] | null): void;
  markRestored(at: number): void;
}

export type AccountState = AccountStoreData & AccountActions;

const initial = (): AccountStoreData => ({
  account: null,
  backendUrl: null,
  proxyUrls: null,
  lastRestoredAt: null,
});
const isObj = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] | null =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;

function parseUnlocks(v: unknown): Record<string, ProfileUnlock> | undefined {
  if (!isObj(v)) return undefined;
  const out: Record<string, ProfileUnlock> = {};
  for (const [id, u] of Object.entries(v))
    if (isObj(u) && typeof u.token === 'string' && u.token && typeof u.expiresAt === 'number')
      out[id] = { token: u.token, expiresAt: u.expiresAt };
  return Object.keys(out).length ? out : undefined;
}

function parseAccount(v: unknown): Account | null {
  if (!isObj(v)) return null;
  const email = v.kind === 'email';
  const fields = email
    ? (['token', 'userId', 'sessionId'] as const)
    : (['token', 'userId', 'sessionId', 'deviceName'] as const);
  if (!fields.every((f) => typeof v[f] === 'string' && v[f] !== '')) return null;
  const seed = typeof v.seed === 'string' ? v.seed : '';
  // A passphrase account has its seed here, or its key in IndexedDB.
  const keyStored = !email && !seed && v.deviceKey === 'indexeddb';
  if (!email && !seed && !keyStored) return null;
  const p = isObj(v.profile) ? v.profile : {};
  return {
    token: v.token,
    userId: v.userId,
    sessionId: v.sessionId,
    deviceName: typeof v.deviceName === 'string' ? v.deviceName : '',
    seed,
    ...(keyStored ? { deviceKey: 'indexeddb' as const } : {}),
    ...(email ? { kind: 'email' as const } : {}),
    ...(isObj(v.user) && typeof v.user.id === 'string' && Array.isArray(v.user.profiles)
      ? { user: v.user as CustomerUser }
      : {}),
    ...(typeof v.profileId === 'string' ? { profileId: v.profileId } : {}),
    ...(parseUnlocks(v.unlocks) ? { unlocks: parseUnlocks(v.unlocks)! } : {}),
    profile: {
      colorA: typeof p.colorA === 'string' ? p.colorA : PROFILE_COLORS[0],
      colorB: typeof p.colorB === 'string' ? p.colorB : PROFILE_COLORS[0],
      icon: typeof p.icon === 'string' ? p.icon : 'userGroup',
    },
  };
}

export const useAccountStore = createPersistedStore<AccountStoreData, AccountState>(
  {
    name: 'account',
    version: 1,
    initial,
    legacy: (storage) => readLegacyState(storage, LEGACY_KEYS.auth),
    migrations: {
      // __MW::auth: {account, backendUrl, proxySet}
      1: (old: Record<string, unknown>): AccountStoreData => ({
        account: parseAccount(old.account),
        backendUrl: typeof old.backendUrl === 'string' && old.backendUrl ? old.backendUrl : null,
        proxyUrls: strings(old.proxySet),
        lastRestoredAt: null,
      }),
    },
    sanitize: (d: Record<string, unknown>) => ({
      account: parseAccount(d.account),
      backendUrl: typeof d.backendUrl === 'string' && d.backendUrl ? d.backendUrl : null,
      proxyUrls: strings(d.proxyUrls),
      lastRestoredAt: typeof d.lastRestoredAt === 'number' ? d.lastRestoredAt : null,
    }),
  },
  (set) => ({
    ...initial(),
    setAccount: (account) => {
      let keyStored = false;
      set((s) => {
        keyStored = s.account?.deviceKey === 'indexeddb';
        return { account, lastRestoredAt: null };
      });
      // Sign-out: the account's key leaves IndexedDB too (a new sign-in replaces it by itself).
      if (keyStored && !account) void import('../lib/device-key.ts').then((m) => m.forgetDeviceKeys());
    },
    updateAccount: (patch) => set((s) => (s.account ? { account: { ...s.account, ...patch } } : {})),
    setBackendUrl: (backendUrl) => set(() => ({ backendUrl })),
    setProxyUrls: (proxyUrls) => set(() => ({ proxyUrls })),
    markRestored: (lastRestoredAt) => set(() => ({ lastRestoredAt })),
  }),
);

/** The server refused `profileId` as locked: its unlock here is over, and it is known to have a PIN. */
export function markProfileLocked(profileId: string): void {
  useAccountStore.setState((s) => {
    const account = s.account;
    if (!account) return {};
    const unlocks = { ...account.unlocks };
    delete unlocks[profileId];
    const user = account.user && {
      ...account.user,
      ...(profileId === '' ? { hasPin: true } : {}),
      profiles: account.user.profiles.map((p) => (p._id === profileId ? { ...p, hasPin: true } : p)),
    };
    return { account: { ...account, unlocks, ...(user ? { user } : {}) } };
  });
}

/**
 * Before the stores start (the opened page's data is asked for beside the app's code): whether the
 * account stored on this device is in a kids' profile (decision 106), whose titles must be asked for with
 * its session.
 */
export function storedInKidsProfile(storage: KeyValueStorage = appStorage()): boolean {
  try {
    const raw = storage.getItem(storageKey('account'));
    const stored = raw ? (JSON.parse(raw) as { state?: { account?: unknown } }).state?.account : null;
    return kidsLimitOf(parseAccount(stored)) !== null;
  } catch {
    return false;
  }
}

// The API client sends the signed-in account's token, to the account server chosen here by default.
provideApiCredentials({
  token: () => useAccountStore.getState().account?.token ?? null,
  backendUrl: () => useAccountStore.getState().backendUrl,
  profileToken: (profileId) => liveUnlock(useAccountStore.getState().account, profileId)?.token ?? null,
  profileLocked: (profileId) => markProfileLocked(profileId),
  kidsProfile: () => {
    const account = useAccountStore.getState().account;
    return kidsLimitOf(account) ? account!.profileId! : null;
  },
});

export const isSignedIn = () => useAccountStore.getState().account !== null;
