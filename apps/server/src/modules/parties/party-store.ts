import type { Redis } from 'ioredis';
import type { PartyRoom } from './party-room.ts';

/** What a party's streams hear: its new state, a chat line or reaction, or its end. */
export type PartyBroadcast =
  | { type: 'state'; room: PartyRoom }
  | { type: 'chat'; id: string; memberId: string; name: string; text: string; at: number }
  | { type: 'reaction'; id: string; memberId: string; name: string; reaction: string; at: number }
  | { type: 'ended' };

export type PartyListener = (message: PartyBroadcast) => void;

/**
 * Where rooms live (decision 110): in this process (one server), or in Redis (REDIS_URL), where a room
 * spans processes and outlives any one of them. Every change is a compare-and-set on the room's version
 * that also tells the room's listeners in every process, so no two changes are lost to each other.
 */
export interface PartyStore {
  readonly kind: 'process' | 'redis';
  create(room: PartyRoom): Promise<void>;
  read(id: string): Promise<PartyRoom | null>;
  /** Writes `room` if the stored one is still at version `room.version - 1`; tells listeners. */
  replace(room: PartyRoom): Promise<boolean>;
  /** Ends the party if it is still at `version`. */
  remove(id: string, version: number): Promise<boolean>;
  /** Tells the party's listeners (chat, reactions): nothing is stored. */
  publish(id: string, message: PartyBroadcast): Promise<void>;
  /** Hears one party from when it resolves on; resolves to the unsubscribe. */
  subscribe(id: string, listener: PartyListener): Promise<() => void>;
  /** Called after listeners may have missed messages (Redis came back): they read the room again. */
  onGap(listener: () => void): () => void;
  /** A member's stream is open now (kept beside the room: seeing members is no change to tell). */
  touch(id: string, memberId: string, now: number): Promise<void>;
  /** When each member's stream was last open (ms), by member id. */
  seen(id: string): Promise<Map<string, number>>;
  close(): Promise<void>;
}

/** A party with no change for this long ends by itself (its Redis keys expire; swept in a process). */
export const PARTY_IDLE_MS = 6 * 60 * 60_000;

/** Listeners of this process, by party. */
class PartyListeners {
  private readonly byParty = new Map<string, Set<PartyListener>>();
  private readonly gaps = new Set<() => void>();

  /** True when it is the party's first listener here. */
  add(id: string, listener: PartyListener): boolean {
    let set = this.byParty.get(id);
    const first = !set;
    if (!set) this.byParty.set(id, (set = new Set()));
    set.add(listener);
    return first;
  }

  /** True when it was the party's last listener here. */
  remove(id: string, listener: PartyListener): boolean {
    const set = this.byParty.get(id);
    if (!set?.delete(listener) || set.size > 0) return false;
    this.byParty.delete(id);
    return true;
  }

  parties(): string[] {
    return [...this.byParty.keys()];
  }

  dispatch(id: string, message: PartyBroadcast): void {
    for (const listener of [...(this.byParty.get(id) ?? [])]) listener(message);
  }

  onGap(listener: () => void): () => void {
    this.gaps.add(listener);
    return () => this.gaps.delete(listener);
  }

  gap(): void {
    for (const listener of [...this.gaps]) listener();
  }
}

/** One server process: rooms in memory, gone with the process. */
export class ProcessPartyStore implements PartyStore {
  readonly kind = 'process';
  private readonly rooms = new Map<string, { room: PartyRoom; touchedAt: number }>();
  private readonly seenBy = new Map<string, Map<string, number>>();
  private readonly listeners = new PartyListeners();

  constructor(private readonly now: () => number = Date.now) {}

  private sweep(): void {
    const before = this.now() - PARTY_IDLE_MS;
    for (const [id, entry] of this.rooms)
      if (entry.touchedAt < before) {
        this.rooms.delete(id);
        this.seenBy.delete(id);
      }
  }

  async create(room: PartyRoom): Promise<void> {
    this.sweep();
    this.rooms.set(room.id, { room, touchedAt: this.now() });
  }

  async read(id: string): Promise<PartyRoom | null> {
    const entry = this.rooms.get(id);
    if (!entry || entry.touchedAt < this.now() - PARTY_IDLE_MS) return null;
    return entry.room;
  }

  async replace(room: PartyRoom): Promise<boolean> {
    const entry = this.rooms.get(room.id);
    if (!entry || entry.room.version !== room.version - 1) return false;
    this.rooms.set(room.id, { room, touchedAt: this.now() });
    this.listeners.dispatch(room.id, { type: 'state', room });
    return true;
  }

  async remove(id: string, version: number): Promise<boolean> {
    if (this.rooms.get(id)?.room.version !== version) return false;
    this.rooms.delete(id);
    this.seenBy.delete(id);
    this.listeners.dispatch(id, { type: 'ended' });
    return true;
  }

  async publish(id: string, message: PartyBroadcast): Promise<void> {
    this.listeners.dispatch(id, message);
  }

  async subscribe(id: string, listener: PartyListener): Promise<() => void> {
    this.listeners.add(id, listener);
    return () => void this.listeners.remove(id, listener);
  }

  onGap(listener: () => void): () => void {
    return this.listeners.onGap(listener);
  }

  async touch(id: string, memberId: string, now: number): Promise<void> {
    if (!this.rooms.has(id)) return;
    let seen = this.seenBy.get(id);
    if (!seen) this.seenBy.set(id, (seen = new Map()));
    seen.set(memberId, now);
  }

  async seen(id: string): Promise<Map<string, number>> {
    return new Map(this.seenBy.get(id) ?? []);
  }

  async close(): Promise<void> {}
}

// KEYS[1] the room, KEYS[2] its members' last sightings; ARGV: the version expected (or '' for a new
// room), the new version, the room's JSON, the idle lifetime (ms), the channel, the message ('': none).
const REPLACE = `
local v = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '' then
  if v then return 0 end
elseif v ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'room', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[5], ARGV[6]) end
return 1
`;
// KEYS as above; ARGV: the version expected, the channel, the message.
const REMOVE = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('PUBLISH', ARGV[2], ARGV[3])
return 1
`;

/**
 * Redis: each room is a hash (`<prefix>party:<id>`: its version and JSON) that expires after
 * PARTY_IDLE_MS without a change; a Lua script compares the version, writes and publishes on the room's
 * channel in one step. Listeners subscribe on a connection of their own, per room while this process has
 * a stream of it open; after that connection comes back every room is subscribed again and `onGap`
 * listeners read their room afresh (what was published meanwhile was lost).
 */
export class RedisPartyStore implements PartyStore {
  readonly kind = 'redis';
  private readonly listeners = new PartyListeners();
  private readonly subscriber: Redis;
  private wasReady = false;
  private readonly firstAttempt: Promise<void>;
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.subscriber = redis.duplicate({ autoResubscribe: false, enableOfflineQueue: true });
    this.subscriber.on('error', () => undefined); // the shared connection already logs outages
    this.subscriber.on('ready', () => {
      const ids = this.listeners.parties();
      if (ids.length)
        void this.subscriber.subscribe(...ids.map((id) => this.channel(id))).catch(() => undefined);
      if (this.wasReady) this.listeners.gap();
      this.wasReady = true;
    });
    this.firstAttempt = new Promise<void>((resolve) => {
      for (const outcome of ['ready', 'error', 'end'] as const)
        this.subscriber.once(outcome, () => resolve());
    });
    this.subscriber.on('message', (channel: string, message: string) => {
      const id = channel.slice(this.channel('').length);
      let parsed: PartyBroadcast;
      try {
        parsed = JSON.parse(message) as PartyBroadcast;
      } catch {
        return;
      }
      this.listeners.dispatch(id, parsed);
    });
  }

  private key(id: string): string {
    return `${this.prefix}party:${id}`;
  }

  private seenKey(id: string): string {
    return `${this.prefix}party-seen:${id}`;
  }

  private channel(id: string): string {
    return `${this.prefix}party-events:${id}`;
  }

  private async write(room: PartyRoom, expected: string, tell: boolean): Promise<boolean> {
    const json = JSON.stringify(room);
    const message = tell ? JSON.stringify({ type: 'state', room } satisfies PartyBroadcast) : '';
    const done = await this.redis.eval(
      REPLACE,
      2,
      this.key(room.id),
      this.seenKey(room.id),
      expected,
      String(room.version),
      json,
      String(PARTY_IDLE_MS),
      this.channel(room.id),
      message,
    );
    return done === 1;
  }

  async create(room: PartyRoom): Promise<void> {
    if (!(await this.write(room, '', false))) throw new Error('a party with this id exists');
  }

  async read(id: string): Promise<PartyRoom | null> {
    const json = await this.redis.hget(this.key(id), 'room');
    return json ? (JSON.parse(json) as PartyRoom) : null;
  }

  replace(room: PartyRoom): Promise<boolean> {
    return this.write(room, String(room.version - 1), true);
  }

  async remove(id: string, version: number): Promise<boolean> {
    const message = JSON.stringify({ type: 'ended' } satisfies PartyBroadcast);
    const done = await this.redis.eval(
      REMOVE,
      2,
      this.key(id),
      this.seenKey(id),
      String(version),
      this.channel(id),
      message,
    );
    return done === 1;
  }

  async publish(id: string, message: PartyBroadcast): Promise<void> {
    await this.redis.publish(this.channel(id), JSON.stringify(message));
  }

  private async subscribeChannel(id: string): Promise<void> {
    if (!this.wasReady) await this.firstAttempt;
    if (this.subscriber.status !== 'ready') return;
    await this.subscriber.subscribe(this.channel(id)).catch(() => undefined);
  }

  async subscribe(id: string, listener: PartyListener): Promise<() => void> {
    if (this.listeners.add(id, listener)) this.pending.set(id, this.subscribeChannel(id));
    await this.pending.get(id);
    return () => {
      if (!this.listeners.remove(id, listener)) return;
      this.pending.delete(id);
      if (this.subscriber.status === 'ready')
        void this.subscriber.unsubscribe(this.channel(id)).catch(() => undefined);
    };
  }

  onGap(listener: () => void): () => void {
    return this.listeners.onGap(listener);
  }

  async touch(id: string, memberId: string, now: number): Promise<void> {
    await this.redis
      .multi()
      .hset(this.seenKey(id), memberId, String(now))
      .pexpire(this.seenKey(id), PARTY_IDLE_MS)
      .exec();
  }

  async seen(id: string): Promise<Map<string, number>> {
    const all = await this.redis.hgetall(this.seenKey(id));
    return new Map(Object.entries(all).map(([member, at]) => [member, Number(at)]));
  }

  async close(): Promise<void> {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
