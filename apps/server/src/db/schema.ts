/**
 * The one database schema, portable across SQLite and PostgreSQL: text ids, integer 0/1 booleans,
 * times as epoch milliseconds (bigint, parsed to number).
 */
export interface MetadataCacheTable {
  key: string;
  value: string;
  expires_at: number;
}

// ---- accounts and sync (migration 002) ----

export interface UsersTable {
  id: string;
  namespace: string;
  /** Canonical base64url Ed25519 key of a passphrase account. */
  public_key: string | null;
  /** Email accounts (later issue). */
  email: string | null;
  password_hash: string | null;
  /** JSON string[] */
  roles: string;
  /** JSON {colorA, colorB, icon} */
  profile: string;
  created_at: number;
  last_logged_in: number | null;
  /** Email accounts: the name of the account's own profile (migration 004). */
  fullname: string | null;
  /**
   * p-stream's display name, NULL until set (migration 2026-11-30-002, decision 094). Optional here so
   * rows built before it existed still type-check; the database fills NULL.
   */
  nickname?: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  /** sha256 hex of the bearer token; the token itself is never stored. */
  token_hash: string;
  created_at: number;
  accessed_at: number;
  expires_at: number;
  device: string;
  user_agent: string;
  /** The kids' profile this device entered (decision 106); NULL or absent: none. */
  kids_profile?: string | null;
}

export interface AuthChallengesTable {
  code: string;
  /** `register-open`: a registration started without a captcha where clients cannot solve ours (decision 015; at most 16 characters). */
  flow: 'registration' | 'register-open' | 'login' | 'passkey-add' | 'passkey-login';
  /** Login challenges are bound to the key that asked for them; a passkey's to the account adding it. */
  public_key: string | null;
  created_at: number;
  expires_at: number;
}

/** A passkey of an account (decision 109). */
export interface PasskeysTable {
  /** The credential id, base64url. */
  id: string;
  user_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  counter: number;
  /** JSON array of the authenticator's transports. */
  transports: string;
  /** Plain for an email account, sealed with the account key for a passphrase account. */
  name: string;
  /** A passphrase account's seed wrapped by the passkey (JSON {iv, ciphertext}); NULL for email accounts. */
  wrapped_seed: string | null;
  created_at: number;
  last_used_at: number | null;
}

export interface BookmarksTable {
  user_id: string;
  profile_id: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
  /** JSON {title, year, poster?, type} */
  meta: string;
  /** 1 = tombstone of a removal at updated_at */
  deleted: number;
  updated_at: number;
  /** Change number within the library's bookmarks (migration 2026-11-24-001, decision 072). */
  seq: number;
  /** JSON string[]: p-stream's groups the bookmark is in (migration 2026-11-30-003). */
  group_names: string;
  /** JSON string[]: episode ids marked favourite (migration 2026-11-30-003). */
  favorite_episodes: string;
}

/** p-stream's order of bookmark groups, one per library (migration 2026-11-30-003). */
export interface GroupOrdersTable {
  user_id: string;
  profile_id: string;
  /** JSON string[] */
  group_order: string;
  updated_at: number;
}

export interface ProgressItemsTable {
  id: string;
  user_id: string;
  profile_id: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
  season_id: string;
  episode_id: string;
  season_number: number | null;
  episode_number: number | null;
  meta: string;
  duration: number;
  watched: number;
  updated_at: number;
  /** Change number within the library's progress, shared with its removals (decision 072). */
  seq: number;
}

export interface ProgressDeletionsTable {
  user_id: string;
  profile_id: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
  season_id: string;
  episode_id: string;
  deleted_at: number;
  seq: number;
}

/** Per library and kind: its latest change number, and the highest one of the removals purged (decision 072). */
export interface LibraryVersionsTable {
  user_id: string;
  profile_id: string;
  kind: 'progress' | 'bookmarks' | 'history' | 'ratings';
  version: number;
  purged_seq: number;
}

/** One play of a movie or an episode (migration 2026-11-30-001, decision 095). */
export interface WatchHistoryTable {
  user_id: string;
  profile_id: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
  /** '' for movies */
  season_id: string;
  episode_id: string;
  /** When it was watched (epoch ms): part of the key, so another time is another play. */
  watched_at: number;
  season_number: number | null;
  episode_number: number | null;
  /** JSON {title, year, poster?, type} */
  meta: string;
  /** Seconds */
  duration: number;
  watched: number;
  /** 0/1 */
  completed: number;
  /** 1 = removed at updated_at (a tombstone) */
  deleted: number;
  updated_at: number;
  seq: number;
}

/** A rating of a movie or show, 1–10 (migration 2026-11-30-005, decision 103). */
export interface RatingsTable {
  user_id: string;
  profile_id: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
  /** JSON {title, year, poster?, type}; a tombstone keeps the last one it had */
  meta: string;
  /** 1–10 (RATING_MIN–RATING_MAX); a tombstone keeps the last one it had (0 when it never had one) */
  rating: number;
  /** When the viewer rated it (epoch ms) */
  rated_at: number;
  /** 1 = removed at updated_at (a tombstone) */
  deleted: number;
  updated_at: number;
  seq: number;
}

export interface UserSettingsTable {
  user_id: string;
  profile_id: string;
  application_theme: string | null;
  application_language: string | null;
  default_subtitle_language: string | null;
  /** JSON string[] or NULL */
  proxy_urls: string | null;
  /** JSON {field: epoch ms} */
  changed_at: string;
  /** 0/1, NULL = not set (migration 004) */
  enable_autoplay: number | null;
  /** JSON {color, backgroundOpacity, backgroundBlur, size, bold} or NULL (migration 004) */
  subtitle_styling: string | null;
  /** ISO 639 code, NULL = the UI language's (migration 2026-11-29-002) */
  default_audio_language: string | null;
  /**
   * JSON {wireName: value} of the fields besides ours (p-stream's and future ones; null = cleared),
   * third-party secrets as AES-GCM envelopes; NULL = none (migration 2026-11-30-002, decision 094).
   */
  extra: string | null;
}

export interface CaptchaSolutionsTable {
  id: string;
  expires_at: number;
}

export interface InstanceSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

// ---- subscription site (migration 004) ----

export interface ProfilesTable {
  id: string;
  user_id: string;
  fullname: string;
  icon: string;
  position: number;
  created_at: number;
  /** A kids' profile's limit as JSON (`ContentLimit`, decision 106); NULL or absent for others. */
  content_limit?: string | null;
}

/** A profile's PIN (decision 104); profile_id '' is the account's own profile. */
export interface ProfilePinsTable {
  user_id: string;
  profile_id: string;
  pin_hash: string;
  changed_at: number;
}

/** A new device waiting to be let in with a code (decision 105). */
export interface DeviceLinksTable {
  id: string;
  /** sha256 hex of the 6-digit code; of the poll token. */
  code_hash: string;
  poll_hash: string;
  device: string;
  user_agent: string;
  created_at: number;
  expires_at: number;
  /** The account that approved it; null while pending. */
  approved_by: string | null;
  /** The new device's X25519 key (decision 107); null or absent when it offered none. */
  public_key?: string | null;
  /** A passphrase account's seed sealed to that key (JSON `SealedSeed`), once approved. */
  sealed?: string | null;
}

export interface MembershipsTable {
  user_id: string;
  ends_at: number;
  updated_at: number;
}

export interface PaymentsTable {
  id: string;
  user_id: string;
  plan_id: number;
  duration_months: number;
  /** Fiat amount due, decimal text ("27.00"). */
  amount: string;
  currency: string;
  discount_rate: number;
  promo_code: string | null;
  crypto: string;
  crypto_display_name: string;
  crypto_amount: string | null;
  wallet: string | null;
  gateway: 'simulated' | 'shkeeper';
  gateway_invoice_id: string | null;
  status: 'pending' | 'paid' | 'superseded' | 'failed';
  /** Last balance the gateway reported (partial payments). */
  balance_fiat: string | null;
  created_at: number;
  paid_at: number | null;
  /** The plan's price before the promo discount (migration 2026-11-23-004; NULL on older rows). */
  list_amount: string | null;
  /** What the last reported balance was checked against: `amount`, or `list_amount` when the discount did not hold. */
  due_fiat: string | null;
  /** How the last reported balance compared with `due_fiat`, within the tolerance; NULL = nothing received. */
  settlement: PaymentSettlement | null;
  settlement_at: number | null;
}

export type PaymentSettlement = 'exact' | 'underpaid' | 'overpaid';

export interface PromoCodesTable {
  code: string;
  rate: number;
  is_used: number;
  reserved_by: string | null;
  reserved_until: number | null;
  used_by_payment: string | null;
  used_at: number | null;
  created_by: string | null;
  created_at: number;
}

export interface Database {
  metadata_cache: MetadataCacheTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_challenges: AuthChallengesTable;
  passkeys: PasskeysTable;
  bookmarks: BookmarksTable;
  group_orders: GroupOrdersTable;
  progress_items: ProgressItemsTable;
  progress_deletions: ProgressDeletionsTable;
  watch_history: WatchHistoryTable;
  ratings: RatingsTable;
  library_versions: LibraryVersionsTable;
  user_settings: UserSettingsTable;
  captcha_solutions: CaptchaSolutionsTable;
  instance_secrets: InstanceSecretsTable;
  job_runs: JobRunsTable;
  profiles: ProfilesTable;
  profile_pins: ProfilePinsTable;
  device_links: DeviceLinksTable;
  memberships: MembershipsTable;
  payments: PaymentsTable;
  promo_codes: PromoCodesTable;
  media_probes: MediaProbesTable;
  media_segment_marks: MediaSegmentMarksTable;
  media_segment_detections: MediaSegmentDetectionsTable;
  media_segment_analyses: MediaSegmentAnalysesTable;
  trakt_links: TraktLinksTable;
  trakt_plays: TraktPlaysTable;
  trakt_watchlist: TraktWatchlistTable;
  trakt_ratings: TraktRatingsTable;
}

export type TraktLinkState = 'unlinked' | 'pending' | 'linked' | 'relink';

/** A library's link to a Trakt account (migration 2026-11-30-004, decision 101); tokens sealed. */
export interface TraktLinksTable {
  user_id: string;
  profile_id: string;
  state: TraktLinkState;
  /** While pending: the device code (sealed), what the viewer enters, and when to ask Trakt again. */
  device_code: string | null;
  user_code: string | null;
  verification_url: string | null;
  device_expires_at: number | null;
  poll_interval_ms: number | null;
  next_poll_at: number | null;
  /** Sealed (settings-secrets key) */
  access_token: string | null;
  refresh_token: string | null;
  token_expires_at: number | null;
  username: string | null;
  linked_at: number | null;
  last_sync_at: number | null;
  next_sync_at: number | null;
  /** A pass holds the link until then (one pass per link across processes). */
  lease_until: number;
  /** Trakt's last_activities (JSON) at the last good pull. */
  activities: string | null;
  /** The library versions the last good pass saw (-1: never). */
  history_version: number;
  bookmarks_version: number;
  ratings_version: number;
  problem: string | null;
  updated_at: number;
}

/** A play on one side and what it is on the other (decision 101). */
export interface TraktPlaysTable {
  id: string;
  user_id: string;
  profile_id: string;
  /** `m:<tmdb>` or `e:<show tmdb>:<season>:<episode>` */
  item: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
  season_id: string;
  episode_id: string;
  /** The Marquee play's watched_at; null while Trakt's play has none here (a scrobble). */
  marquee_at: number | null;
  trakt_id: string | null;
  trakt_at: number | null;
  origin: 'pushed' | 'scrobbled' | 'matched' | 'pulled' | 'unknown';
  created_at: number;
}

/** A title both My List and the Trakt watchlist held at the last pass (decision 101). */
export interface TraktWatchlistTable {
  user_id: string;
  profile_id: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
}

/** The ratings both sides held at a library's last Trakt pass (migration 2026-11-30-006, decision 103). */
export interface TraktRatingsTable {
  user_id: string;
  profile_id: string;
  tmdb_id: string;
  media_type: 'movie' | 'show';
  rating: number;
}

/** When each background job may run next, across every process (decision 079). */
export interface JobRunsTable {
  name: string;
  next_run_at: number;
  /** The process that last ran it (host and pid), for the logs. */
  holder: string;
}

/** What ffprobe said about a library file, valid while its size, mtime and inode are unchanged (decision 085). */
export interface MediaProbesTable {
  /** The file's real path (links resolved). */
  path: string;
  size: number;
  /** Modification time in epoch milliseconds (fractions dropped). */
  mtime_ms: number;
  ino: number;
  probed_at: number;
  /** MediaInfo (modules/media/media-info.ts) as JSON; null when the file is not media. */
  info: string | null;
  /** Why the file is not media (ffprobe's message); null when it is. */
  error: string | null;
}

/** A viewer's mark of a segment of a library video (migration 2026-12-01-004, decision 111). */
export interface MediaSegmentMarksTable {
  file_id: string;
  /** `intro`, `recap`, `credits`, `preview` (the contract's SEGMENT_TYPES). */
  type: string;
  user_id: string;
  /** `<size>-<mtime ms>` of the file when it was marked: a replaced file's marks are not answered. */
  file_version: string;
  start_ms: number;
  end_ms: number;
  updated_at: number;
}

/** What detection found in one version of a library video (decision 111); null bounds: nothing found. */
export interface MediaSegmentDetectionsTable {
  file_id: string;
  file_version: string;
  /** The files it was compared with (a season's episodes and their versions), hashed. */
  group_key: string;
  state: 'done' | 'failed';
  intro_start_ms: number | null;
  intro_end_ms: number | null;
  credits_start_ms: number | null;
  credits_end_ms: number | null;
  /** How the credits were found, or why the file could not be analysed. */
  detail: string | null;
  detected_at: number;
}

/** What detection read from one version of a library video, kept for the next comparison (decision 111). */
export interface MediaSegmentAnalysesTable {
  file_id: string;
  /** `intro-print`, `credits-print` (base64 of raw Chromaprint points), `black` (JSON of a run or null). */
  kind: string;
  file_version: string;
  /** Where in the file the analysed audio or picture starts. */
  offset_ms: number;
  data: string;
  made_at: number;
}

/**
 * Every table holding rows of a library (keyed by user and profile): cleared with the account, and with
 * a household profile for its own rows. A new library table is added here.
 */
export const LIBRARY_TABLES = [
  'bookmarks',
  'group_orders',
  'progress_items',
  'progress_deletions',
  'watch_history',
  'ratings',
  'user_settings',
  'trakt_links',
  'trakt_plays',
  'trakt_watchlist',
  'trakt_ratings',
  'profile_pins',
] as const satisfies readonly (keyof Database)[];
