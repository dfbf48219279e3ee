import { accountPaths } from './account-paths.ts';
import { apiPaths } from './api-paths.ts';
import { customerPaths } from './customer-paths.ts';
import type { Route } from './endpoint.ts';
import { sourcePaths } from './source-paths.ts';

/*
 * Method and path of every endpoint, keyed as in the endpoint declarations (`accountRoutes.meta` is
 * `accountEndpoints.meta` without its schemas). Schema-free so the web app's client can import them without
 * the schema library; the declarations spread them, so a route is spelled once.
 */

/** Routes of `accountEndpoints`. */
export const accountRoutes = {
  meta: { method: 'GET', path: accountPaths.meta },
  captchaChallenge: { method: 'GET', path: accountPaths.captchaChallenge },
  registerStart: { method: 'POST', path: accountPaths.registerStart },
  registerComplete: { method: 'POST', path: accountPaths.registerComplete },
  loginStart: { method: 'POST', path: accountPaths.loginStart },
  loginComplete: { method: 'POST', path: accountPaths.loginComplete },
  me: { method: 'GET', path: accountPaths.me },
  getUser: { method: 'GET', path: accountPaths.user },
  patchUser: { method: 'PATCH', path: accountPaths.user },
  deleteUser: { method: 'DELETE', path: accountPaths.user },
  userSessions: { method: 'GET', path: accountPaths.userSessions },
  deleteOtherSessions: { method: 'DELETE', path: accountPaths.userSessions },
  patchSession: { method: 'PATCH', path: accountPaths.session },
  deleteSession: { method: 'DELETE', path: accountPaths.session },
  providerMetrics: { method: 'POST', path: accountPaths.providerMetrics },
  captchaMetrics: { method: 'POST', path: accountPaths.captchaMetrics },
} as const satisfies Record<string, Route>;

/** Routes of `syncEndpoints`. */
export const syncRoutes = {
  bookmarks: { method: 'GET', path: accountPaths.bookmarks },
  addBookmark: { method: 'POST', path: accountPaths.bookmark },
  importBookmarks: { method: 'PUT', path: accountPaths.bookmarks },
  deleteBookmark: { method: 'DELETE', path: accountPaths.bookmark },
  groupOrder: { method: 'GET', path: accountPaths.groupOrder },
  putGroupOrder: { method: 'PUT', path: accountPaths.groupOrder },
  progress: { method: 'GET', path: accountPaths.progress },
  importProgress: { method: 'PUT', path: accountPaths.progressImport },
  putProgress: { method: 'PUT', path: accountPaths.progressItem },
  deleteProgress: { method: 'DELETE', path: accountPaths.progressItem },
  cleanupProgress: { method: 'DELETE', path: accountPaths.progressCleanup },
  settings: { method: 'GET', path: accountPaths.settings },
  putSettings: { method: 'PUT', path: accountPaths.settings },
  events: { method: 'GET', path: accountPaths.events },
} as const satisfies Record<string, Route>;

/** Routes of `historyEndpoints` (the watch history, decision 095). */
export const historyRoutes = {
  watchHistory: { method: 'GET', path: accountPaths.watchHistory },
  importWatchHistory: { method: 'PUT', path: accountPaths.watchHistoryImport },
  putWatchHistory: { method: 'PUT', path: accountPaths.watchHistoryItem },
  deleteWatchHistory: { method: 'DELETE', path: accountPaths.watchHistoryItem },
} as const satisfies Record<string, Route>;

/** Routes of `ratingsEndpoints` (the viewer's ratings of titles, decision 103). */
export const ratingsRoutes = {
  ratings: { method: 'GET', path: accountPaths.ratings },
  postRating: { method: 'POST', path: accountPaths.ratings },
  importRatings: { method: 'PUT', path: accountPaths.ratingsImport },
  putRating: { method: 'PUT', path: accountPaths.rating },
  deleteRating: { method: 'DELETE', path: accountPaths.rating },
} as const satisfies Record<string, Route>;

/** Routes of `traktEndpoints` (the server's two-way Trakt sync, decision 101). */
export const traktRoutes = {
  status: { method: 'GET', path: accountPaths.trakt },
  link: { method: 'POST', path: accountPaths.traktLink },
  unlink: { method: 'DELETE', path: accountPaths.traktLink },
  sync: { method: 'POST', path: accountPaths.traktSync },
  scrobble: { method: 'POST', path: accountPaths.traktScrobble },
} as const satisfies Record<string, Route>;

/** Routes of `customerEndpoints`. */
export const customerRoutes = {
  register: { method: 'POST', path: customerPaths.customers },
  login: { method: 'POST', path: customerPaths.auth },
  me: { method: 'GET', path: customerPaths.customers },
  update: { method: 'POST', path: customerPaths.update },
  password: { method: 'POST', path: customerPaths.password },
  createProfile: { method: 'POST', path: customerPaths.profiles },
  patchProfile: { method: 'PATCH', path: customerPaths.profile },
  deleteProfile: { method: 'DELETE', path: customerPaths.profile },
  setProfilePin: { method: 'PUT', path: customerPaths.profilePin },
  unlockProfile: { method: 'POST', path: customerPaths.profileUnlock },
  enterProfile: { method: 'POST', path: customerPaths.profileEnter },
} as const satisfies Record<string, Route>;

/** Routes of `membershipEndpoints`. */
export const membershipRoutes = {
  plans: { method: 'GET', path: customerPaths.plans },
  cryptoList: { method: 'GET', path: customerPaths.cryptoList },
  cryptoListAlias: { method: 'GET', path: customerPaths.cryptoListAlias },
  subscribe: { method: 'POST', path: customerPaths.subscription },
  subscribeAlias: { method: 'POST', path: customerPaths.subscriptionAlias },
  membership: { method: 'GET', path: customerPaths.membership },
  payment: { method: 'GET', path: customerPaths.payment },
  simulatePaid: { method: 'POST', path: customerPaths.simulatePaid },
  promos: { method: 'GET', path: customerPaths.promos },
  createPromo: { method: 'POST', path: customerPaths.promoCreate },
  checkPromo: { method: 'GET', path: customerPaths.promo },
  adminPayments: { method: 'GET', path: customerPaths.adminPayments },
  selfTest: { method: 'GET', path: customerPaths.selfTest },
  libraryStatus: { method: 'GET', path: customerPaths.adminLibrary },
  libraryScan: { method: 'POST', path: customerPaths.adminLibraryScan },
} as const satisfies Record<string, Route>;

/** Routes of `metadataEndpoints`. */
export const metadataRoutes = {
  search: { method: 'GET', path: apiPaths.search },
  list: { method: 'GET', path: apiPaths.list },
  genres: { method: 'GET', path: apiPaths.genres },
  discover: { method: 'GET', path: apiPaths.discover },
  details: { method: 'GET', path: apiPaths.details },
  season: { method: 'GET', path: apiPaths.season },
  findByImdb: { method: 'GET', path: apiPaths.findByImdb },
  legacyJustWatch: { method: 'GET', path: apiPaths.legacyJustWatch },
  match: { method: 'POST', path: apiPaths.match },
} as const satisfies Record<string, Route>;

/** Routes of `configEndpoints`. */
export const configRoutes = {
  runtimeConfig: { method: 'GET', path: apiPaths.runtimeConfig },
} as const satisfies Record<string, Route>;

/** Routes of `sourcesEndpoints`. */
export const sourceRoutes = {
  scrape: { method: 'GET', path: sourcePaths.scrape },
  scrapeSource: { method: 'GET', path: sourcePaths.scrapeSource },
  scrapeEmbed: { method: 'GET', path: sourcePaths.scrapeEmbed },
  providerMetadata: { method: 'GET', path: sourcePaths.providerMetadata },
} as const satisfies Record<string, Route>;
