import {
  customerPaths,
  type CustomerProfile,
  type CustomerUser,
  type Payment,
  type Plan,
  type CryptoOption,
  type PromoCheckResponse,
  type Promo,
  type ProfileIcon,
  type SelfTestResponse,
  type SubscriptionResponse,
} from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { ApiError } from '../api.ts';
import { accountRequest } from '../sync/account-api.ts';

/**
 * The customer API (email accounts, household profiles, memberships, promo codes, admin) as the web
 * calls it: paths from the contract, the signed-in account's token, the account server of this device.
 * Every answer that carries the user replaces the stored one (seed 001 §4, §7).
 */
export interface MembershipResponse {
  active: boolean;
  endSubcriptionDate: string | null;
  pendingPayment: Payment | null;
}
export interface PaymentResponse {
  payment: Payment;
  membership: MembershipResponse;
}

function currentAccount() {
  const account = useAccountStore.getState().account;
  if (!account) throw new ApiError(401, 'unauthorized', 'Not logged in');
  return account;
}
const uid = () => ({ uid: currentAccount().userId });

/** The server's latest view of the account replaces the stored one (email accounts' avatar follows its icon). */
export function storeUser(user: CustomerUser): void {
  const account = useAccountStore.getState().account;
  if (!account || account.userId !== user.id) return;
  useAccountStore.getState().updateAccount({
    user,
    ...(account.kind === 'email' ? { profile: { ...account.profile, icon: user.icon } } : {}),
  });
}

const withUser = <T extends { user: CustomerUser }>(answer: T): T => {
  storeUser(answer.user);
  return answer;
};

export const fetchCustomer = () =>
  accountRequest<{ user: CustomerUser; access_token: string }>('GET', customerPaths.customers)
    .then(withUser)
    .then((r) => r.user);

export const updateCustomer = (body: { fullname?: string; icon?: ProfileIcon }) =>
  accountRequest<{ user: CustomerUser }>('POST', customerPaths.update, { params: uid(), body })
    .then(withUser)
    .then((r) => r.user);

export const changePassword = (body: { password: string; confirm: string }) =>
  accountRequest<{ user: CustomerUser; message: string }>('POST', customerPaths.password, {
    params: uid(),
    body,
  }).then(withUser);

export const createProfile = (body: { fullname: string; icon: ProfileIcon }) =>
  accountRequest<{ user: CustomerUser; profile: CustomerProfile }>('POST', customerPaths.profiles, {
    params: uid(),
    body,
  }).then(withUser);

export const patchProfile = (profileId: string, body: { fullname?: string; icon?: ProfileIcon }) =>
  accountRequest<{ user: CustomerUser; profile: CustomerProfile }>('PATCH', customerPaths.profile, {
    params: { ...uid(), profileId },
    body,
  }).then(withUser);

export async function deleteProfile(profileId: string): Promise<CustomerUser> {
  const { user } = await accountRequest<{ user: CustomerUser }>('DELETE', customerPaths.profile, {
    params: { ...uid(), profileId },
  }).then(withUser);
  const { profileDeleted } = await import('../sync/session.ts');
  profileDeleted(profileId);
  return user;
}

// ---- memberships ----

export const fetchPlans = () =>
  accountRequest<{ plans: Plan[] }>('GET', customerPaths.plans, { token: null }).then((r) => r.plans);
export const fetchCryptos = () =>
  accountRequest<{ crypto_list: CryptoOption[] }>('GET', customerPaths.cryptoList).then((r) => r.crypto_list);
export const checkPromo = (code: string) =>
  accountRequest<PromoCheckResponse>('GET', customerPaths.promo, { params: { code } });
export const startPayment = (body: { planId: number; criptoName: string; code: string | null }) =>
  accountRequest<SubscriptionResponse>('POST', customerPaths.subscription, {
    params: uid(),
    body,
    timeoutMs: 45_000,
  }).then(withUser);
export const fetchMembership = () => accountRequest<MembershipResponse>('GET', customerPaths.membership);
export const fetchPayment = (paymentId: string) =>
  accountRequest<PaymentResponse>('GET', customerPaths.payment, { params: { paymentId } });
export const simulatePaid = (paymentId: string) =>
  accountRequest<PaymentResponse>('POST', customerPaths.simulatePaid, {
    params: { paymentId },
    timeoutMs: 45_000,
  });

// ---- admin ----

export const fetchPromos = () =>
  accountRequest<{ codes: Promo[] }>('GET', customerPaths.promos).then((r) => r.codes);
/** `rate` integer percent; undefined = the server's default (10). */
export const createPromo = (rate: number | undefined) =>
  accountRequest<{ codes: Promo[]; created: Promo }>('POST', customerPaths.promoCreate, {
    body: rate === undefined ? {} : { rate },
  });
/** Each check may take up to 20 s on the server. */
export const runSelfTest = () =>
  accountRequest<SelfTestResponse>('GET', customerPaths.selfTest, { timeoutMs: 180_000 });
