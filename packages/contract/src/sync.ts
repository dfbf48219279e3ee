import { z } from './z.ts';
import { ChangeTime, IsoInstant, UserIdParams } from './accounts.ts';
import { libraryChangeKinds } from './account-paths.ts';
import { defineEndpoint, defineStream, type EndpointErrors } from './endpoint.ts';
import { syncRoutes } from './routes.ts';
import {
  BOOKMARK_GROUPS_MAX,
  CONTINUE_HIDDEN_KEY_MAX,
  CONTINUE_HIDDEN_MAX,
  FAVORITE_EPISODES_MAX,
  GROUP_NAME_MAX,
  GROUP_NAME_PATTERN,
  GROUP_ORDER_MAX,
  PLAYER_SHORTCUT_ENTRIES_MAX,
  PLAYER_SHORTCUT_KEY_NAME_MAX,
  PLAYER_SHORTCUT_KEYS_MAX,
  STILL_WATCHING_EPISODES_MAX,
  STILL_WATCHING_MINUTES_MAX,
  syncMediaTypes,
  WATCHED_THRESHOLD_MAX,
  WATCHED_THRESHOLD_MIN,
} from './sync-rules.ts';

/*
 * Bookmarks, progress and settings sync, in the wire shapes existing clients speak, plus the rules both
 * sides apply: last writer wins per item/episode by the time the change was made, imports merge.
 */

/** A TMDB id as clients send it (digits in practice). */
export const SyncTmdbId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'not a TMDB id');
/** Season and episode ids are TMDB ids too; clients send null or nothing for movies. */
const ItemId = z.string().min(1).max(64);
/** Clients send NaN (JSON null) for unknown numbers; we keep the item rather than drop it. */
const OptionalInt = z.number().int().min(0).max(1_000_000).nullish();

export const MediaMetaInput = z.object({
  title: z.string().max(1000),
  year: z.number().int().min(0).max(10_000).nullish(),
  poster: z.string().max(2048).nullish(),
  type: z.string().max(32),
});
export const MediaMeta = z.object({
  title: z.string(),
  year: z.number().nullable(),
  poster: z.string().optional(),
  type: z.string(),
});
export type MediaMeta = z.infer<typeof MediaMeta>;

/** movie | show: progress and bookmarks are keyed by kind so a movie and a show never collide. */
export const SyncMediaType = z.enum(syncMediaTypes);
export type SyncMediaType = z.infer<typeof SyncMediaType>;

// ---- bookmarks ----

/** A bookmark group's name (p-stream): trimmed, 1–100 characters, no control characters at all. */
export const GroupName = z
  .string()
  .trim()
  .min(1)
  .max(GROUP_NAME_MAX)
  .regex(GROUP_NAME_PATTERN, 'must not contain control characters');
const unique = <T>(items: readonly T[]): T[] => [...new Set(items)];
/** p-stream's backend takes one group as a bare string too: always an array here, repeats dropped (first kept). */
export const BookmarkGroupsInput = z
  .union([GroupName, z.array(GroupName).max(BOOKMARK_GROUPS_MAX)])
  .transform((groups) => unique(typeof groups === 'string' ? [groups] : groups));
export const FavoriteEpisodesInput = z.array(ItemId).max(FAVORITE_EPISODES_MAX).transform(unique);

/** `group` and `favoriteEpisodes` are p-stream's: always sent, `[]` when none. */
export const Bookmark = z.object({
  tmdbId: z.string(),
  meta: MediaMeta,
  group: z.array(z.string()),
  favoriteEpisodes: z.array(z.string()),
  updatedAt: IsoInstant,
});
export type Bookmark = z.infer<typeof Bookmark>;
export const BookmarkParams = UserIdParams.extend({ tmdbId: SyncTmdbId });
/**
 * The path id wins over the body's `tmdbId` (clients send both). `updatedAt` is ours: when the change
 * was made. `group` / `favoriteEpisodes` left out (the older clients) keep what the stored bookmark
 * has; `[]` clears them.
 */
export const BookmarkInput = z.object({
  tmdbId: z.string().max(64).optional(),
  meta: MediaMetaInput,
  group: BookmarkGroupsInput.optional(),
  favoriteEpisodes: FavoriteEpisodesInput.optional(),
  updatedAt: ChangeTime.optional(),
});
export type BookmarkInput = z.infer<typeof BookmarkInput>;
export const BookmarkImportItem = z.object({
  tmdbId: SyncTmdbId,
  meta: MediaMetaInput,
  group: BookmarkGroupsInput.optional(),
  favoriteEpisodes: FavoriteEpisodesInput.optional(),
  updatedAt: ChangeTime.optional(),
});
/** p-stream's order of bookmark groups: `PUT` sends the bare array, both answer `{groupOrder}` (`[]` until set). */
export const GroupOrderBody = z.array(GroupName).max(GROUP_ORDER_MAX).transform(unique);
export const GroupOrder = z.object({ groupOrder: z.array(z.string()) });
export type GroupOrder = z.infer<typeof GroupOrder>;
/** The most items one import (bookmarks or progress) may hold. */
export const IMPORT_MAX_ITEMS = 10_000;
export const BookmarkImportBody = z.array(BookmarkImportItem).max(IMPORT_MAX_ITEMS);
/** Optional: `type` deletes only that kind (default both), `updatedAt` is when the user removed it. */
export const BookmarkDeleteQuery = z.object({
  type: SyncMediaType.optional(),
  updatedAt: ChangeTime.optional(),
});

// ---- progress ----

export const ProgressMetaInput = MediaMetaInput;
export const ProgressInput = z.object({
  tmdbId: z.string().max(64).optional(),
  meta: ProgressMetaInput,
  duration: z.number().min(0).max(100_000_000),
  watched: z.number().min(0).max(100_000_000),
  seasonId: ItemId.nullish(),
  episodeId: ItemId.nullish(),
  seasonNumber: OptionalInt,
  episodeNumber: OptionalInt,
  updatedAt: ChangeTime.optional(),
});
export type ProgressInput = z.infer<typeof ProgressInput>;
export const ProgressImportItem = ProgressInput.extend({ tmdbId: SyncTmdbId });
export const ProgressImportBody = z.array(ProgressImportItem).max(IMPORT_MAX_ITEMS);

const SeasonRef = z.object({ id: z.string().nullable(), number: z.number().nullable() });
/**
 * One progress row. `duration`/`watched` are whole seconds: numbers in the answer to a PUT, strings in
 * lists (the older server's bigint columns came back as strings and clients convert with Number()).
 */
export const ProgressItem = z.object({
  id: z.string(),
  tmdbId: z.string(),
  season: SeasonRef,
  episode: SeasonRef,
  meta: MediaMeta,
  duration: z.number(),
  watched: z.number(),
  updatedAt: IsoInstant,
});
export type ProgressItem = z.infer<typeof ProgressItem>;
export const ProgressListItem = ProgressItem.extend({ duration: z.string(), watched: z.string() });
export type ProgressListItem = z.infer<typeof ProgressListItem>;
export const ProgressParams = UserIdParams.extend({ tmdbId: SyncTmdbId });
/**
 * `{}` removes every row of the title, `seasonId` a season, `episodeId` an episode. `type` (ours)
 * limits it to one kind; without it a bare `{}` removes both the movie and the show with that id.
 */
export const ProgressDeleteBody = z
  .object({
    seasonId: ItemId.nullish(),
    episodeId: ItemId.nullish(),
    type: SyncMediaType.optional(),
    updatedAt: ChangeTime.optional(),
  })
  // No body at all arrives as null.
  .nullish();
export const ProgressDeleteResponse = z.object({
  count: z.number(),
  tmdbId: z.string(),
  episodeId: z.string().optional(),
  seasonId: z.string().optional(),
});

// ---- big libraries: pages and changes (ours; decision 072) ----

/** The most rows one page of a library read holds. */
export const LIBRARY_PAGE_MAX = 2000;
/**
 * Optional, ours: with any of them a library read answers one page (`LibraryPage`) instead of the
 * whole list. `updatedSince` is the `version` of an earlier complete read: only what changed after it
 * comes back (removals included). `cursor` is a page's `next`. Without them the answer is the whole
 * list, exactly as the older servers sent it.
 */
export const LibraryReadQuery = z.object({
  limit: z.coerce.number().int().min(1).max(LIBRARY_PAGE_MAX).optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,200}$/, 'not a cursor')
    .optional(),
  updatedSince: z
    .string()
    .regex(/^\d{1,15}$/, 'not a library version')
    .optional(),
});
export type LibraryReadQuery = z.infer<typeof LibraryReadQuery>;
export const BookmarkRemoval = z.object({ tmdbId: z.string(), type: SyncMediaType, removedAt: IsoInstant });
export type BookmarkRemoval = z.infer<typeof BookmarkRemoval>;
/** A removal of progress: the whole title, a season (`seasonId`) or an episode (`episodeId`), of rows changed at or before `removedAt`. */
export const ProgressRemoval = z.object({
  tmdbId: z.string(),
  type: SyncMediaType,
  seasonId: z.string().nullable(),
  episodeId: z.string().nullable(),
  removedAt: IsoInstant,
});
export type ProgressRemoval = z.infer<typeof ProgressRemoval>;
/**
 * One page of a library read, changes in the order they were stored: apply `removed`, then `items`
 * (each item replaces what is held for its key), page after page. `reset`: drop what the earlier
 * pages (or an earlier read) gave — what follows is the whole library. `next`: the cursor of the next
 * page, null on the last one, whose `version` is what to pass as `updatedSince` next time.
 */
export const libraryPage = <I extends z.ZodType, R extends z.ZodType>(item: I, removal: R) =>
  z.object({
    items: z.array(item),
    removed: z.array(removal),
    reset: z.boolean(),
    next: z.string().nullable(),
    version: z.string(),
  });
export const BookmarksPage = libraryPage(Bookmark, BookmarkRemoval);
export type BookmarksPage = z.infer<typeof BookmarksPage>;
export const ProgressPage = libraryPage(ProgressListItem, ProgressRemoval);
export type ProgressPage = z.infer<typeof ProgressPage>;

// ---- settings ----

/** Caption look (decision 050): opacity and blur 0–1, size a multiplier 0.01–2 (1–200 %). */
export const SubtitleStyling = z.object({
  color: z.string().max(32),
  backgroundOpacity: z.number().min(0).max(1),
  backgroundBlur: z.number().min(0).max(1),
  size: z.number().min(0.01).max(2),
  bold: z.boolean(),
});
export type SubtitleStyling = z.infer<typeof SubtitleStyling>;

/** Ours: the share of its length past which a movie or an episode counts as watched (0.9 = 90 %). */
export const WatchedThreshold = z.number().min(WATCHED_THRESHOLD_MIN).max(WATCHED_THRESHOLD_MAX);

/**
 * Ours: the shows the viewer stopped watching (decision 102), library key (`show:1396`) → when (epoch ms);
 * at most `CONTINUE_HIDDEN_MAX` of them. The whole map is one field (last writer wins).
 */
export const ContinueHidden = z
  .record(z.string().min(1).max(CONTINUE_HIDDEN_KEY_MAX), z.number().int().nonnegative())
  .refine((marks) => Object.keys(marks).length <= CONTINUE_HIDDEN_MAX, {
    message: `at most ${CONTINUE_HIDDEN_MAX} titles`,
  });

/** Ours: when the player asks "Are you still watching?" (decision 112); 0 turns a limit off. */
export const StillWatching = z.object({
  episodes: z.number().int().min(0).max(STILL_WATCHING_EPISODES_MAX),
  minutes: z.number().int().min(0).max(STILL_WATCHING_MINUTES_MAX),
});
export type StillWatching = z.infer<typeof StillWatching>;

/**
 * Ours: the player's keys the viewer changed (decision 112), action → keys. Actions this client does not
 * know (a newer one's) are kept as sent; at most `PLAYER_SHORTCUT_ENTRIES_MAX` of them.
 */
export const PlayerShortcuts = z
  .record(
    z.string().regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/),
    z.array(z.string().min(1).max(PLAYER_SHORTCUT_KEY_NAME_MAX)).max(PLAYER_SHORTCUT_KEYS_MAX),
  )
  .refine((map) => Object.keys(map).length <= PLAYER_SHORTCUT_ENTRIES_MAX, {
    message: `at most ${PLAYER_SHORTCUT_ENTRIES_MAX} actions`,
  });
export type PlayerShortcuts = z.infer<typeof PlayerShortcuts>;

/** A text setting of the family's clients (an id, a token, a service name). */
const FamilySettingText = z.string().max(2048);
/** An ordered list of ids (sources, embeds, home sections). */
const FamilySettingList = z.array(FamilySettingText).max(200);
const FamilySettingFlag = z.boolean().nullish();

/**
 * The settings p-stream (the newest client of the family) saves besides ours, by its wire names and
 * types (decision 094). Stored as sent, per field last writer wins like ours; absent from answers until
 * set, null once cleared. The third-party secrets (`FAMILY_SECRET_SETTINGS`) are encrypted at rest and
 * returned to their owner in plain text (the client uses them in the browser).
 */
export const FamilySettings = z.object({
  febboxKey: FamilySettingText.nullish(),
  debridToken: FamilySettingText.nullish(),
  debridService: FamilySettingText.nullish(),
  tidbKey: FamilySettingText.nullish(),
  traktKey: FamilySettingText.nullish(),
  lastSuccessfulSource: FamilySettingText.nullish(),
  proxyTmdb: FamilySettingFlag,
  sourceOrder: FamilySettingList.nullish(),
  embedOrder: FamilySettingList.nullish(),
  homeSectionOrder: FamilySettingList.nullish(),
  disabledSources: FamilySettingList.nullish(),
  disabledEmbeds: FamilySettingList.nullish(),
  enableThumbnails: FamilySettingFlag,
  enableSkipCredits: FamilySettingFlag,
  enableAutoSkipSegments: FamilySettingFlag,
  enableDiscover: FamilySettingFlag,
  enableFeatured: FamilySettingFlag,
  enableDetailsModal: FamilySettingFlag,
  enableImageLogos: FamilySettingFlag,
  enableCarouselView: FamilySettingFlag,
  enableMinimalCards: FamilySettingFlag,
  forceCompactEpisodeView: FamilySettingFlag,
  enableSourceOrder: FamilySettingFlag,
  enableLastSuccessfulSource: FamilySettingFlag,
  enableEmbedOrder: FamilySettingFlag,
  enableLowPerformanceMode: FamilySettingFlag,
  enableNativeSubtitles: FamilySettingFlag,
  enableHoldToBoost: FamilySettingFlag,
  manualSourceSelection: FamilySettingFlag,
  enableDoubleClickToSeek: FamilySettingFlag,
  enableAutoResumeOnPlaybackError: FamilySettingFlag,
  enablePauseOverlay: FamilySettingFlag,
  enableNumberKeySeeking: FamilySettingFlag,
  /** Action → key binding; the bindings' shape is the client's (bounded with the other extra fields). */
  keyboardShortcuts: z.record(z.string().max(64), z.unknown()).nullish(),
  /** Newer clients add saved themes and more: kept as sent. */
  customTheme: z
    .looseObject({
      primary: FamilySettingText.optional(),
      secondary: FamilySettingText.optional(),
      tertiary: FamilySettingText.optional(),
    })
    .nullish(),
});
export type FamilySettings = z.infer<typeof FamilySettings>;
/** Third-party credentials among them: encrypted at rest, never logged. */
export const FAMILY_SECRET_SETTINGS = ['febboxKey', 'debridToken', 'tidbKey', 'traktKey'] as const;
/**
 * Settings this contract does not know yet (a newer client's) are kept when their name is this shape and
 * returned as sent; others are ignored, as every unknown field was before.
 */
export const FUTURE_SETTING_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** What the fields besides ours (p-stream's and future ones, cleared ones included) may hold per library. */
export const SETTINGS_EXTRA_MAX_FIELDS = 100;
export const SETTINGS_EXTRA_MAX_BYTES = 32 * 1024;

/** Ours first (always present, null = not set), then every field besides ours that is set (decision 094). */
export const UserSettings = z
  .object({
    id: z.string(),
    applicationTheme: z.string().nullable(),
    applicationLanguage: z.string().nullable(),
    defaultSubtitleLanguage: z.string().nullable(),
    proxyUrls: z.array(z.string()).nullable(),
    /** Per-profile preferences (ours; absent from older servers): null = not set, use the default. */
    enableAutoplay: z.boolean().nullable(),
    subtitleStyling: SubtitleStyling.nullable(),
    /** Ours: the preferred audio language of library titles (ISO 639, `fr`); null = the UI language's. */
    defaultAudioLanguage: z.string().nullable(),
    /**
     * Ours, kept with the fields besides ours (no column): absent until set, null once cleared. Per
     * profile, like autoplay.
     */
    watchedThreshold: WatchedThreshold.nullish(),
    /** Ours, kept like the threshold: the "stop watching" marks, library key → epoch ms. */
    continueHidden: ContinueHidden.nullish(),
    /** Ours, kept like the threshold: when the player asks "Are you still watching?". */
    stillWatching: StillWatching.nullish(),
    /** Ours, kept like the threshold: the player's keys the viewer changed. */
    playerShortcuts: PlayerShortcuts.nullish(),
    /** Ours, kept like the threshold: unwatched episodes' stills and overviews hidden (decision 115). */
    hideSpoilers: z.boolean().nullish(),
    /** Ours, kept like the threshold: watched movies left out of Discover (decision 116). */
    hideWatchedInDiscover: z.boolean().nullish(),
    ...FamilySettings.shape,
  })
  .catchall(z.unknown());
export type UserSettings = z.infer<typeof UserSettings>;
/**
 * Absent = unchanged, null = cleared. `updatedAt` (ours) = when the change was made; per field, last
 * writer wins. Besides ours: p-stream's fields (checked by type) and future ones (`FUTURE_SETTING_NAME`),
 * together at most `SETTINGS_EXTRA_MAX_FIELDS` fields and `SETTINGS_EXTRA_MAX_BYTES` stored (413
 * `settings_too_large`, nothing written).
 */
export const UserSettingsInput = z
  .object({
    applicationTheme: z.string().max(64).nullish(),
    applicationLanguage: z.string().max(64).nullish(),
    defaultSubtitleLanguage: z.string().max(64).nullish(),
    proxyUrls: z.array(z.string().max(2048)).max(100).nullish(),
    enableAutoplay: z.boolean().nullish(),
    subtitleStyling: SubtitleStyling.nullish(),
    /** Sent as the scrape query's `audioLanguage`, so the same rule: ISO 639-1 or -2. */
    defaultAudioLanguage: z
      .string()
      .regex(/^[a-z]{2,3}$/, 'must be an ISO 639 language code')
      .nullish(),
    /** 0.5–1 (a share of the length, 0.9 = 90 %); anything else is 400 `validation_failed`. */
    watchedThreshold: WatchedThreshold.nullish(),
    /** Library key (1–40 characters) → epoch ms (an integer ≥ 0), at most 500 of them; else 400. */
    continueHidden: ContinueHidden.nullish(),
    /** Episodes 0–20 and minutes 0–720 (0: that limit off); else 400. */
    stillWatching: StillWatching.nullish(),
    /** Action (a name) → 0–3 keys, at most 40 actions; else 400. */
    playerShortcuts: PlayerShortcuts.nullish(),
    /** A boolean; else 400. */
    hideSpoilers: z.boolean().nullish(),
    /** A boolean; else 400. */
    hideWatchedInDiscover: z.boolean().nullish(),
    ...FamilySettings.shape,
    updatedAt: ChangeTime.optional(),
  })
  .catchall(z.unknown());
export type UserSettingsInput = z.infer<typeof UserSettingsInput>;

// ---- live changes (decision 079) ----

export const LibraryChangeKind = z.enum(libraryChangeKinds);
export type LibraryChangeKind = z.infer<typeof LibraryChangeKind>;
export const libraryEvents = {
  /** Connected: `heartbeatMs` is how often a comment line arrives (a client may treat silence past it as a dead stream). */
  ready: z.object({ heartbeatMs: z.number().int().positive() }),
  changed: z.object({ kind: LibraryChangeKind }),
  resync: z.object({}),
};
export type LibraryEventData = { [K in keyof typeof libraryEvents]: z.infer<(typeof libraryEvents)[K]> };

/** Every library route: an `X-Profile-Id` that is not one of the caller's profiles (decision 040). */
const libraryErrors = {
  403: ['profile_locked'],
  404: ['profile_not_found'],
} as const satisfies EndpointErrors;

export const syncEndpoints = {
  bookmarks: defineEndpoint({
    ...syncRoutes.bookmarks,
    summary:
      'Your bookmarks (with limit/cursor/updatedSince: one page of changes; If-None-Match: 304 when unchanged)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { 400: ['bad_request'], ...libraryErrors },
    params: UserIdParams,
    query: LibraryReadQuery,
    response: z.union([z.array(Bookmark), BookmarksPage]),
  }),
  addBookmark: defineEndpoint({
    ...syncRoutes.addBookmark,
    summary: 'Add or update a bookmark (idempotent; an older change never overwrites a newer one)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'] },
    params: BookmarkParams,
    body: BookmarkInput,
    response: Bookmark,
  }),
  importBookmarks: defineEndpoint({
    ...syncRoutes.importBookmarks,
    summary: 'Merge bookmarks into the account (never removes any)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'], 429: ['rate_limited'] },
    params: UserIdParams,
    body: BookmarkImportBody,
    response: z.array(Bookmark),
  }),
  deleteBookmark: defineEndpoint({
    ...syncRoutes.deleteBookmark,
    summary: 'Remove a bookmark (idempotent)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: BookmarkParams,
    query: BookmarkDeleteQuery,
    response: z.object({ tmdbId: z.string() }),
  }),
  groupOrder: defineEndpoint({
    ...syncRoutes.groupOrder,
    summary: 'Your order of bookmark groups (p-stream; [] until set)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: UserIdParams,
    response: GroupOrder,
  }),
  putGroupOrder: defineEndpoint({
    ...syncRoutes.putGroupOrder,
    summary: 'Replace the order of bookmark groups (the body is a bare array of group names)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: UserIdParams,
    body: GroupOrderBody,
    response: GroupOrder,
  }),
  progress: defineEndpoint({
    ...syncRoutes.progress,
    summary:
      'Your watch progress, one row per movie or episode (with limit/cursor/updatedSince: one page of changes; If-None-Match: 304 when unchanged)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { 400: ['bad_request'], ...libraryErrors },
    params: UserIdParams,
    query: LibraryReadQuery,
    response: z.union([z.array(ProgressListItem), ProgressPage]),
  }),
  importProgress: defineEndpoint({
    ...syncRoutes.importProgress,
    summary: 'Merge progress into the account: per row, the later change wins',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'], 429: ['rate_limited'] },
    params: UserIdParams,
    body: ProgressImportBody,
    response: z.array(ProgressListItem),
  }),
  putProgress: defineEndpoint({
    ...syncRoutes.putProgress,
    summary: 'Save progress of a movie or an episode (last writer wins by updatedAt)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'] },
    params: ProgressParams,
    body: ProgressInput,
    response: ProgressItem,
  }),
  deleteProgress: defineEndpoint({
    ...syncRoutes.deleteProgress,
    summary: 'Remove progress of a title, a season or an episode',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: ProgressParams,
    body: ProgressDeleteBody,
    response: ProgressDeleteResponse,
  }),
  cleanupProgress: defineEndpoint({
    ...syncRoutes.cleanupProgress,
    summary:
      'Remove the progress that is barely started (under 20 s) or as good as finished (within 2 minutes of the end)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: UserIdParams,
    response: z.object({ deletedCount: z.number(), message: z.string() }),
  }),
  settings: defineEndpoint({
    ...syncRoutes.settings,
    summary: 'Your synced settings',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: UserIdParams,
    response: UserSettings,
  }),
  putSettings: defineEndpoint({
    ...syncRoutes.putSettings,
    summary: 'Change synced settings (absent = unchanged, null = cleared)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 413: ['settings_too_large'] },
    params: UserIdParams,
    body: UserSettingsInput,
    response: UserSettings,
  }),
  events: defineStream({
    ...syncRoutes.events,
    summary:
      'Server-sent events: `changed` when another device changes this library (bookmarks, progress or settings); `ready` on connecting, `resync` when changes may have been missed — then read what changed since your last read',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 429: ['rate_limited'] },
    params: UserIdParams,
    events: libraryEvents,
  }),
} as const;
