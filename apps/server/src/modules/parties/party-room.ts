import {
  PARTY_HOLD_MS,
  partyHolding,
  partyPositionAt,
  type PartyCommand,
  type PartyPlaybackState,
  type PartyTitle,
  type PartyView,
} from '@marquee/contract';
import { AppError } from '../../errors.ts';

/*
 * A watch party's room as the server keeps it, and what each command does to it (decision 110). Pure:
 * the store decides where rooms live and makes each change atomic; this decides what a change is.
 */

export interface StoredMember {
  id: string;
  name: string;
  /** The account behind the member; null for a guest. */
  userId: string | null;
  /** SHA-256 of the member's token (base64url): the token itself is only ever the member's. */
  tokenHash: string;
  joinedAt: number;
}

export interface PartyRoom {
  id: string;
  title: PartyTitle;
  hostOnly: boolean;
  hostId: string;
  playback: PartyPlaybackState;
  members: StoredMember[];
  version: number;
  createdAt: number;
}

/** Which title and episode (what a member's player shows), whatever else the title carries. */
export const titleKey = (t: PartyTitle) =>
  `${t.type}:${t.tmdbId}:${t.season?.number ?? ''}:${t.episode?.number ?? ''}`;

export const hostOnlyRefused = () =>
  new AppError(403, 'party_host_only', 'Only the host controls playback in this party');

/** What members see of a room (no tokens, no accounts). */
export function viewOf(room: PartyRoom, now: number): PartyView {
  return {
    id: room.id,
    title: room.title,
    hostOnly: room.hostOnly,
    playback: room.playback,
    members: room.members.map((m) => ({
      id: m.id,
      name: m.name,
      host: m.id === room.hostId,
      guest: m.userId === null,
    })),
    version: room.version,
    serverTime: now,
  };
}

const playingFrom = (position: number, playing: boolean, now: number): PartyPlaybackState => ({
  playing,
  position,
  at: now,
  rate: 1,
  waitingFor: [],
  holdUntil: null,
});

/** A member's buffering holds a playing room (at most PARTY_HOLD_MS from the first hold of a run). */
function hold(s: PartyPlaybackState, memberId: string, now: number): PartyPlaybackState | null {
  if (!s.playing) return null;
  const holding = partyHolding(s, now);
  if (holding && s.waitingFor.includes(memberId)) return null;
  const position = partyPositionAt(s, now);
  return {
    ...s,
    position,
    at: now,
    waitingFor: holding ? [...s.waitingFor, memberId] : [memberId],
    holdUntil: holding ? s.holdUntil : now + PARTY_HOLD_MS,
  };
}

/** A member can play again: the room plays on once nobody it waits for is left. */
function release(s: PartyPlaybackState, memberId: string, now: number): PartyPlaybackState | null {
  if (!s.waitingFor.includes(memberId)) return null;
  const waitingFor = s.waitingFor.filter((id) => id !== memberId);
  if (waitingFor.length > 0 && partyHolding(s, now)) return { ...s, waitingFor };
  return { ...s, position: partyPositionAt(s, now), at: now, waitingFor: [], holdUntil: null };
}

/**
 * The room after `memberId`'s command at server time `now`, or null when it changes nothing. Throws
 * party_host_only for a playback command of a guest member in a host-only room. A new title's access is
 * checked by the caller before this.
 */
export function applyCommand(
  room: PartyRoom,
  memberId: string,
  command: PartyCommand,
  now: number,
): PartyRoom | null {
  const isHost = memberId === room.hostId;
  const s = room.playback;
  const next = (playback: PartyPlaybackState | null, more: Partial<PartyRoom> = {}): PartyRoom | null =>
    playback === null ? null : { ...room, ...more, playback, version: room.version + 1 };
  switch (command.type) {
    case 'buffering':
      return next(hold(s, memberId, now));
    case 'ready':
      return next(release(s, memberId, now));
    case 'hostOnly':
      if (!isHost) throw hostOnlyRefused();
      return command.value === room.hostOnly ? null : next(s, { hostOnly: command.value });
    default:
      break;
  }
  if (room.hostOnly && !isHost) throw hostOnlyRefused();
  switch (command.type) {
    case 'play':
      return next(playingFrom(command.position, true, now));
    case 'pause':
      return next(playingFrom(command.position, false, now));
    case 'seek':
      return next(playingFrom(command.position, s.playing, now));
    case 'title':
      // Two members whose players both went on to the next episode: the second changes nothing.
      if (titleKey(command.title) === titleKey(room.title)) return null;
      return next(playingFrom(command.position ?? 0, s.playing, now), { title: command.title });
  }
}

/**
 * The room without a member (left, or not seen for too long): its holds end, and the longest-joined
 * member left becomes host when the host goes. Null when nobody is left (the party ends).
 */
export function withoutMembers(room: PartyRoom, gone: ReadonlySet<string>, now: number): PartyRoom | null {
  const members = room.members.filter((m) => !gone.has(m.id));
  if (members.length === room.members.length) return room;
  if (members.length === 0) return null;
  let playback = room.playback;
  for (const id of gone) playback = release(playback, id, now) ?? playback;
  const hostId = members.some((m) => m.id === room.hostId)
    ? room.hostId
    : [...members].sort((a, b) => a.joinedAt - b.joinedAt)[0]!.id;
  return { ...room, members, playback, hostId, version: room.version + 1 };
}
