import type { CustomerUser, Session, User, UserProfile, UserSettings } from '@marquee/contract';

/*
 * What the account server answers, in the contract's shapes, for the web tests' fake servers
 * (test/contract-server.ts): one user `u1` with session `s1`, created at T0.
 */

export const T0 = '2026-01-01T00:00:00.000Z';

/** The account store's entry for `u1` signed in with session `s1` (a passphrase account). */
export const testAccount = () => ({
  token: 't',
  userId: 'u1',
  sessionId: 's1',
  deviceName: 'x',
  seed: 'y',
  profile: { colorA: 'a', colorB: 'b', icon: 'cat' },
});

/** The customer `u1` of the subscription site (an email account, no membership). */
export const testCustomer = (): CustomerUser => ({
  id: 'u1',
  fullname: 'Ada',
  email: 'ada@example.com',
  icon: 'cat',
  profiles: [],
  isAdmin: false,
  endSubcriptionDate: null,
  hasMembership: false,
});

/** The account store's entry for `u1` signed in with an email account. */
export const testEmailAccount = (user: CustomerUser = testCustomer()) => ({
  ...testAccount(),
  kind: 'email' as const,
  seed: '',
  user,
});

export const testSession = (device = 'enc', id = 's1'): Session => ({
  id,
  userId: 'u1',
  createdAt: T0,
  accessedAt: T0,
  device,
  userAgent: 'test',
});

export const testUser = (profile: UserProfile, publicKey: string | null = 'pk'): User => ({
  id: 'u1',
  namespace: 'movie-web',
  publicKey,
  roles: [],
  createdAt: T0,
  profile,
});

/** Settings as a new account has them: nothing chosen. */
export const emptySettings = (): UserSettings => ({
  id: 'u1',
  applicationTheme: null,
  applicationLanguage: null,
  defaultSubtitleLanguage: null,
  proxyUrls: null,
  enableAutoplay: null,
  subtitleStyling: null,
  defaultAudioLanguage: null,
});
