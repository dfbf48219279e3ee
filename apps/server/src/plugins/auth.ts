import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

/** Who is calling: the user and the session their bearer token belongs to. */
export interface AuthContext {
  userId: string;
  sessionId: string;
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
 * Bearer-session authentication for every route registered inside `scope`. It runs onRequest, before
 * the body is read or validated, so an unauthenticated caller gets 401 whatever it sends. A route
 * whose path has `:uid` also requires the caller to be that user (403, checked only after a valid token).
 */
export function requireSession(scope: FastifyInstance, authenticator: SessionAuthenticator): void {
  if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    if (!header) throw notLoggedIn();
    const space = header.indexOf(' ');
    const scheme = space === -1 ? header : header.slice(0, space);
    const token = space === -1 ? '' : header.slice(space + 1).trim();
    if (scheme.toLowerCase() !== 'bearer' || !token || token.length > 512) {
      throw new AppError(401, 'unauthorized', 'Invalid authentication');
    }
    const auth = await authenticator.authenticate(token, request.headers['user-agent'] ?? '');
    if (!auth) throw notLoggedIn();
    request.auth = auth;
    const uid = (request.params as Record<string, string> | undefined)?.uid;
    if (uid !== undefined && uid !== auth.userId) {
      throw new AppError(403, 'forbidden', 'Cannot access users other than yourself');
    }
  });
}

/** The caller of a route inside a requireSession scope. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw notLoggedIn();
  return request.auth;
}
