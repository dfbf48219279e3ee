/**
 * Paths of the account and sync API. They are the wire protocol that existing clients of this app
 * family speak (movie-web backend), so they live at the root, not under /api. Schema-free so the web
 * app can import them without the schema library.
 */
export const accountPaths = {
  meta: '/meta',
  captchaChallenge: '/auth/captcha/challenge',
  registerStart: '/auth/register/start',
  registerComplete: '/auth/register/complete',
  loginStart: '/auth/login/start',
  loginComplete: '/auth/login/complete',
  me: '/users/@me',
  user: '/users/:uid',
  userSessions: '/users/:uid/sessions',
  session: '/sessions/:sid',
  bookmarks: '/users/:uid/bookmarks',
  bookmark: '/users/:uid/bookmarks/:tmdbId',
  groupOrder: '/users/:uid/group-order',
  progress: '/users/:uid/progress',
  progressImport: '/users/:uid/progress/import',
  progressCleanup: '/users/:uid/progress/cleanup',
  progressItem: '/users/:uid/progress/:tmdbId',
  settings: '/users/:uid/settings',
  watchHistory: '/users/:uid/watch-history',
  watchHistoryImport: '/users/:uid/watch-history/import',
  watchHistoryItem: '/users/:uid/watch-history/:tmdbId',
  ratings: '/users/:uid/ratings',
  ratingsImport: '/users/:uid/ratings/import',
  rating: '/users/:uid/ratings/:tmdbId',
  events: '/users/:uid/events',
  trakt: '/users/:uid/trakt',
  traktLink: '/users/:uid/trakt/link',
  traktSync: '/users/:uid/trakt/sync',
  traktScrobble: '/users/:uid/trakt/scrobble',
  metrics: '/metrics',
  providerMetrics: '/metrics/providers',
  captchaMetrics: '/metrics/captcha',
} as const;

/**
 * Events of the library stream (`GET /users/:uid/events`, text/event-stream; decision 079): `ready` once
 * connected (the client then reads what changed since its own marks: that is the catch-up), `changed`
 * when another device changed a kind of this library, `resync` when the server may have missed changes
 * (its event bus reconnected): read everything changed since the marks again.
 */
export const libraryEventNames = ['ready', 'changed', 'resync'] as const;
/** What a `changed` event names. */
export const libraryChangeKinds = ['bookmarks', 'progress', 'settings', 'history', 'ratings'] as const;
/**
 * The device's clock when it sent a change (epoch milliseconds): the server corrects the change's
 * `updatedAt` by the difference to its own clock (decision 079). Sent by our client to this instance only.
 */
export const CLIENT_TIME_HEADER = 'x-client-time';
