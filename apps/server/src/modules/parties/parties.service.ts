import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  PARTY_MAX_MEMBERS,
  type PartyCommand,
  type PartyJoined,
  type PartyTitle,
  type PartyView,
  type PlayerStatus,
} from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { RateLimitedError, type RateLimits } from '../../plugins/rate-limit.ts';
import { applyCommand, viewOf, withoutMembers, type PartyRoom, type StoredMember } from './party-room.ts';
import type { PartyBroadcast, PartyStore } from './party-store.ts';
import type { PlayerStatusInput, PlayerStatusStore } from './player-status.ts';

/** A member whose stream has not been open for this long (and who joined before it) has gone. */
export const PARTY_STALE_MS = 90_000;

export const partyNotFound = () =>
  new AppError(404, 'party_not_found', 'No party like this: the link may be mistyped, or the party ended');
export const notAMember = () =>
  new AppError(403, 'party_not_member', 'Join the party by its invite link first');

/** Who joins: a signed-in account (its id), or a guest (null). */
export interface Joiner {
  userId: string | null;
  name: string;
}

export interface PartiesOptions {
  store: PartyStore;
  statuses: PlayerStatusStore;
  limits: RateLimits;
  now: () => number;
}

const randomId = (bytes: number) => randomBytes(bytes).toString('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('base64url');

/** A new member and the token only they will hold (stored as its hash). */
function newMember(joiner: Joiner, now: number): { member: StoredMember; token: string } {
  const token = randomId(32);
  return {
    member: {
      id: randomId(9),
      name: joiner.name,
      userId: joiner.userId,
      tokenHash: hashOf(token),
      joinedAt: now,
    },
    token,
  };
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Watch parties (decision 110): rooms, their members and their commands. Every change reads the room,
 * computes the next one (party-room.ts) and writes it only if nobody changed it meanwhile, retrying
 * otherwise, so simultaneous commands on different processes are applied one after the other.
 */
export class PartiesService {
  constructor(private readonly o: PartiesOptions) {}

  get store(): PartyStore {
    return this.o.store;
  }

  get limits(): RateLimits {
    return this.o.limits;
  }

  /** The server's clock, which every party's times are on. */
  now(): number {
    return this.o.now();
  }

  async create(joiner: Joiner & { userId: string }, options: CreateOptions): Promise<PartyJoined> {
    const now = this.o.now();
    const { member: host, token } = newMember(joiner, now);
    const room: PartyRoom = {
      // 16 random bytes: the invite link is the only way in, and cannot be guessed.
      id: randomId(16),
      title: options.title,
      hostOnly: options.hostOnly ?? false,
      hostId: host.id,
      playback: {
        playing: options.playing ?? false,
        position: options.position ?? 0,
        at: now,
        rate: 1,
        waitingFor: [],
        holdUntil: null,
      },
      members: [host],
      version: 1,
      createdAt: now,
    };
    await this.o.store.create(room);
    return { party: viewOf(room, now), member: { id: host.id, token } };
  }

  /** The party and its member holding `token`: 404 for no such party, 403 for a token not of it. */
  async memberOf(
    partyId: string,
    token: string | undefined,
  ): Promise<{ room: PartyRoom; member: StoredMember }> {
    const room = await this.o.store.read(partyId);
    if (!room) throw partyNotFound();
    const member = token && token.length <= 64 ? this.holder(room, token) : undefined;
    if (!member) throw notAMember();
    return { room, member };
  }

  private holder(room: PartyRoom, token: string): StoredMember | undefined {
    const hash = hashOf(token);
    return room.members.find((m) => sameHash(m.tokenHash, hash));
  }

  /** What the invite link opens: the title, the host's name and how many are in it. */
  async preview(
    partyId: string,
  ): Promise<{ title: PartyTitle; host: string; members: number; full: boolean }> {
    const room = await this.o.store.read(partyId);
    if (!room) throw partyNotFound();
    const host = room.members.find((m) => m.id === room.hostId)?.name ?? '';
    return {
      title: room.title,
      host,
      members: room.members.length,
      full: room.members.length >= PARTY_MAX_MEMBERS,
    };
  }

  /** The party's title, for the caller's access check before joining. */
  async titleOf(partyId: string): Promise<PartyTitle> {
    const room = await this.o.store.read(partyId);
    if (!room) throw partyNotFound();
    return room.title;
  }

  /**
   * Joins `joiner` (whose access to the title the caller checked). A member's own token joins again as
   * the same member (a reload); members gone quiet make room; 409 party_full past PARTY_MAX_MEMBERS.
   */
  async join(partyId: string, joiner: Joiner, token: string | undefined): Promise<PartyJoined> {
    let joined: { id: string; token: string } | undefined;
    const room = await this.update(partyId, async (current, now) => {
      const back = token ? this.holder(current, token) : undefined;
      if (back) {
        joined = { id: back.id, token: token! };
        if (back.name === joiner.name) return null;
        const members = current.members.map((m) => (m.id === back.id ? { ...m, name: joiner.name } : m));
        return { ...current, members, version: current.version + 1 };
      }
      const open = (await this.withoutStale(current, now)) ?? current;
      if (open.members.length >= PARTY_MAX_MEMBERS)
        throw new AppError(409, 'party_full', 'This party has all the members it can hold');
      const { member, token: fresh } = newMember(joiner, now);
      joined = { id: member.id, token: fresh };
      return { ...open, members: [...open.members, member], version: open.version + 1 };
    });
    return { party: viewOf(room, this.o.now()), member: joined! };
  }

  /** The room without the members whose streams have been closed too long; null when none went. */
  private async withoutStale(room: PartyRoom, now: number): Promise<PartyRoom | null> {
    const seen = await this.o.store.seen(room.id);
    const gone = new Set(
      room.members
        .filter((m) => Math.max(m.joinedAt, seen.get(m.id) ?? 0) < now - PARTY_STALE_MS)
        .map((m) => m.id),
    );
    if (gone.size === 0) return null;
    return withoutMembers(room, gone, now);
  }

  async leave(partyId: string, token: string | undefined): Promise<void> {
    const { member } = await this.memberOf(partyId, token);
    await this.update(partyId, async (current, now) => {
      if (!current.members.some((m) => m.id === member.id)) return null;
      return withoutMembers(current, new Set([member.id]), now) ?? 'end';
    });
  }

  async view(partyId: string, token: string | undefined): Promise<PartyView> {
    const { room } = await this.memberOf(partyId, token);
    return viewOf(room, this.o.now());
  }

  /**
   * A member's command (a new title's access was checked by the caller). A member who buffers too often
   * holds the room no more: their buffering is then ignored, and they catch up by themselves.
   */
  async command(partyId: string, token: string | undefined, command: PartyCommand): Promise<PartyView> {
    const { member } = await this.memberOf(partyId, token);
    await this.o.limits.consume('party_command', member.id);
    if (command.type === 'buffering' && !(await this.mayHold(member.id))) return this.view(partyId, token);
    const room = await this.update(partyId, async (current, now) => {
      if (!current.members.some((m) => m.id === member.id)) throw notAMember();
      return applyCommand(current, member.id, command, now);
    });
    return viewOf(room, this.o.now());
  }

  private async mayHold(memberId: string): Promise<boolean> {
    try {
      await this.o.limits.consume('party_hold', memberId);
      return true;
    } catch (error) {
      if (error instanceof RateLimitedError) return false;
      throw error;
    }
  }

  async message(
    partyId: string,
    token: string | undefined,
    body: { text: string } | { reaction: string },
  ): Promise<{ id: string }> {
    const { member } = await this.memberOf(partyId, token);
    await this.o.limits.consume('party_message', member.id);
    const common = { id: randomId(9), memberId: member.id, name: member.name, at: this.o.now() };
    const message: PartyBroadcast =
      'text' in body
        ? { type: 'chat', ...common, text: body.text }
        : { type: 'reaction', ...common, reaction: body.reaction };
    await this.o.store.publish(partyId, message);
    return { id: common.id };
  }

  /** A member's stream is open (kept aside: no change is told for it). */
  async touch(partyId: string, memberId: string): Promise<void> {
    await this.o.store.touch(partyId, memberId, this.o.now());
  }

  /**
   * Applies `change` to the party's room until it lands unchanged by others (a few tries): null keeps the
   * room as it is, 'end' ends the party. Answers the room as left.
   */
  private async update(
    partyId: string,
    change: (room: PartyRoom, now: number) => Promise<PartyRoom | null | 'end'>,
  ): Promise<PartyRoom> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const room = await this.o.store.read(partyId);
      if (!room) throw partyNotFound();
      const next = await change(room, this.o.now());
      if (next === null) return room;
      if (next === 'end') {
        if (await this.o.store.remove(partyId, room.version)) return room;
        continue;
      }
      if (await this.o.store.replace(next)) return next;
    }
    throw new AppError(429, 'rate_limited', 'This party is changing too fast; try again');
  }

  // ---- p-stream's player status ----

  async postStatus(owner: string, input: PlayerStatusInput): Promise<number> {
    await this.o.limits.consume('player_status', owner);
    const timestamp = this.o.now();
    await this.o.statuses.post(owner, { ...input, timestamp }, PARTY_MAX_MEMBERS);
    return timestamp;
  }

  roomStatuses(roomCode: string): Promise<Record<string, PlayerStatus[]>> {
    return this.o.statuses.room(roomCode, this.o.now());
  }
}

export interface CreateOptions {
  title: PartyTitle;
  hostOnly?: boolean | undefined;
  position?: number | undefined;
  playing?: boolean | undefined;
}
