import { mediaPath } from './media-keys.ts';

/**
 * Links to the web app's own routes (app/router.tsx), so no module spells a path itself. Static pages
 * are strings; pages with parts are functions that encode them.
 */
export const paths = {
  home: '/',
  /** Search results; an empty query is the home page. */
  browse: (query: string) => (query.trim() ? `/browse/${encodeURIComponent(query)}` : '/'),
  discover: '/discover',
  /** A title (media key from `encodeMediaKey`), or one episode of a show. */
  media: (key: string, seasonId?: string | number, episodeId?: string | number) =>
    mediaPath(key, seasonId, episodeId),
  /** Onboarding steps; `search` is the current `?redirect=…` query, kept from step to step. */
  onboarding: (search = '') => `/onboarding${search}`,
  onboardingExtension: (search = '') => `/onboarding/extension${search}`,
  onboardingProxy: (search = '') => `/onboarding/proxy${search}`,
  /** Onboarding that comes back to `returnTo` when done. */
  onboardingFor: (returnTo: string) => `/onboarding?redirect=${encodeURIComponent(returnTo)}`,
  myList: '/mylist',
  /** The watch history (decision 095). */
  history: '/history',
  /** Import from other services and export everything (issue 27). */
  transfer: '/import',
  login: '/login',
  /** A new device signs in with a code another device approves (decision 105). */
  codeSignIn: '/login/code',
  /** Where a signed-in viewer approves another device's code. */
  link: '/link',
  /** A watch party's invite link (decision 110). */
  party: (partyId: string) => `/party/${encodeURIComponent(partyId)}`,
  register: '/register',
  settings: '/settings',
  subscription: '/subscription',
  profiles: '/profiles',
  promos: '/promos',
  admin: '/admin',
  about: '/about',
  support: '/support',
  jip: '/jip',
  dmca: '/dmca',
} as const;
