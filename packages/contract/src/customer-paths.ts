/**
 * Paths of the customer API (email accounts, household profiles, memberships, promo codes) and of the
 * admin tools. The customer backend paths are kept exactly as the older subscription client calls them, typos
 * included (`suscription`, `list-cripto`), at the server root; correctly spelled aliases answer the
 * same. Schema-free so the web app can import them without the schema library (decision 003).
 */
export const customerPaths = {
  /** POST: register {fullname, email, password}. GET (the older clients' login): {user, access_token}. */
  customers: '/customers',
  /** POST: sign in {email, password} → {user, token, session}. */
  auth: '/customers/auth',
  /** POST: change fullname / icon of the account and (optionally) replace its list of household profiles. */
  update: '/customers/:uid/update',
  /** POST: new password {password, confirm}. */
  password: '/customers/:uid/password',
  /** POST: one household profile {fullname, icon}. */
  profiles: '/customers/:uid/profiles',
  /** PATCH {fullname?, icon?} / DELETE (deletes the profile's library too). */
  profile: '/customers/:uid/profiles/:profileId',
  /** PUT: set, change or clear a profile's PIN {profileId, pin|null, currentPin?|password?} (decision 104). */
  profilePin: '/customers/:uid/profile-pin',
  /** POST: open a PIN-locked profile on this device {profileId, pin} → {token, expiresAt}. */
  profileUnlock: '/customers/:uid/profile-unlock',
  profileEnter: '/customers/:uid/profile-enter',
  /** POST: start a membership payment {planId, criptoName, code|null} → {wallet, paymentUrl (QR), user, …}. */
  subscription: '/customers/:uid/suscription',
  subscriptionAlias: '/customers/:uid/subscription',
  /** GET: admins only — every promo code. */
  promos: '/promos',
  /** POST: admins only — a new promo code {rate}. */
  promoCreate: '/promos/create',
  /** GET: can this code be used? {code:{isUsed, rate}, message, error}. */
  promo: '/promos/:code',
  /** GET: the payment options of the gateway {crypto_list:[{name, display_name}]}. */
  cryptoList: '/shkeeper/list-cripto',
  cryptoListAlias: '/shkeeper/list-crypto',
  /** GET: the membership plans (public; the landing banner reads its price here). */
  plans: '/api/plans',
  /** GET: the caller's membership and current payment (either account kind). */
  membership: '/api/membership',
  /** GET: one of the caller's payments (poll it while the QR code is shown). */
  payment: '/api/payments/:paymentId',
  /** POST, only with PAYMENT_GATEWAY=simulated: pay the invoice (the gateway's signed callback is sent). */
  simulatePaid: '/api/payments/:paymentId/simulate-paid',
  /** POST: where the gateway notifies payments (SHKeeper callback_url). Not for browsers. */
  gatewayCallback: '/api/payments/shkeeper/callback',
  /** GET: admins only — the instance self-test. */
  selfTest: '/api/admin/self-test',
  /** GET: admins only — the media library scanner's status (counts, last scan, skipped files). */
  adminLibrary: '/api/admin/library',
  /** POST: admins only — start a scan of the media library now (202). */
  adminLibraryScan: '/api/admin/library/scan',
  /** GET: admins only — payments, newest first (`?settlement=mismatched` for under- and overpayments). */
  adminPayments: '/api/admin/payments',
} as const;

/**
 * Request headers. Every signed-in route accepts `Authorization: Bearer <token>`; the customer
 * backend's client sends the same token as `X-auth-token`, accepted everywhere too.
 */
export const AUTH_TOKEN_HEADER = 'x-auth-token';
/**
 * Which household profile's library a sync call (/users/:uid/bookmarks|progress|settings) reads and
 * writes: a profile `_id` of the caller, or absent / empty for the account's own library.
 */
export const PROFILE_HEADER = 'x-profile-id';
/**
 * The unlock token of a PIN-locked profile (decision 104): sent beside X-Profile-Id (or alone, for the
 * account's own profile) on every call that reads or writes that profile's library or plays for it.
 */
export const PROFILE_TOKEN_HEADER = 'x-profile-token';
/** For EventSource (which cannot send headers): the bearer token as a query parameter of /scrape calls. */
export const ACCESS_TOKEN_QUERY = 'access_token';

/** The six profile icons (decision 040), in the order the picker shows them. */
export const profileIcons = ['cat', 'weed', 'userGroup', 'couch', 'mobile', 'ticket'] as const;
export type ProfileIcon = (typeof profileIcons)[number];

/** Household profiles an account may have besides its own. */
export const MAX_PROFILES = 5;
/** A profile PIN is 4 to 6 digits (decision 104). */
export const PROFILE_PIN_MIN_LENGTH = 4;
export const PROFILE_PIN_MAX_LENGTH = 6;
/** How long a profile stays open on a device after its PIN was entered (decision 104). */
export const PROFILE_UNLOCK_TTL_MS = 12 * 60 * 60_000;
/** Promo discount rate bounds (percent). */
export const PROMO_RATE_MIN = 1;
export const PROMO_RATE_MAX = 100;
export const PASSWORD_MIN_LENGTH = 8;
