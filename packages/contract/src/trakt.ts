import { z } from './z.ts';
import { IsoInstant, UserIdParams } from './accounts.ts';
import { defineEndpoint, type EndpointErrors } from './endpoint.ts';
import { traktRoutes } from './routes.ts';
import { SyncMediaType, SyncTmdbId } from './sync.ts';

/*
 * The server's two-way Trakt sync (decision 101), per library (an account, or one household profile).
 * The viewer links a Trakt account with Trakt's device flow: the server asks Trakt for a code, the viewer
 * enters it at Trakt's page, the server holds the tokens. The browser never sees a Trakt secret.
 */

/**
 * - `unavailable`: this instance has no Trakt client configured;
 * - `unlinked`: no Trakt account (a link that was denied or expired says so in `problem`);
 * - `pending`: waiting for the viewer to enter `device.userCode` at `device.verificationUrl`;
 * - `linked`: synced by the server;
 * - `relink`: Trakt no longer accepts the tokens (revoked there, or expired): link again.
 */
export const TraktState = z.enum(['unavailable', 'unlinked', 'pending', 'linked', 'relink']);
export type TraktState = z.infer<typeof TraktState>;

/**
 * What went wrong last, cleared by the next good step:
 * `link_denied`/`link_expired` (the code was refused at Trakt or not entered in time),
 * `unreachable` (Trakt down or slow: retried later), `rate_limited` (Trakt asked to wait: retried then),
 * `limit_reached` (the Trakt account's own limit, e.g. a full watchlist: upgrade there or remove some).
 */
export const TraktProblem = z.enum([
  'link_denied',
  'link_expired',
  'unreachable',
  'rate_limited',
  'limit_reached',
]);
export type TraktProblem = z.infer<typeof TraktProblem>;

export const TraktDeviceCode = z.object({
  /** What the viewer types at `verificationUrl` (Trakt's, e.g. https://trakt.tv/activate). */
  userCode: z.string(),
  verificationUrl: z.string(),
  expiresAt: IsoInstant,
  /** Seconds between two status reads while pending (Trakt's polling interval). */
  interval: z.number(),
});
export type TraktDeviceCode = z.infer<typeof TraktDeviceCode>;

export const TraktStatus = z.object({
  state: TraktState,
  /** While `pending`. */
  device: TraktDeviceCode.nullable(),
  /** The linked Trakt account's name (`linked`, `relink`). */
  username: z.string().nullable(),
  linkedAt: IsoInstant.nullable(),
  /** When a sync pass last finished without a problem. */
  lastSyncAt: IsoInstant.nullable(),
  /** A sync pass is due soon (after "Sync now", a link, or a change here). */
  syncPending: z.boolean(),
  problem: TraktProblem.nullable(),
});
export type TraktStatus = z.infer<typeof TraktStatus>;

/** Progress of a play, in percent, as Trakt's scrobble takes it. */
const Percent = z.number().min(0).max(100);
const EpisodeNumber = z.number().int().min(0).max(100_000);

/**
 * What the player is doing: `start` when playing, `pause` when paused, `stop` when the viewer leaves or it
 * ends (80 % or more: Trakt records a play). Forwarded to Trakt by the server in the background.
 */
export const TraktScrobbleBody = z
  .object({
    action: z.enum(['start', 'pause', 'stop']),
    tmdbId: SyncTmdbId,
    type: SyncMediaType,
    seasonNumber: EpisodeNumber.optional(),
    episodeNumber: EpisodeNumber.optional(),
    progress: Percent,
  })
  .refine(
    (body) => body.type === 'movie' || (body.seasonNumber !== undefined && body.episodeNumber !== undefined),
    { message: 'an episode names its season and episode numbers', path: ['episodeNumber'] },
  );
export type TraktScrobbleBody = z.infer<typeof TraktScrobbleBody>;
/** `forwarded`: false when this library has no linked Trakt account (nothing to do). */
export const TraktScrobbleAnswer = z.object({ forwarded: z.boolean() });

const traktErrors = { 403: ['profile_locked'], 404: ['profile_not_found'] } as const satisfies EndpointErrors;

export const traktEndpoints = {
  status: defineEndpoint({
    ...traktRoutes.status,
    summary:
      'Whether this library is linked to a Trakt account, the code to enter while linking, and how the last sync went (while pending, each read also asks Trakt once whether the code was entered)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: traktErrors,
    params: UserIdParams,
    response: TraktStatus,
  }),
  link: defineEndpoint({
    ...traktRoutes.link,
    summary:
      "Start linking a Trakt account: answers the code to enter at Trakt's page (a new code each call)",
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...traktErrors, 502: ['trakt_unavailable'], 503: ['trakt_not_configured'] },
    params: UserIdParams,
    response: TraktStatus,
  }),
  unlink: defineEndpoint({
    ...traktRoutes.unlink,
    summary:
      'Unlink Trakt (or stop linking): the tokens are revoked at Trakt when it answers and deleted here in any case',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: traktErrors,
    params: UserIdParams,
    response: TraktStatus,
  }),
  sync: defineEndpoint({
    ...traktRoutes.sync,
    summary: 'Sync with Trakt soon (a pass is queued; GET shows when it finished)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...traktErrors, 409: ['trakt_not_linked'] },
    successStatus: 202,
    params: UserIdParams,
    response: TraktStatus,
  }),
  scrobble: defineEndpoint({
    ...traktRoutes.scrobble,
    summary:
      "Tell Trakt what the player is doing (start, pause, stop). Answered at once: Trakt's answer never delays playback",
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { 400: ['bad_request'], ...traktErrors },
    successStatus: 202,
    params: UserIdParams,
    body: TraktScrobbleBody,
    response: TraktScrobbleAnswer,
  }),
} as const;
