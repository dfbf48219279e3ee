import type { Session, User, UserProfile } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { SessionsRepository } from './sessions.repository.ts';
import { toSessionDto, toUserDto } from './users.dto.ts';
import type { UsersRepository } from './users.repository.ts';

const gone = () => new AppError(401, 'unauthorized', 'Not logged in');
const notYourSession = () => new AppError(403, 'forbidden', 'Cannot modify sessions you do not own');

/**
 * Users and their sessions. Callers are already authenticated and, on /users/{id} routes, known to be
 * that user (plugins/auth.ts); session routes check ownership here, against the session's owner.
 */
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly now: () => number,
    private readonly onDeleted?: () => void,
    /** A session removed here (its library streams in this process close at once). */
    private readonly onSessionEnded?: (sessionId: string) => void,
  ) {}

  async me(auth: AuthContext): Promise<{ user: User; session: Session }> {
    const [user, session] = await Promise.all([
      this.users.findById(auth.userId),
      this.sessions.findById(auth.sessionId),
    ]);
    if (!user || !session) throw gone();
    return { user: toUserDto(user), session: toSessionDto(session) };
  }

  async get(auth: AuthContext): Promise<User> {
    const user = await this.users.findById(auth.userId);
    if (!user) throw gone();
    return toUserDto(user);
  }

  /** PATCH /users/{id}: the profile's colours and icon and/or the nickname (already trimmed and checked). */
  async update(
    auth: AuthContext,
    changes: { profile?: UserProfile | undefined; nickname?: string | undefined },
  ): Promise<User> {
    const { profile, nickname } = changes;
    const user =
      profile || nickname !== undefined
        ? await this.users.updateAccount(auth.userId, {
            ...(profile
              ? {
                  profile: JSON.stringify({
                    colorA: profile.colorA,
                    colorB: profile.colorB,
                    icon: profile.icon,
                  }),
                }
              : {}),
            ...(nickname !== undefined ? { nickname } : {}),
          })
        : await this.users.findById(auth.userId);
    if (!user) throw gone();
    return toUserDto(user);
  }

  /** Removes the account and everything in it (library, settings, sessions) in one transaction. */
  async delete(auth: AuthContext): Promise<{ id: string }> {
    if (await this.users.deleteWithData(auth.userId)) this.onDeleted?.();
    return { id: auth.userId };
  }

  async sessionsOf(auth: AuthContext): Promise<Session[]> {
    return (await this.sessions.listLive(auth.userId, this.now())).map(toSessionDto);
  }

  /** Renames one of the caller's sessions; another user's session is 403 and stays as it was. */
  async renameSession(
    auth: AuthContext,
    sessionId: string,
    deviceName: string | undefined,
  ): Promise<Session> {
    const session = await this.sessions.findById(sessionId);
    if (!session || session.expires_at <= this.now())
      throw new AppError(404, 'session_not_found', 'Session cannot be found');
    if (session.user_id !== auth.userId) throw notYourSession();
    if (deviceName === undefined) return toSessionDto(session);
    const renamed = await this.sessions.renameOwned(sessionId, auth.userId, deviceName);
    if (!renamed) throw new AppError(404, 'session_not_found', 'Session cannot be found');
    return toSessionDto(renamed);
  }

  /** "Sign out everywhere else": every session of the caller but the calling one ends now. */
  async deleteOtherSessions(auth: AuthContext): Promise<{ count: number }> {
    const ended = await this.sessions.deleteOthers(auth.userId, auth.sessionId);
    for (const id of ended) this.onSessionEnded?.(id);
    return { count: ended.length };
  }

  /** Idempotent for unknown ids (logout retries); another user's session is 403 and stays. */
  async deleteSession(auth: AuthContext, sessionId: string): Promise<{ id: string }> {
    const session = await this.sessions.findById(sessionId);
    if (session && session.user_id !== auth.userId) throw notYourSession();
    if (session) await this.sessions.deleteOwned(sessionId, auth.userId);
    if (session) this.onSessionEnded?.(sessionId);
    return { id: sessionId };
  }
}
