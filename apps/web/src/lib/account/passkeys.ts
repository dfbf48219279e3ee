import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { passkeyRoutes } from '@marquee/contract/values';
import type { passkeyEndpoints } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { group } from '../api/client.ts';
import { ApiError } from '../api/index.ts';
import { keysFromSeed } from './passphrase.ts';
import { prfInput, unwrapSeed, wrapSeed } from './passkey-seed.ts';
import { readableName, sealedName } from './profile-names.ts';

/*
 * Passkeys (decision 109). An email account signs in with one instead of its password. A passphrase
 * account's passkey wraps the account's seed with the authenticator's PRF output, so it opens the account
 * on a device without the 12 words: the server answers the wrapped seed to a verified passkey, and only
 * that authenticator's PRF output opens it. Adding one is a fresh sign-in: the password, or the 12 words.
 */

export const passkeysApi = group<typeof passkeyEndpoints>(passkeyRoutes, 'account');

/** Why a passkey ceremony stopped on this side (the server's refusals are ApiErrors). */
export type PasskeyErrorKind =
  /** The viewer closed the browser's passkey dialog, or it timed out. */
  | 'cancelled'
  /** This browser has no WebAuthn (or the page is not a secure context). */
  | 'unsupported'
  /** The authenticator has no PRF: its passkey cannot open a passphrase account. */
  | 'noUnlock'
  /** The wrapped seed did not open with this passkey. */
  | 'unreadable';

export class PasskeyError extends Error {
  constructor(readonly kind: PasskeyErrorKind) {
    super(`passkey: ${kind}`);
  }
}

export interface PasskeyItem {
  id: string;
  /** Readable ('' when a passphrase account's sealed name does not open here). */
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  unlocksAccount: boolean;
}

/** WebAuthn here: a secure context whose browser has it. */
export const passkeysSupported = (): boolean =>
  typeof window !== 'undefined' && window.isSecureContext && browserSupportsWebAuthn();

/** The browser's refusals: a closed dialog or a timeout is the viewer's choice, not a failure. */
function browserError(error: unknown): never {
  if (error instanceof ApiError || error instanceof PasskeyError) throw error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') throw new PasskeyError('cancelled');
  if (name === 'NotSupportedError' || name === 'SecurityError') throw new PasskeyError('unsupported');
  throw error;
}

const prfExtension = () => ({ prf: { eval: { first: prfInput() } } });

/** The PRF output the authenticator gave in this ceremony, if it gave one. */
function prfOutputOf(results: object): Uint8Array | null {
  const first = (results as { prf?: { results?: { first?: ArrayBuffer | ArrayBufferView } } }).prf?.results
    ?.first;
  if (!first) return null;
  return first instanceof ArrayBuffer
    ? new Uint8Array(first)
    : new Uint8Array(first.buffer, first.byteOffset, first.byteLength);
}

/** What the server takes of a registration: never the extension outputs (the PRF output is a secret). */
const registrationOf = (r: RegistrationResponseJSON) => ({
  id: r.id,
  rawId: r.rawId,
  type: r.type,
  response: {
    clientDataJSON: r.response.clientDataJSON,
    attestationObject: r.response.attestationObject,
    ...(r.response.transports ? { transports: r.response.transports } : {}),
  },
  ...(r.authenticatorAttachment ? { authenticatorAttachment: r.authenticatorAttachment } : {}),
});
const assertionOf = (r: AuthenticationResponseJSON) => ({
  id: r.id,
  rawId: r.rawId,
  type: r.type,
  response: {
    clientDataJSON: r.response.clientDataJSON,
    authenticatorData: r.response.authenticatorData,
    signature: r.response.signature,
    ...(r.response.userHandle ? { userHandle: r.response.userHandle } : {}),
  },
  ...(r.authenticatorAttachment ? { authenticatorAttachment: r.authenticatorAttachment } : {}),
});

function currentAccount() {
  const account = useAccountStore.getState().account;
  if (!account) throw new ApiError(401, 'unauthorized', 'Not logged in');
  return account;
}

export async function listPasskeys(): Promise<PasskeyItem[]> {
  const account = currentAccount();
  const list = await passkeysApi.list({ params: { uid: account.userId } });
  return Promise.all(list.map(async (p) => ({ ...p, name: await readableName(account, p.name) })));
}

export async function removePasskey(id: string): Promise<void> {
  await passkeysApi.remove({ params: { uid: currentAccount().userId, passkeyId: id } });
}

/**
 * The PRF output for a passkey just made: most authenticators give it at creation; others only say they
 * can, and give it when the passkey is used once (a second touch).
 */
async function prfAfterCreate(created: RegistrationResponseJSON): Promise<Uint8Array> {
  const now = prfOutputOf(created.clientExtensionResults);
  if (now) return now;
  const enabled = (created.clientExtensionResults as { prf?: { enabled?: boolean } }).prf?.enabled;
  if (enabled === false) throw new PasskeyError('noUnlock');
  const { options } = await passkeysApi.loginOptions({ token: null });
  const used = await startAuthentication({
    optionsJSON: {
      ...(options as unknown as PublicKeyCredentialRequestOptionsJSON),
      allowCredentials: [{ id: created.id, type: 'public-key' }],
      extensions: prfExtension() as never,
    },
  }).catch(browserError);
  const output = prfOutputOf(used.clientExtensionResults);
  if (!output) throw new PasskeyError('noUnlock');
  return output;
}

/**
 * Adds a passkey to the signed-in account. `secret`: an email account's password, or a passphrase
 * account's 12 words (they prove the owner and give the seed the passkey wraps).
 */
export async function addPasskey(input: { name: string; secret: string }): Promise<PasskeyItem> {
  if (!passkeysSupported()) throw new PasskeyError('unsupported');
  const account = currentAccount();
  const passphrase = account.kind !== 'email';
  // The words first: a typing mistake is told before the browser's dialog opens.
  const words = passphrase ? await (await import('./auth.ts')).proveWords(input.secret) : null;
  const { options } = await passkeysApi.registerOptions();
  const created = await startRegistration({
    optionsJSON: {
      ...(options as unknown as PublicKeyCredentialCreationOptionsJSON),
      extensions: prfExtension() as never,
    },
  }).catch(browserError);
  const wrappedSeed = words ? wrapSeed(words.seed, await prfAfterCreate(created), created.rawId) : undefined;
  const kept = await passkeysApi.register({
    body: {
      response: registrationOf(created),
      name: await sealedName(account, input.name.trim()),
      ...(words ? { proof: words.proof, wrappedSeed } : { password: input.secret }),
    },
  });
  return { ...kept, name: input.name.trim() };
}

/**
 * Signs in with a passkey of this site. An email account is signed in; a passphrase account's seed is
 * opened with the PRF output of the same touch and signs in as the 12 words would, naming this device
 * `deviceName`.
 */
export async function signInWithPasskey(deviceName: string): Promise<{ kind: 'email' | 'passphrase' }> {
  if (!passkeysSupported()) throw new PasskeyError('unsupported');
  const { options } = await passkeysApi.loginOptions({ token: null });
  const used = await startAuthentication({
    optionsJSON: {
      ...(options as unknown as PublicKeyCredentialRequestOptionsJSON),
      extensions: prfExtension() as never,
    },
  }).catch(browserError);
  const answer = await passkeysApi.login({
    token: null,
    body: { response: assertionOf(used), device: deviceName },
  });
  if (answer.kind === 'email') {
    await (await import('./email-auth.ts')).signInWithSession(answer.auth);
    return { kind: 'email' };
  }
  const output = prfOutputOf(used.clientExtensionResults);
  if (!output) throw new PasskeyError('noUnlock');
  let seed: Uint8Array;
  try {
    seed = unwrapSeed(answer.wrappedSeed, output, used.rawId);
  } catch {
    throw new PasskeyError('unreadable');
  }
  if (keysFromSeed(seed).publicKey !== answer.publicKey) throw new PasskeyError('unreadable');
  await (await import('./auth.ts')).loginWithSeed(seed, deviceName);
  return { kind: 'passphrase' };
}
