import { PROFILE_TOKEN_HEADER } from '@marquee/contract/values';
import type { customerEndpoints, CustomerUser, membershipEndpoints } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { api, ApiError, type ApiInput } from '../api/index.ts';

/**
 * The customer API (email accounts, household profiles, memberships, promo codes, admin) as the web
 * calls it: thin wrappers over the contract's client (`api.customer.*`, `api.membership.*`) that fill in
 * the signed-in account's id. Every answer that carries the user replaces the stored one.
 */

function currentAccount() {
  const account = useAccountStore.getState().account;
  if (!account) throw new ApiError(401, 'unauthorized', 'Not logged in');
  return account;
}
const uid = () => ({ uid: currentAccount().userId });

const profileNames = () => import('./profile-names.ts');

/**
 * The server's latest view of the account replaces the stored one, its names readable (a passphrase
 * account's come sealed, decision 108); the avatar follows its icon. Answers the readable user.
 */
export async function storeUser(user: CustomerUser): Promise<CustomerUser> {
  const before = useAccountStore.getState().account;
  if (!before || before.userId !== user.id) return user;
  const readable = before.kind === 'email' ? user : await (await profileNames()).readableUser(before, user);
  const account = useAccountStore.getState().account;
  // Signed out (or into another account) meanwhile: nothing to update.
  if (account?.userId !== user.id) return readable;
  useAccountStore
    .getState()
    .updateAccount({ user: readable, profile: { ...account.profile, icon: user.icon } });
  return readable;
}

const withUser = async <T extends { user: CustomerUser }>(answer: T): Promise<T> => ({
  ...answer,
  user: await storeUser(answer.user),
});

/** A name as the server takes it from the signed-in account (sealed for a passphrase account). */
async function sealed<T extends string | undefined>(name: T): Promise<T> {
  const account = currentAccount();
  if (name === undefined || account.kind === 'email') return name;
  return (await (await profileNames()).sealedName(account, name)) as T;
}

export const fetchCustomer = () =>
  api.customer
    .me()
    .then(withUser)
    .then((r) => r.user);

type Body<E> = ApiInput<E> extends { body?: infer B } ? NonNullable<B> : never;

export async function updateCustomer(body: Body<typeof customerEndpoints.update>): Promise<CustomerUser> {
  const named = {
    ...body,
    ...(body.fullname !== undefined ? { fullname: await sealed(body.fullname) } : {}),
    ...(body.profiles
      ? {
          profiles: await Promise.all(
            body.profiles.map(async (p) => ({ ...p, fullname: await sealed(p.fullname) })),
          ),
        }
      : {}),
  };
  return (await withUser(await api.customer.update({ params: uid(), body: named }))).user;
}

export const changePassword = (body: Body<typeof customerEndpoints.password>) =>
  api.customer.password({ params: uid(), body }).then(withUser);

export const createProfile = async (body: Body<typeof customerEndpoints.createProfile>) =>
  withUser(
    await api.customer.createProfile({
      params: uid(),
      body: { ...body, fullname: await sealed(body.fullname) },
    }),
  );

/** A locked profile is changed with an unlock of it made for the change (not kept on the device). */
const unlockHeaders = (unlockToken: string | undefined) =>
  unlockToken ? { headers: { [PROFILE_TOKEN_HEADER]: unlockToken } } : {};

export const patchProfile = async (
  profileId: string,
  body: Body<typeof customerEndpoints.patchProfile>,
  unlockToken?: string,
) =>
  withUser(
    await api.customer.patchProfile({
      params: { ...uid(), profileId },
      body: { ...body, ...(body.fullname !== undefined ? { fullname: await sealed(body.fullname) } : {}) },
      ...unlockHeaders(unlockToken),
    }),
  );

export async function deleteProfile(profileId: string, unlockToken?: string): Promise<CustomerUser> {
  const { user } = await api.customer
    .deleteProfile({ params: { ...uid(), profileId }, ...unlockHeaders(unlockToken) })
    .then(withUser);
  const { profileDeleted } = await import('../sync/session.ts');
  profileDeleted(profileId);
  return user;
}

// ---- profile PINs (decision 104) ----

export const setProfilePin = (body: Body<typeof customerEndpoints.setProfilePin>) =>
  api.customer.setProfilePin({ params: uid(), body }).then(withUser);

/** Checks a PIN with the server: the unlock answered is the caller's to keep (or to use once). */
export const unlockProfile = (profileId: string, pin: string) =>
  api.customer.unlockProfile({ params: uid(), body: { profileId, pin } });

/**
 * This device now shows `profileId` (decision 106): entering a kids' profile keeps the device to the
 * kid's limits on the server until it enters another, which needs that profile's unlock when it has a PIN.
 */
export const enterProfile = (profileId: string, unlockToken?: string) =>
  api.customer.enterProfile({ params: uid(), body: { profileId }, ...unlockHeaders(unlockToken) });

// ---- memberships ----

export const checkPromo = (code: string) => api.membership.checkPromo({ params: { code } });
export const startPayment = (body: Body<typeof membershipEndpoints.subscribe>) =>
  api.membership.subscribe({ params: uid(), body, timeoutMs: 45_000 }).then(withUser);
export const simulatePaid = (paymentId: string) =>
  api.membership.simulatePaid({ params: { paymentId }, timeoutMs: 45_000 });

// ---- admin ----

/** `rate` integer percent; undefined = the server's default (10). */
export const createPromo = (rate: number | undefined) =>
  api.membership.createPromo({ body: rate === undefined ? {} : { rate } });
