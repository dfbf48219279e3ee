import type { Redis } from 'ioredis';
import type { PlayerStatus } from '@marquee/contract';
import { AppError } from '../../errors.ts';

/*
 * p-stream's watch party (decision 110): its client posts each member's player status about once a
 * second and polls the room's. Upstream keeps them in one process's memory for anyone; here a signed-in
 * account posts, a member id in a room belongs to the account that first posted it, a room holds at most
 * PARTY_MAX_MEMBERS member ids, each keeps its last 5 statuses for 30 minutes, and with Redis the rooms
 * are shared by every process.
 */

export const PLAYER_STATUS_KEEP = 5;
export const PLAYER_STATUS_TTL_MS = 30 * 60_000;

export type PlayerStatusInput = Omit<PlayerStatus, 'timestamp'>;

export interface PlayerStatusStore {
  /** Keeps one status; throws 403 for a member id another account posts for, 409 for a full room. */
  post(owner: string, status: PlayerStatus, maxMembers: number): Promise<void>;
  /** A room's fresh statuses by member id (oldest first). */
  room(roomCode: string, now: number): Promise<Record<string, PlayerStatus[]>>;
}

export const memberTaken = () =>
  new AppError(403, 'forbidden', 'Another account posts statuses for this member id in this room');
export const roomFull = () => new AppError(409, 'party_full', 'This room has all the members it can hold');

const fresh = (statuses: PlayerStatus[], now: number) =>
  statuses.filter((s) => s.timestamp > now - PLAYER_STATUS_TTL_MS);

interface RoomEntry {
  owner: string;
  statuses: PlayerStatus[];
}

export class ProcessPlayerStatusStore implements PlayerStatusStore {
  private readonly rooms = new Map<string, Map<string, RoomEntry>>();

  constructor(private readonly now: () => number) {}

  /** Forgets rooms nobody posted to for 30 minutes. */
  private sweep(): void {
    const now = this.now();
    for (const [code, members] of this.rooms) {
      for (const [id, entry] of members) if (fresh(entry.statuses, now).length === 0) members.delete(id);
      if (members.size === 0) this.rooms.delete(code);
    }
  }

  async post(owner: string, status: PlayerStatus, maxMembers: number): Promise<void> {
    this.sweep();
    let members = this.rooms.get(status.roomCode);
    if (!members) this.rooms.set(status.roomCode, (members = new Map()));
    let entry = members.get(status.userId);
    if (!entry) {
      if (members.size >= maxMembers) throw roomFull();
      members.set(status.userId, (entry = { owner, statuses: [] }));
    } else if (entry.owner !== owner) throw memberTaken();
    entry.statuses = [...entry.statuses, status].slice(-PLAYER_STATUS_KEEP);
  }

  async room(roomCode: string, now: number): Promise<Record<string, PlayerStatus[]>> {
    const answer: Record<string, PlayerStatus[]> = {};
    for (const [id, entry] of this.rooms.get(roomCode) ?? []) {
      const statuses = fresh(entry.statuses, now);
      if (statuses.length) answer[id] = statuses;
    }
    return answer;
  }
}

// KEYS[1]: the room's owners (member id → account), KEYS[2]: the member's statuses. ARGV: member id,
// account, status JSON, most members, lifetime (ms), statuses kept.
const POST = `
local owner = redis.call('HGET', KEYS[1], ARGV[1])
if not owner then
  if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return -2 end
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
elseif owner ~= ARGV[2] then
  return -1
end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[6]), -1)
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return 1
`;

/** Redis: one hash of owners per room and one short list per member, all expiring after 30 minutes. */
export class RedisPlayerStatusStore implements PlayerStatusStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  private owners(roomCode: string): string {
    return `${this.prefix}pstatus:${encodeURIComponent(roomCode)}`;
  }

  private list(roomCode: string, userId: string): string {
    return `${this.owners(roomCode)}:${encodeURIComponent(userId)}`;
  }

  async post(owner: string, status: PlayerStatus, maxMembers: number): Promise<void> {
    const done = await this.redis.eval(
      POST,
      2,
      this.owners(status.roomCode),
      this.list(status.roomCode, status.userId),
      status.userId,
      owner,
      JSON.stringify(status),
      String(maxMembers),
      String(PLAYER_STATUS_TTL_MS),
      String(PLAYER_STATUS_KEEP),
    );
    if (done === -1) throw memberTaken();
    if (done === -2) throw roomFull();
  }

  async room(roomCode: string, now: number): Promise<Record<string, PlayerStatus[]>> {
    const ids = await this.redis.hkeys(this.owners(roomCode));
    if (ids.length === 0) return {};
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.lrange(this.list(roomCode, id), 0, -1);
    const lists = (await pipeline.exec()) ?? [];
    const answer: Record<string, PlayerStatus[]> = {};
    ids.forEach((id, i) => {
      const raw = (lists[i]?.[1] as string[] | undefined) ?? [];
      const statuses = fresh(
        raw.map((json) => JSON.parse(json) as PlayerStatus),
        now,
      );
      if (statuses.length) answer[id] = statuses;
    });
    return answer;
  }
}
