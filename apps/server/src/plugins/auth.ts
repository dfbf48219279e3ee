import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_TOKEN_QUERY } from '@marquee/contract';
import { AppError } from '../errors.ts';

/** Who is calling: the user and the session their bearer token belongs to. */
export interface AuthContext {
  userId: string;
  sessionId: string;
  /** The household profile whose library sync routes use ('' or absent = the account's own). */
  profileId?: string;
  /** The kids' profile this session (device) entered (decision 106), if any: what it may use is limited. */
  kidsProfileId?: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Resolves a bearer token to a live session (and slides its expiry), or null. */
export interface SessionAuthenticator {
  authenticate(token: string, userAgent: string): Promise<AuthContext | null>;
}

export const notLoggedIn = () => new AppError(401, 'unauthorized', 'Not logged in');

/**
 * The token a request presents: `Authorization: Bearer <token>`, or (the customer backend's client)
 * `X-auth-token: <token>`. Undefined when it presents none; throws 401 for a malformed header.
 */
export function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) {
    const alt = request.headers['x-auth-token'];
    if (alt === undefined || alt === '') return undefined;
    if (typeof alt !== 'string' || alt.length > 512)
      throw new AppError(401, 'unauthorized', 'Invalid authentication');
    return alt.trim();
  }
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  const token = space === -1 ? '' : header.slice(space + 1).trim();
  if (scheme.toLowerCase() !== 'bearer' || !token || token.length > 512) {
    throw new AppError(401, 'unauthorized', 'Invalid authentication');
  }
  return token;
}

/**
 * The caller's token on a playback request (scrape API): a header as above, or `?access_token=` for
 * EventSource, which cannot send headers. Never throws: a malformed header counts as no token.
 */
export function playbackTokenOf(request: FastifyRequest): string | undefined {
  try {
    const fromHeader = presentedToken(request);
    if (fromHeader) return fromHeader;
  } catch {
    return undefined;
  }
  const query = request.url.indexOf('?');
  if (query === -1) return undefined;
  return new URLSearchParams(request.url.slice(query + 1)).get(ACCESS_TOKEN_QUERY) || undefined;
}

/**
 * Authenticates one request (401 without a live session) and sets `request.auth`. A route whose path
 * has `:uid` also requires the caller to be that user (403, checked only after a valid token).
 */
export async function authenticateRequest(
  request: FastifyRequest,
  authenticator: SessionAuthenticator,
): Promise<AuthContext> {
  const token = presentedToken(request);
  if (!token) throw notLoggedIn();
  const auth = await authenticator.authenticate(token, request.headers['user-agent'] ?? '');
  if (!auth) throw notLoggedIn();
  request.auth = auth;
  const uid = (request.params as Record<string, string> | undefined)?.uid;
  if (uid !== undefined && uid !== auth.userId) {
    throw new AppError(403, 'forbidden', 'Cannot access users other than yourself');
  }
  return auth;
}

/**
 * Bearer-session authentication for every route registered inside `scope`. It runs onRequest, before
 * the body is read or validated, so an unauthenticated caller gets 401 whatever it sends.
 */
export function requireSession(scope: FastifyInstance, authenticator: SessionAuthenticator): void {
  if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
  scope.addHook('onRequest', async (request) => {
    await authenticateRequest(request, authenticator);
  });
}

/** The caller of a route inside a requireSession scope. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw notLoggedIn();
  return request.auth;
}
