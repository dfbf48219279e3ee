import type { CustomerUser, Session } from '@marquee/contract';
import { useAccountStore, type Account } from '../../stores/account-store.ts';
import { appStorage } from '../storage.ts';
import { api } from '../api/index.ts';
import { ACCESS_TOKEN_KEY, importLocalData, restore, syncEngine } from '../sync/session.ts';

/** The avatar colours the server gives email accounts (their avatar is the chosen icon on these). */
const EMAIL_AVATAR = { colorA: '#2E5BFF', colorB: '#8C3DD6' };

function emailAccount(token: string, user: CustomerUser, session: Session): Account {
  return {
    kind: 'email',
    token,
    userId: user.id,
    sessionId: session.id,
    deviceName: session.device,
    seed: '',
    profile: { ...EMAIL_AVATAR, icon: user.icon },
    user,
  };
}

/** Stores the new session, imports this device's library into the account, then restores (merge). */
async function signedIn(account: Account): Promise<void> {
  useAccountStore.getState().setAccount(account);
  appStorage().setItem(ACCESS_TOKEN_KEY, account.token);
  syncEngine.unblock();
  await importLocalData();
  await restore();
}

/**
 * POST /customers (decision 040): fullname, email, password (the confirmation is not sent) and the
 * captcha token. No session: the user signs in next.
 */
export async function registerWithEmail(body: {
  fullname: string;
  email: string;
  password: string;
  captchaToken?: string;
}): Promise<void> {
  await api.customer.register({ token: null, body });
}

/**
 * POST /customers/auth: email and password → token; the account's library then syncs like any other.
 * `failedSignIns`: wrong passwords tried on the account since its last sign-in (the owner is told).
 */
export async function loginWithEmail(
  email: string,
  password: string,
): Promise<{ user: CustomerUser; failedSignIns: number }> {
  const auth = await api.customer.login({
    token: null,
    body: { email: email.trim(), password },
  });
  await signedIn(emailAccount(auth.token, auth.user, auth.session));
  return { user: auth.user, failedSignIns: auth.failedSignIns ?? 0 };
}

/**
 * A session the server made for this device some other way — another device approved its code (decision
 * 105), a passkey (decision 109): the account's library then syncs.
 */
export async function signInWithSession(auth: {
  user: CustomerUser;
  token: string;
  session: Session;
}): Promise<void> {
  await signedIn(emailAccount(auth.token, auth.user, auth.session));
}

/**
 * A token left under `accessToken` by the older clients' customer login, with no account stored here: the
 * session is adopted (its user and session looked up) instead of asking the user to sign in again.
 */
export async function adoptAccessToken(): Promise<boolean> {
  const token = appStorage().getItem(ACCESS_TOKEN_KEY);
  if (!token || useAccountStore.getState().account) return false;
  try {
    const [me, customer] = await Promise.all([api.account.me({ token }), api.customer.me({ token })]);
    // A passphrase account cannot be adopted without its seed.
    if (!customer.user.email || useAccountStore.getState().account) return false;
    await signedIn(emailAccount(token, customer.user, me.session));
    return true;
  } catch {
    appStorage().removeItem(ACCESS_TOKEN_KEY);
    return false;
  }
}
