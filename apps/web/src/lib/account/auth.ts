import type { AuthResponse } from '@marquee/contract';
import { useAccountStore, type AccountProfile } from '../../stores/account-store.ts';
import { usePreferencesStore } from '../../stores/preferences-store.ts';
import { useSubtitlesStore } from '../../stores/subtitles-store.ts';
import { api, ApiError } from '../api/index.ts';
import { importLocalData, restore, syncEngine } from '../sync/session.ts';
import { keepSeed } from '../device-key.ts';
import { encryptDeviceName } from './device-name.ts';
import { isValidPassphrase, normalizePassphrase, keysFromSeed, seedFromPassphrase } from './passphrase.ts';

/** Every client of this app family sends this namespace (the app family's sync API). */
export const NAMESPACE = 'movie-web';

export type AuthErrorKind =
  'invalidPassphrase' | 'deviceName' | 'captcha' | 'invalidData' | 'network' | 'failed';
export class AuthError extends Error {
  constructor(
    readonly kind: AuthErrorKind,
    cause?: unknown,
  ) {
    super(kind, { cause });
    this.name = 'AuthError';
  }
}

const toAuthError = (error: unknown): AuthError => {
  if (error instanceof AuthError) return error;
  if (error instanceof ApiError) {
    if (error.status === 0) return new AuthError('network', error);
    if (error.code === 'captcha_invalid' || error.code === 'captcha_required')
      return new AuthError('captcha', error);
    if (error.status === 401) return new AuthError('invalidPassphrase', error);
    if (error.status === 400) return new AuthError('invalidData', error);
  }
  return new AuthError('failed', error);
};

export const fetchAltchaChallenge = () => api.account.captchaChallenge({ token: null });

/**
 * Stores the new session (the seed's key in IndexedDB where the platform allows, else the seed in
 * localStorage — decision 074), imports this device's library into the account, then restores (merge).
 */
async function signedIn(auth: AuthResponse, encryptedDevice: string, seed: Uint8Array): Promise<void> {
  const place = await keepSeed(auth.user.id, seed);
  useAccountStore.getState().setAccount({
    token: auth.token,
    userId: auth.user.id,
    sessionId: auth.session.id,
    deviceName: encryptedDevice,
    profile: auth.user.profile,
    ...place,
  });
  syncEngine.unblock();
  await importLocalData();
  await restore();
}

/** Login (the app family's client behaviour): check the words, derive keys, sign the server's challenge. */
export async function login(passphrase: string, deviceName: string): Promise<void> {
  if (!isValidPassphrase(passphrase)) throw new AuthError('invalidPassphrase');
  await loginWithSeed(seedFromPassphrase(passphrase), deviceName);
}

/**
 * Login with the account's seed itself: what the 12 words make, or what another device sealed to this one
 * when it let it in with a code (decision 107).
 */
export async function loginWithSeed(seed: Uint8Array, deviceName: string): Promise<void> {
  const device = deviceName.trim();
  if (!device) throw new AuthError('deviceName');
  try {
    const keys = keysFromSeed(seed);
    const { challenge } = await api.account.loginStart({ token: null, body: { publicKey: keys.publicKey } });
    const encrypted = await encryptDeviceName(device, seed);
    // `namespace` is not in our schema (accepted and ignored); servers of the older family expect it.
    const body = {
      namespace: NAMESPACE,
      publicKey: keys.publicKey,
      challenge: { code: challenge, signature: keys.sign(challenge) },
      device: encrypted,
    };
    const auth = await api.account.loginComplete({ token: null, body });
    await signedIn(auth, encrypted, seed);
  } catch (error) {
    throw toAuthError(error);
  }
}

/**
 * A fresh proof that the viewer here holds the account's 12 words (their key signs a login challenge the
 * server just issued), and the seed they make: how a passphrase account lets another device in with a
 * code (decision 107).
 */
export async function proveWords(passphrase: string): Promise<{
  seed: Uint8Array;
  proof: { publicKey: string; challenge: { code: string; signature: string } };
}> {
  const words = normalizePassphrase(passphrase);
  if (!isValidPassphrase(words)) throw new AuthError('invalidPassphrase');
  const seed = seedFromPassphrase(words);
  const keys = keysFromSeed(seed);
  try {
    const { challenge } = await api.account.loginStart({ token: null, body: { publicKey: keys.publicKey } });
    return {
      seed,
      proof: { publicKey: keys.publicKey, challenge: { code: challenge, signature: keys.sign(challenge) } },
    };
  } catch (error) {
    throw toAuthError(error);
  }
}

export interface RegisterInput {
  passphrase: string;
  deviceName: string;
  profile: AccountProfile;
  captchaToken?: string | undefined;
}

/** Registration (the app family's client behaviour, verify step onwards). */
export async function register(input: RegisterInput): Promise<void> {
  const device = input.deviceName.trim();
  if (!device) throw new AuthError('deviceName');
  try {
    const { challenge } = await api.account.registerStart({
      token: null,
      body: input.captchaToken ? { captchaToken: input.captchaToken } : {},
    });
    const seed = seedFromPassphrase(input.passphrase);
    const keys = keysFromSeed(seed);
    const encrypted = await encryptDeviceName(device, seed);
    const auth = await api.account.registerComplete({
      token: null,
      body: {
        namespace: NAMESPACE,
        publicKey: keys.publicKey,
        challenge: { code: challenge, signature: keys.sign(challenge) },
        device: encrypted,
        profile: input.profile,
      },
    });
    await signedIn(auth, encrypted, seed);
    // A new account starts with this device's choices (proxy list left alone, as the older clients do).
    const prefs = usePreferencesStore.getState();
    await api.sync
      .putSettings({
        params: { uid: auth.user.id },
        body: {
          applicationLanguage: prefs.language ?? 'en',
          applicationTheme: prefs.theme,
          defaultSubtitleLanguage: useSubtitlesStore.getState().lastSelectedLanguage,
          ...(prefs.audioLanguage ? { defaultAudioLanguage: prefs.audioLanguage } : {}),
        },
      })
      .catch(() => undefined);
  } catch (error) {
    throw toAuthError(error);
  }
}
