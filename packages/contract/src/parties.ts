import { z } from './z.ts';
import { defineEndpoint, defineStream } from './endpoint.ts';
import {
  PARTY_CHAT_MAX,
  PARTY_NAME_MAX,
  PARTY_REACTIONS,
  partyEventNames,
  partyRoutes,
  type PartyPlaybackState,
} from './party-routes.ts';

/*
 * Watch parties (decision 110): a room on the server holds one title's playback; members send commands
 * over HTTP and hear the room over server-sent events; each keeps in step by the room's clock
 * (`partyPositionAt`). Rooms live in Redis when configured, so one spans processes and outlives one.
 */

const TmdbId = z.string().regex(/^[0-9]{1,10}$/, 'must be a TMDB id');
/** A season's or an episode's id: TMDB's, or the embedded catalog's longer ones (as the scrape API takes them). */
const ChildId = z.string().regex(/^[0-9]{1,20}$/, 'must be a numeric id');
const Seconds = z
  .number()
  .finite()
  .min(0)
  .max(7 * 24 * 3600);

/** What the party watches: the same fields a scrape names (a show names its season and episode). */
export const PartyTitle = z
  .object({
    type: z.enum(['movie', 'show']),
    tmdbId: TmdbId,
    title: z.string().trim().min(1).max(300),
    releaseYear: z.number().int().min(1870).max(2200).nullable().optional(),
    imdbId: z
      .string()
      .regex(/^tt[0-9]{1,10}$/)
      .nullable()
      .optional(),
    season: z.object({ number: z.number().int().min(0).max(1000), tmdbId: ChildId }).optional(),
    episode: z.object({ number: z.number().int().min(0).max(100_000), tmdbId: ChildId }).optional(),
  })
  .refine((t) => t.type === 'movie' || (t.season !== undefined && t.episode !== undefined), {
    message: 'a show names its season and episode',
    path: ['episode'],
  });
export type PartyTitle = z.infer<typeof PartyTitle>;

export const PartyName = z
  .string()
  .trim()
  .min(1)
  .max(PARTY_NAME_MAX)
  .regex(/^[^\p{C}]*$/u, 'must not hold control characters');

export const PartyPlayback = z.object({
  playing: z.boolean(),
  position: z.number(),
  at: z.number(),
  rate: z.number(),
  waitingFor: z.array(z.string()),
  holdUntil: z.number().nullable(),
}) satisfies z.ZodType<PartyPlaybackState>;

export const PartyMember = z.object({
  id: z.string(),
  name: z.string(),
  host: z.boolean(),
  /** Signed out (a guest by name, where the operator allows them). */
  guest: z.boolean(),
});
export type PartyMember = z.infer<typeof PartyMember>;

/** A party as its members see it. */
export const PartyView = z.object({
  id: z.string(),
  title: PartyTitle,
  /** Only the host plays, pauses, seeks and changes the episode. */
  hostOnly: z.boolean(),
  playback: PartyPlayback,
  members: z.array(PartyMember),
  /** Grows with every change; a client keeps the highest it heard. */
  version: z.number().int(),
  /** Server time of this answer (ms), for clients that have no clock offset yet. */
  serverTime: z.number(),
});
export type PartyView = z.infer<typeof PartyView>;

export const PartyJoined = z.object({
  party: PartyView,
  member: z.object({
    id: z.string(),
    /** Sent as X-Party-Token on every call after this; only this member holds it. */
    token: z.string(),
  }),
});
export type PartyJoined = z.infer<typeof PartyJoined>;

export const PartyCreateBody = z.object({
  title: PartyTitle,
  hostOnly: z.boolean().optional(),
  position: Seconds.optional(),
  playing: z.boolean().optional(),
  /** The host's name in the party (their profile's, by default the client's choice). */
  name: PartyName,
});
export const PartyJoinBody = z.object({ name: PartyName });

export const PartyCommand = z.discriminatedUnion('type', [
  z.object({ type: z.literal('play'), position: Seconds }),
  z.object({ type: z.literal('pause'), position: Seconds }),
  z.object({ type: z.literal('seek'), position: Seconds }),
  /** This member's player stalled at `position`: the room holds for it (PARTY_HOLD_MS at most). */
  z.object({ type: z.literal('buffering'), position: Seconds }),
  /** This member's player can play again. */
  z.object({ type: z.literal('ready') }),
  /** Another title or episode, from its start (or `position`). */
  z.object({ type: z.literal('title'), title: PartyTitle, position: Seconds.optional() }),
  /** The host only: whether only the host controls playback. */
  z.object({ type: z.literal('hostOnly'), value: z.boolean() }),
]);
export type PartyCommand = z.infer<typeof PartyCommand>;

export const PartyMessageBody = z.union([
  z.object({
    text: z
      .string()
      .trim()
      .min(1)
      .max(PARTY_CHAT_MAX)
      .regex(/^[^\p{Cc}]*$/u, 'must not hold control characters'),
  }),
  z.object({ reaction: z.enum(PARTY_REACTIONS) }),
]);

export const PartyChat = z.object({
  id: z.string(),
  memberId: z.string(),
  name: z.string(),
  text: z.string(),
  at: z.number(),
});
export const PartyReactionEvent = z.object({
  id: z.string(),
  memberId: z.string(),
  name: z.string(),
  reaction: z.enum(PARTY_REACTIONS),
  at: z.number(),
});

export const partyEvents = {
  /** The party now: on connecting and after every change. */
  state: PartyView,
  chat: PartyChat,
  reaction: PartyReactionEvent,
  /** The party ended, or this member left or was dropped: stop listening. */
  closed: z.object({ reason: z.enum(['ended', 'left']) }),
} satisfies Record<(typeof partyEventNames)[number], z.ZodType>;

export const PartyParams = z.object({
  partyId: z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'must be a party id'),
});

/** p-stream's player status (its watch party polls these; upstream answers them unauthenticated). */
const PlayerStatusContent = z.object({
  title: z.string().max(300),
  type: z.string().max(40),
  tmdbId: z.number().int().nullable().optional(),
  seasonId: z.number().int().nullable().optional(),
  episodeId: z.number().int().nullable().optional(),
  seasonNumber: z.number().int().nullable().optional(),
  episodeNumber: z.number().int().nullable().optional(),
});
const PlayerStatusPlayer = z.object({
  isPlaying: z.boolean(),
  isPaused: z.boolean(),
  isLoading: z.boolean(),
  hasPlayedOnce: z.boolean(),
  time: z.number().finite(),
  duration: z.number().finite(),
  volume: z.number().finite().optional(),
  playbackRate: z.number().finite(),
  buffered: z.number().finite(),
});
const PlayerStatusKey = z.string().trim().min(1).max(100);
export const PlayerStatusBody = z.object({
  userId: PlayerStatusKey,
  roomCode: PlayerStatusKey,
  isHost: z.boolean().optional(),
  content: PlayerStatusContent.optional(),
  player: PlayerStatusPlayer.optional(),
});
export const PlayerStatus = z.object({
  userId: z.string(),
  roomCode: z.string(),
  isHost: z.boolean(),
  content: PlayerStatusContent.nullable(),
  player: PlayerStatusPlayer.nullable(),
  timestamp: z.number(),
});
export type PlayerStatus = z.infer<typeof PlayerStatus>;
export const PlayerStatusQuery = z.object({
  roomCode: PlayerStatusKey.optional(),
  userId: PlayerStatusKey.optional(),
});

const partyErrors = { 403: ['party_not_member'], 404: ['party_not_found'] } as const;
/** Why a viewer may not play the party's title: the same refusals as the scrape API's. */
const playErrors = {
  401: ['login_required'],
  402: ['membership_required'],
  403: ['kids_profile', 'over_content_limit', 'profile_locked', 'media_unreleased'],
  404: ['media_not_found', 'profile_not_found'],
  429: ['rate_limited'],
  502: ['metadata_unavailable'],
} as const;

export const partyEndpoints = {
  clock: defineEndpoint({
    ...partyRoutes.clock,
    summary: "The server's clock (ms since the epoch): members keep their offset from it",
    auth: 'none',
    tags: ['parties'],
    response: z.object({ now: z.number() }),
  }),
  create: defineEndpoint({
    ...partyRoutes.create,
    summary: 'Start a watch party for a title the caller may play; answers the party and the host token',
    auth: 'session',
    tags: ['parties'],
    errors: playErrors,
    body: PartyCreateBody,
    response: PartyJoined,
  }),
  preview: defineEndpoint({
    ...partyRoutes.preview,
    summary: 'What a party watches, who hosts it and how many are in it (the invite link is the key)',
    auth: 'none',
    tags: ['parties'],
    errors: { 404: ['party_not_found'], 429: ['rate_limited'] },
    params: PartyParams,
    response: z.object({ title: PartyTitle, host: z.string(), members: z.number().int(), full: z.boolean() }),
  }),
  get: defineEndpoint({
    ...partyRoutes.get,
    summary: 'The party now (a member, X-Party-Token)',
    auth: 'none',
    tags: ['parties'],
    errors: partyErrors,
    params: PartyParams,
    response: PartyView,
  }),
  join: defineEndpoint({
    ...partyRoutes.join,
    summary:
      "Join by the invite link: signed in, or as a guest by name where the operator allows it; the caller must be able to play the party's title",
    auth: 'optional',
    tags: ['parties'],
    errors: {
      ...playErrors,
      401: [...playErrors[401], 'party_guests_closed'],
      404: [...playErrors[404], 'party_not_found'],
      409: ['party_full'],
    },
    params: PartyParams,
    body: PartyJoinBody,
    response: PartyJoined,
  }),
  leave: defineEndpoint({
    ...partyRoutes.leave,
    summary: 'Leave the party (a member); the last member out ends it',
    auth: 'none',
    tags: ['parties'],
    errors: partyErrors,
    params: PartyParams,
    response: z.object({ left: z.literal(true) }),
  }),
  events: defineStream({
    ...partyRoutes.events,
    summary:
      'Server-sent events of a party (a member): `state` on connecting and after every change, `chat`, `reaction`, `closed`',
    auth: 'none',
    tags: ['parties'],
    errors: { ...partyErrors, 429: ['rate_limited'] },
    params: PartyParams,
    events: partyEvents,
  }),
  command: defineEndpoint({
    ...partyRoutes.command,
    summary:
      'Play, pause, seek, buffering and ready, another title or episode (which the caller must be able to play), host-only (the host)',
    auth: 'none',
    tags: ['parties'],
    errors: {
      ...playErrors,
      403: [...playErrors[403], 'party_not_member', 'party_host_only'],
      404: [...playErrors[404], 'party_not_found'],
    },
    params: PartyParams,
    body: PartyCommand,
    response: PartyView,
  }),
  message: defineEndpoint({
    ...partyRoutes.message,
    summary: 'Send the party a chat message (500 characters at most) or a reaction',
    auth: 'none',
    tags: ['parties'],
    errors: { ...partyErrors, 429: ['rate_limited'] },
    params: PartyParams,
    body: PartyMessageBody,
    response: z.object({ id: z.string() }),
  }),
  postPlayerStatus: defineEndpoint({
    ...partyRoutes.postPlayerStatus,
    summary:
      "p-stream's watch party: a member's player status (the last 5 per member and room are kept, 30 minutes)",
    auth: 'session',
    tags: ['parties'],
    errors: { 403: ['forbidden'], 409: ['party_full'], 429: ['rate_limited'] },
    body: PlayerStatusBody,
    response: z.object({ success: z.literal(true), timestamp: z.number() }),
  }),
  playerStatus: defineEndpoint({
    ...partyRoutes.playerStatus,
    summary:
      "p-stream's watch party: a room's statuses by member (`roomCode`), or one member's (`roomCode` and `userId`)",
    auth: 'session',
    tags: ['parties'],
    query: PlayerStatusQuery,
    response: z.union([
      z.object({ roomCode: z.string(), users: z.record(z.string(), z.array(PlayerStatus)) }),
      z.object({ userId: z.string(), roomCode: z.string(), statuses: z.array(PlayerStatus) }),
    ]),
  }),
} as const;
