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
  progress: '/users/:uid/progress',
  progressImport: '/users/:uid/progress/import',
  progressItem: '/users/:uid/progress/:tmdbId',
  settings: '/users/:uid/settings',
  metrics: '/metrics',
  providerMetrics: '/metrics/providers',
  captchaMetrics: '/metrics/captcha',
} as const;
