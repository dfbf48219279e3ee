import { checkPromo, startPayment, storeUser } from '../../lib/account/customer-api.ts';

/**
 * What the membership page asks of the account server: checking a promo code, starting a payment, and
 * keeping the user its answer carries. The page is handed one (tests pass a fake); the app's is
 * `membershipService` (lib/account/customer-api.ts).
 */
export interface MembershipService {
  checkPromo: typeof checkPromo;
  startPayment: typeof startPayment;
  storeUser: typeof storeUser;
}

export const membershipService: MembershipService = { checkPromo, startPayment, storeUser };
