import type { Session, User, UserProfile } from '@marquee/contract';
import type { SessionRow } from './sessions.repository.ts';
import type { UserRow } from './users.repository.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The wire shape of a user (the older servers' UserDTO; `lastLoggedIn` omitted when never set), plus
 * p-stream's `nickname`: `''` until set, since its client types it as a string (decision 094).
 */
export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    namespace: row.namespace,
    publicKey: row.public_key,
    roles: JSON.parse(row.roles) as string[],
    createdAt: iso(row.created_at),
    ...(row.last_logged_in != null ? { lastLoggedIn: iso(row.last_logged_in) } : {}),
    profile: JSON.parse(row.profile) as UserProfile,
    nickname: row.nickname ?? '',
  };
}

/** The wire shape of a session: no expiry, the device blob exactly as the client sent it. */
export function toSessionDto(row: SessionRow): Session {
  return {
    id: row.id,
    userId: row.user_id,
    createdAt: iso(row.created_at),
    accessedAt: iso(row.accessed_at),
    device: row.device,
    userAgent: row.user_agent,
  };
}
