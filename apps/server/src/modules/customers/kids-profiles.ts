import { ContentLimit, PROFILE_HEADER, closedToKids, type Endpoint } from '@marquee/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { presentedToken, type AuthContext, type SessionAuthenticator } from '../../plugins/auth.ts';
import type { SessionsRepository } from '../users/sessions.repository.ts';
import type { CustomersRepository } from './customers.repository.ts';
import type { ProfileLocks } from './profile-locks.ts';

export const kidsProfileRefused = () =>
  new AppError(403, 'kids_profile', "A kids' profile cannot open this: switch to a grown-up's profile first");
const profileNotFound = () => new AppError(404, 'profile_not_found', 'Profile not found');

/** A stored limit (`profiles.content_limit`), or null for none or one this version cannot read. */
export function parseLimit(text: string | null | undefined): ContentLimit | null {
  if (!text) return null;
  try {
    const parsed = ContentLimit.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export const storedLimit = (limit: ContentLimit | null): string | null =>
  limit === null ? null : JSON.stringify(ContentLimit.parse(limit));

/**
 * Kids' profiles (decision 106). A device that enters a kids' profile is that kid's until it enters
 * another profile — which, when that profile has a PIN, needs the PIN entered on this device — whatever
 * its later requests' headers say: the session remembers it (`sessions.kids_profile`). Meanwhile every
 * signed-in route the contract does not open to kids answers 403 `kids_profile`, its library is the
 * kid's, and metadata and playback keep to the kid's limit.
 */
export class KidsProfiles {
  constructor(
    private readonly o: {
      customers: CustomersRepository;
      sessions: SessionsRepository;
      locks: ProfileLocks;
      authenticator: SessionAuthenticator;
    },
  ) {}

  /**
   * The limit of the kids' profile a request's session is in — for routes open to anyone (metadata),
   * which read the session only for this. No token, or one that opens no session: no limit.
   */
  async limitOfRequest(request: FastifyRequest): Promise<ContentLimit | null> {
    let token: string | undefined;
    try {
      token = presentedToken(request);
    } catch {
      return null;
    }
    const auth = token ? await this.o.authenticator.authenticate(token, '') : null;
    return auth ? this.limitOf(auth, request.headers[PROFILE_HEADER]) : null;
  }

  /**
   * The limit of the kids' profile this session is in, else of the kids' profile the request names
   * (X-Profile-Id: a device that chose it before it entered it here); null when neither is a kid's.
   */
  async limitOf(
    auth: Pick<AuthContext, 'userId' | 'kidsProfileId'>,
    profileHeader?: string | string[] | undefined,
  ): Promise<ContentLimit | null> {
    const named = typeof profileHeader === 'string' ? profileHeader.trim() : '';
    for (const profileId of [auth.kidsProfileId, named]) {
      if (!profileId || profileId.length > 64) continue;
      const limit = parseLimit((await this.o.customers.findProfile(auth.userId, profileId))?.content_limit);
      if (limit) return limit;
    }
    return null;
  }

  /** The kids' profile this session is in, while it is one; null otherwise. */
  async kidOf(auth: AuthContext): Promise<string | null> {
    return (await this.limitOf(auth)) ? auth.kidsProfileId! : null;
  }

  /**
   * This device enters a profile ('' = the account's own). Leaving a kids' profile needs the profile
   * entered to be open here (its PIN, X-Profile-Token) when it has one; entering a kids' profile binds
   * the session to it.
   */
  async enter(
    auth: AuthContext,
    profileId: string,
    unlockToken: string | string[] | undefined,
  ): Promise<{ profileId: string; kids: ContentLimit | null }> {
    const row = profileId ? await this.o.customers.findProfile(auth.userId, profileId) : undefined;
    if (profileId && !row) throw profileNotFound();
    const limit = parseLimit(row?.content_limit);
    const current = await this.kidOf(auth);
    if (current !== null && current !== profileId)
      await this.o.locks.assertOpen(auth, profileId, unlockToken);
    const next = limit ? profileId : null;
    if (next !== (auth.kidsProfileId ?? null)) await this.o.sessions.setKidsProfile(auth.sessionId, next);
    auth.kidsProfileId = next;
    return { profileId, kids: limit };
  }

  /**
   * The library a kid's session uses: the kid's, named or not; naming another profile is refused.
   * Null when the session is in no kids' profile (the X-Profile-Id header decides).
   */
  async libraryOf(auth: AuthContext, profileHeader: string | string[] | undefined): Promise<string | null> {
    const kid = await this.kidOf(auth);
    if (kid === null) return null;
    const named = typeof profileHeader === 'string' ? profileHeader.trim() : '';
    if (named && named !== kid) throw kidsProfileRefused();
    return kid;
  }

  /**
   * Refuses every signed-in route a kids' profile may not use (`closedToKids`), for a session in a kids'
   * profile or a request naming one. Runs after the route's session check, before its input is read.
   */
  guard(app: FastifyInstance): void {
    app.addHook('preValidation', (request) => this.assertAllowed(request));
  }

  /** The guard's check, for a route that authenticates in its handler (after the hook ran). */
  async assertAllowed(request: FastifyRequest): Promise<void> {
    const endpoint: Endpoint | undefined = request.routeOptions.config?.contract;
    const auth = request.auth;
    if (!endpoint || !auth || !closedToKids(endpoint)) return;
    if (await this.kidOf(auth)) throw kidsProfileRefused();
    const named = request.headers[PROFILE_HEADER];
    if (typeof named !== 'string' || !named.trim() || named.length > 64) return;
    const row = await this.o.customers.findProfile(auth.userId, named.trim());
    if (parseLimit(row?.content_limit)) throw kidsProfileRefused();
  }
}
