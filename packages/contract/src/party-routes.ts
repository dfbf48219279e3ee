import type { Route } from './endpoint.ts';

/**
 * Watch parties (decision 110). Schema-free, like `deviceLinkPaths`, so the web app names them (and
 * computes a room's position) without loading the schemas.
 */
export const partyPaths = {
  /** GET (anyone): the server's clock, for the NTP-style offset each member keeps. */
  clock: '/parties/clock',
  /** POST (signed in): a new party for a title → the party and the host's member token. */
  create: '/parties',
  /** GET (anyone with the link): what the party watches, who hosts it, how many are in it. */
  preview: '/parties/:partyId/preview',
  /** GET (a member, X-Party-Token): the party now. */
  get: '/parties/:partyId',
  /** POST (signed in, or a guest with a name where the operator allows it): join by the invite link. */
  join: '/parties/:partyId/members',
  /** DELETE (a member): leave. */
  leave: '/parties/:partyId/members/me',
  /** GET (a member): server-sent events — the party's state, chat and reactions. */
  events: '/parties/:partyId/events',
  /** POST (a member): play, pause, seek, buffering, ready, another episode, host-only. */
  command: '/parties/:partyId/commands',
  /** POST (a member): a chat message or a reaction. */
  message: '/parties/:partyId/messages',
  /** POST/GET (signed in): p-stream's watch-party status polling, answered for its client. */
  playerStatus: '/api/player/status',
} as const;

/** A member's proof on every call after joining (the join answers it; only that member holds it). */
export const PARTY_TOKEN_HEADER = 'x-party-token';
/** The invite link's page: `/party/<id>`. */
export const PARTY_PAGE = '/party';
/** The most members one party holds (409 party_full past it). */
export const PARTY_MAX_MEMBERS = 100;
/** A chat message's longest text, in characters. */
export const PARTY_CHAT_MAX = 500;
/** How long a member's buffering holds the room at most; then it plays on without them. */
export const PARTY_HOLD_MS = 10_000;
/** The reactions a member can send (one tap each; no free-form emoji, so nothing else can be drawn). */
export const PARTY_REACTIONS = ['😂', '😮', '😢', '😍', '👏', '🔥', '👀', '💀'] as const;
export type PartyReaction = (typeof PARTY_REACTIONS)[number];
/** The events of a party's stream (`partyEvents` holds their schemas). */
export const partyEventNames = ['state', 'chat', 'reaction', 'closed'] as const;
/** A display name's longest form. */
export const PARTY_NAME_MAX = 40;

/** The room's playback as the server keeps it: positions in seconds, times in the server's milliseconds. */
export interface PartyPlaybackState {
  playing: boolean;
  /** The position at `at`. */
  position: number;
  /** When `position` was true (server clock, ms since the epoch). */
  at: number;
  rate: number;
  /** Members whose buffering holds the room (until `holdUntil`). */
  waitingFor: string[];
  /** While a member buffers: the room holds at `position` until then at the latest (server ms). */
  holdUntil: number | null;
}

/** Whether the room is held for a buffering member at server time `now`. */
export const partyHolding = (s: PartyPlaybackState, now: number): boolean =>
  s.playing && s.waitingFor.length > 0 && s.holdUntil !== null && now < s.holdUntil;

/**
 * Where the room is at server time `now`: paused, or held for a buffering member, it stays at `position`;
 * playing, it moves from `at` (or from the end of a hold) at `rate`. Server and clients share it, so a
 * hold ends everywhere at the same moment with no timer anywhere.
 */
export function partyPositionAt(s: PartyPlaybackState, now: number): number {
  if (!s.playing) return s.position;
  const from = s.waitingFor.length > 0 && s.holdUntil !== null ? Math.max(s.at, s.holdUntil) : s.at;
  return s.position + (Math.max(0, now - from) / 1000) * s.rate;
}

/** Routes of `partyEndpoints`. */
export const partyRoutes = {
  clock: { method: 'GET', path: partyPaths.clock },
  create: { method: 'POST', path: partyPaths.create },
  preview: { method: 'GET', path: partyPaths.preview },
  get: { method: 'GET', path: partyPaths.get },
  join: { method: 'POST', path: partyPaths.join },
  leave: { method: 'DELETE', path: partyPaths.leave },
  events: { method: 'GET', path: partyPaths.events },
  command: { method: 'POST', path: partyPaths.command },
  message: { method: 'POST', path: partyPaths.message },
  postPlayerStatus: { method: 'POST', path: partyPaths.playerStatus },
  playerStatus: { method: 'GET', path: partyPaths.playerStatus },
} as const satisfies Record<string, Route>;
