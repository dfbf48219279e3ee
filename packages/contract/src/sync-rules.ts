/*
 * The sync rules both sides apply (decision 011). No schema library here: the web imports these at run
 * time in its first view (decision 003).
 */

/** The two kinds of title; progress and bookmarks are keyed by kind so a movie and a show never collide. */
export const syncMediaTypes = ['movie', 'show'] as const;

/** The most groups one bookmark may be in, favourite episodes it may hold, and names a group order may hold. */
export const BOOKMARK_GROUPS_MAX = 50;
export const FAVORITE_EPISODES_MAX = 2000;
export const GROUP_ORDER_MAX = 200;
/** A bookmark group's name (p-stream, decision 097): trimmed, 1–100 characters, no control characters at all. */
export const GROUP_NAME_MAX = 100;
export const GROUP_NAME_PATTERN = /^\P{Cc}*$/u;

/**
 * The kind a client-supplied `meta.type` names. Clients of this family say `movie` / `show`; some say
 * `tv`. Anything else (older clients send `""` when the type is unknown) is decided by whether the item
 * names an episode.
 */
export function mediaTypeOf(type: string, hasEpisode = false): (typeof syncMediaTypes)[number] {
  if (type === 'movie') return 'movie';
  if (type === 'show' || type === 'tv' || type === 'series' || type === 'anime') return 'show';
  return hasEpisode ? 'show' : 'movie';
}

/**
 * The conflict rule (decision 011), the one the server's SQL implements (`WHERE stored.updated_at <=
 * excluded.updated_at`) and the web's outbox applies: a change applies unless what is held for its key
 * — a row, or a removal covering it — was made later. Equal times: the later arrival wins. The cases
 * both sides are run on: `sync-conformance.ts`.
 */
export function changeWins(incomingMs: number, storedMs: number | null | undefined): boolean {
  return storedMs == null || incomingMs >= storedMs;
}

/** The first film was shown in 1888: a watch date before it is a mistake, not a memory (decision 095). */
export const EARLIEST_WATCH_MS = Date.UTC(1888, 0, 1);

/**
 * Plays of one movie or episode a device reports while watching, closer together than this, are one
 * play (decision 095): three devices finishing an episode together, a viewer scrubbing back over the end.
 */
export const SAME_PLAY_WINDOW_MS = 3 * 60 * 60_000;

/**
 * The share of a movie's or an episode's length past which it counts as watched, a per-profile setting
 * (`watchedThreshold`, issue 27): from half of it to all of it.
 */
export const WATCHED_THRESHOLD_MIN = 0.5;
export const WATCHED_THRESHOLD_MAX = 1;

/**
 * "Stop watching" marks (`continueHidden`, decision 102): library key (`show:1396`) → when the viewer
 * stopped watching (epoch ms). The most the server keeps, and a key's longest.
 */
export const CONTINUE_HIDDEN_MAX = 500;
export const CONTINUE_HIDDEN_KEY_MAX = 40;

/**
 * "Are you still watching?" (`stillWatching`, decision 112): the player pauses and asks after this many
 * episodes started on their own in a row, or this many minutes of playback, without the viewer touching
 * anything. 0 turns that limit off; both 0, the question is never asked. Per profile.
 */
export const STILL_WATCHING_EPISODES_MAX = 20;
export const STILL_WATCHING_MINUTES_MAX = 12 * 60;
/** When not set: after 3 episodes or 90 minutes without input. */
export const STILL_WATCHING_DEFAULT = { episodes: 3, minutes: 90 } as const;

/**
 * The player's actions a viewer may bind other keys to (`playerShortcuts`, decision 112): action → keys
 * (`KeyboardEvent.key`, letters in lower case), only the actions the viewer changed. Escape always
 * closes a menu and is not among them.
 */
export const PLAYER_SHORTCUT_ACTIONS = [
  'playPause',
  'seekBack5',
  'seekForward5',
  'seekBack10',
  'seekForward10',
  'frameBack',
  'frameForward',
  'volumeUp',
  'volumeDown',
  'mute',
  'slower',
  'faster',
  'fullscreen',
  'captions',
  'roll',
  'help',
] as const;
export type PlayerShortcutAction = (typeof PLAYER_SHORTCUT_ACTIONS)[number];
/** The most keys one action has, and the longest key name (`ArrowRight`, `MediaPlayPause`). */
export const PLAYER_SHORTCUT_KEYS_MAX = 3;
export const PLAYER_SHORTCUT_KEY_NAME_MAX = 24;
/** How many actions the stored map may name (ours and a newer client's). */
export const PLAYER_SHORTCUT_ENTRIES_MAX = 40;

/**
 * Ratings (decision 103): a whole number from 1 to 10 per movie or show — Trakt's scale; Letterboxd's
 * half stars are twice their value, IMDb's are as given. The most ratings a library holds.
 */
export const RATING_MIN = 1;
export const RATING_MAX = 10;
export const RATINGS_MAX = 100_000;
