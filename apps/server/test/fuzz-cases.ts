import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import {
  login,
  movieMeta,
  register,
  showMeta,
  startSyncApp,
  type SignedIn,
  type SyncTestApp,
} from './sync-harness.ts';

/*
 * Generated bad input for every route: malformed JSON, wrong content types, oversized bodies, wrongly
 * typed / missing / oversized fields, random JSON of the wrong shape, bad path and query values.
 * Every answer must be a 4xx carrying an error code the contract declares for that route and status
 * (never a 5xx), and nothing may be written.
 */

function prng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = prng(20261121);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const randomString = (max = 12) =>
  Array.from({ length: Math.floor(rand() * max) }, () =>
    String.fromCharCode(32 + Math.floor(rand() * 95)),
  ).join('');

function randomJson(depth = 0): unknown {
  const kind = Math.floor(rand() * (depth > 2 ? 5 : 7));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return pick([0, -1, 1.5, 1e308, -1e308, 2 ** 53, Math.floor(rand() * 1e6)]);
    case 3:
      return randomString();
    case 4:
      return pick(['', ' ', '\u0000', '💥'.repeat(3), 'null', '{}', '<script>']);
    case 5:
      return Array.from({ length: Math.floor(rand() * 4) }, () => randomJson(depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(rand() * 4) }, () => [randomString(6), randomJson(depth + 1)]),
      );
  }
}
const randomNonObject = () => {
  for (;;) {
    const v = randomJson();
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
  }
};

type FieldKind = 'string' | 'number' | 'boolean' | 'object' | 'array' | 'iso' | 'integerish' | 'rate' | 'pin';
interface Field {
  path: (string | number)[];
  kind: FieldKind;
  required?: boolean;
  nullable?: boolean;
  maxLength?: number;
  min?: number;
  max?: number;
}

const wrongValues: Record<FieldKind, unknown[]> = {
  string: [1, true, {}, [], ['a'], 0.5],
  iso: [1, true, {}, 'yesterday', '2024-13-45T00:00:00Z', '1700000000000', ''],
  number: ['1', true, {}, [], 'NaN', '', [1]],
  boolean: ['true', 1, 0, {}, [], 'yes'],
  object: ['x', 1, true, [], 'null'],
  array: ['x', 1, true, {}, 'a,b'],
  /** An integer or a string of digits is valid: everything else. */
  integerish: [true, {}, [], 'x', '1.5', 1.5, '', '-1'],
  /** A promo rate: an integer 1–100, '' or null is valid. */
  rate: ['x', true, {}, [], 0.5, '20'],
  /** A profile PIN: 4–6 ASCII digits, nothing else (not other scripts' digits, no spaces). */
  pin: [1234, true, {}, [], 'abcd', '123', '1234567', '12 34', '١٢٣٤', '', ' 1234'],
};

function setAt(target: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  const copy = structuredClone(target) as Record<string | number, unknown>;
  let node = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove) delete node[last];
  else node[last] = value;
  return copy;
}

function mutations(valid: unknown, fields: Field[]): unknown[] {
  const out: unknown[] = [];
  for (const f of fields) {
    for (const v of wrongValues[f.kind]) out.push(setAt(valid, f.path, v));
    if (!f.nullable) out.push(setAt(valid, f.path, null));
    if (f.required) out.push(setAt(valid, f.path, undefined, true));
    if (f.maxLength !== undefined)
      out.push(
        setAt(valid, f.path, 'x'.repeat(f.maxLength + 1)),
        setAt(valid, f.path, '€'.repeat(f.maxLength + 5)),
      );
    if (f.min !== undefined) out.push(setAt(valid, f.path, f.min - 1), setAt(valid, f.path, -1e9));
    if (f.max !== undefined) out.push(setAt(valid, f.path, f.max + 1), setAt(valid, f.path, 1e300));
  }
  return out;
}

const metaFields = (prefix: (string | number)[]): Field[] => [
  { path: [...prefix, 'meta'], kind: 'object', required: true },
  { path: [...prefix, 'meta', 'title'], kind: 'string', required: true, maxLength: 1000 },
  { path: [...prefix, 'meta', 'year'], kind: 'number', nullable: true, min: 0, max: 10_000 },
  { path: [...prefix, 'meta', 'poster'], kind: 'string', nullable: true, maxLength: 2048 },
  { path: [...prefix, 'meta', 'type'], kind: 'string', required: true, maxLength: 32 },
];
const progressFields = (prefix: (string | number)[]): Field[] => [
  ...metaFields(prefix),
  { path: [...prefix, 'duration'], kind: 'number', required: true, min: 0, max: 100_000_000 },
  { path: [...prefix, 'watched'], kind: 'number', required: true, min: 0, max: 100_000_000 },
  { path: [...prefix, 'seasonId'], kind: 'string', nullable: true, maxLength: 64 },
  { path: [...prefix, 'episodeId'], kind: 'string', nullable: true, maxLength: 64 },
  { path: [...prefix, 'seasonNumber'], kind: 'number', nullable: true, min: 0, max: 1_000_000 },
  { path: [...prefix, 'episodeNumber'], kind: 'number', nullable: true, min: 0, max: 1_000_000 },
  { path: [...prefix, 'updatedAt'], kind: 'iso' },
];

export interface RouteSpec {
  /** The contract endpoint, `group.name` (contractEndpoints). */
  id: string;
  name: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
  url: (u: Callers) => string;
  /** Whose token: none, the passphrase account, an email account, or an admin (email) account. */
  auth: false | true | 'email' | 'admin';
  /** object: body must be an object (null allowed if nullable); array: body is an array. */
  body: 'object' | 'array' | 'none';
  nullableBody?: boolean;
  valid?: unknown;
  fields?: Field[];
  /** Random objects with random keys are invalid (the body has required fields). */
  hasRequired?: boolean;
  badUrls?: (u: Callers) => string[];
  /** Append random `?type=` queries (routes that read `type`, or whose other input is required). */
  randomQuery?: false;
}

const progressItem = {
  tmdbId: '1',
  meta: movieMeta(),
  duration: 100,
  watched: 10,
  seasonId: 's',
  episodeId: 'e',
  seasonNumber: 1,
  episodeNumber: 1,
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const historyFields = (prefix: (string | number)[]): Field[] => [
  ...progressFields(prefix),
  { path: [...prefix, 'watchedAt'], kind: 'iso', required: true },
  { path: [...prefix, 'completed'], kind: 'boolean' },
];
const historyItem = { ...progressItem, watchedAt: '2025-06-01T20:00:00Z', completed: true };
const ratingFields = (prefix: (string | number)[]): Field[] => [
  ...metaFields(prefix),
  { path: [...prefix, 'type'], kind: 'string', required: true },
  // A whole number 1–10 (decision 103).
  { path: [...prefix, 'rating'], kind: 'number', required: true, min: 1, max: 10 },
  { path: [...prefix, 'ratedAt'], kind: 'iso' },
  { path: [...prefix, 'updatedAt'], kind: 'iso' },
];
const ratingItem = {
  type: 'movie',
  meta: movieMeta(),
  rating: 7,
  ratedAt: '2025-06-01T20:00:00Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const badTmdbIds = ['x'.repeat(65), 'a%20b', '..%2F..', '%E2%9C%93', 'a;b', "1'--", '%00'];

export const ADMIN_EMAIL = 'fuzz-admin@example.org';

/** The fuzzing callers: a passphrase account (`SignedIn` itself), an email account and an admin. */
export interface Callers extends SignedIn {
  email: Customer;
  admin: Customer;
  profileId: string;
}

/** Invalid path segments and query values for every parameter this suite fuzzes: `~` fits no id pattern. */
const badSegments = (n = 200) => Array.from({ length: n }, () => encodeURIComponent(`~${randomString(10)}`));
const longSegments = (min: number, n = 200) => Array.from({ length: n }, (_, i) => 'x'.repeat(min + i));

/** Endpoints with nothing this suite can fuzz, each with why (the ids they take are other suites'). */
export const notFuzzed: Record<string, string> = {
  'accounts.meta': 'no input',
  'parties.clock': 'no input',
  'parties.preview': 'only `:partyId` (a fixed pattern, parties.test.ts)',
  'parties.get': 'only `:partyId` (a fixed pattern, parties.test.ts) and the member token header',
  'parties.leave': 'only `:partyId` (a fixed pattern, parties.test.ts) and the member token header',
  'parties.events': 'only `:partyId` (a fixed pattern, parties.test.ts) and the member token header',
  'parties.playerStatus': 'only two short strings in the query, both optional (parties.test.ts)',
  'passkeys.registerOptions': 'no input',
  'passkeys.loginOptions': 'no input',
  'passkeys.list': 'only `:uid`, checked against the caller (authorization-matrix)',
  'passkeys.remove':
    'only `:uid`, checked against the caller, and `:passkeyId`, looked up among its own passkeys (authorization-matrix, passkeys.test.ts)',
  'accounts.captchaChallenge': 'no input',
  'accounts.me': 'no input',
  'accounts.getUser': 'only `:uid`, checked against the caller (authorization-matrix)',
  'accounts.deleteUser': 'only `:uid`, checked against the caller (authorization-matrix)',
  'accounts.userSessions': 'only `:uid`, checked against the caller (authorization-matrix)',
  'accounts.deleteOtherSessions': 'only `:uid`, checked against the caller (authorization-matrix)',
  'accounts.deleteSession': 'only `:sid`: any id is a valid, idempotent sign-out (authorization-matrix)',
  'sync.settings': 'only `:uid`, checked against the caller (authorization-matrix)',
  'sync.groupOrder': 'only `:uid`, checked against the caller (authorization-matrix)',
  'sync.putGroupOrder':
    'a bare array of names, so most random arrays of strings are valid; its bounds, other shapes and bad JSON are in bookmark-groups.test.ts',
  'sync.cleanupProgress':
    'no input: it removes progress by design, whatever is sent (what it removes: progress-cleanup.test.ts)',
  'sync.events': 'only `:uid` (no query fields), checked against the caller (authorization-matrix)',
  'trakt.status': 'only `:uid`, checked against the caller (authorization-matrix)',
  'trakt.link': 'only `:uid`, checked against the caller (authorization-matrix)',
  'trakt.unlink': 'only `:uid`, checked against the caller (authorization-matrix)',
  'trakt.sync': 'only `:uid`, checked against the caller (authorization-matrix)',
  'customers.me': 'no input',
  'membership.plans': 'no input',
  'membership.cryptoList': 'no input',
  'membership.cryptoListAlias': 'no input',
  'membership.membership': 'no input',
  'membership.promos': 'no input',
  'membership.selfTest': 'no input',
  'membership.libraryStatus': 'no input',
  'jobs.status': 'no input',
  'membership.libraryScan': 'no input',
  'config.runtimeConfig': 'no input',
  'sources.providerMetadata': 'no input',
};

export const specs: RouteSpec[] = [
  {
    id: 'trakt.scrobble',
    name: 'POST /users/:uid/trakt/scrobble',
    method: 'POST',
    url: (u) => `/users/${u.user.id}/trakt/scrobble`,
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: { action: 'stop', tmdbId: '1396', type: 'show', seasonNumber: 1, episodeNumber: 2, progress: 95 },
    fields: [
      { path: ['action'], kind: 'string', required: true },
      { path: ['tmdbId'], kind: 'string', required: true, maxLength: 64 },
      { path: ['type'], kind: 'string', required: true },
      { path: ['seasonNumber'], kind: 'number', min: 0, max: 100_000 },
      { path: ['episodeNumber'], kind: 'number', min: 0, max: 100_000 },
      { path: ['progress'], kind: 'number', required: true, min: 0, max: 100 },
    ],
  },
  {
    id: 'accounts.registerStart',
    name: 'POST /auth/register/start',
    method: 'POST',
    url: () => '/auth/register/start',
    auth: false,
    body: 'object',
    nullableBody: true,
    valid: { captchaToken: 't' },
    fields: [{ path: ['captchaToken'], kind: 'string', maxLength: 8192 }],
  },
  {
    id: 'accounts.registerComplete',
    name: 'POST /auth/register/complete',
    method: 'POST',
    url: () => '/auth/register/complete',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: {
      publicKey: 'k',
      challenge: { code: 'c', signature: 's' },
      namespace: 'movie-web',
      device: 'd',
      profile: { colorA: 'a', colorB: 'b', icon: 'i' },
    },
    fields: [
      { path: ['publicKey'], kind: 'string', required: true, maxLength: 128 },
      { path: ['challenge'], kind: 'object', required: true },
      { path: ['challenge', 'code'], kind: 'string', required: true, maxLength: 64 },
      { path: ['challenge', 'signature'], kind: 'string', required: true, maxLength: 128 },
      { path: ['namespace'], kind: 'string', required: true, maxLength: 255 },
      { path: ['device'], kind: 'string', required: true, maxLength: 500 },
      { path: ['profile'], kind: 'object', required: true },
      { path: ['profile', 'colorA'], kind: 'string', required: true, maxLength: 64 },
      { path: ['profile', 'icon'], kind: 'string', required: true, maxLength: 64 },
    ],
  },
  {
    id: 'accounts.loginStart',
    name: 'POST /auth/login/start',
    method: 'POST',
    url: () => '/auth/login/start',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { publicKey: 'k' },
    fields: [{ path: ['publicKey'], kind: 'string', required: true, maxLength: 128 }],
  },
  {
    id: 'accounts.loginComplete',
    name: 'POST /auth/login/complete',
    method: 'POST',
    url: () => '/auth/login/complete',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { publicKey: 'k', challenge: { code: 'c', signature: 's' }, device: 'd' },
    fields: [
      { path: ['publicKey'], kind: 'string', required: true, maxLength: 128 },
      { path: ['challenge', 'code'], kind: 'string', required: true, maxLength: 64 },
      { path: ['device'], kind: 'string', required: true, maxLength: 500 },
    ],
  },
  {
    id: 'accounts.patchUser',
    name: 'PATCH /users/:uid',
    method: 'PATCH',
    url: (u) => `/users/${u.user.id}`,
    auth: true,
    body: 'object',
    valid: { profile: { colorA: 'a', colorB: 'b', icon: 'c' }, name: 'n' },
    fields: [
      { path: ['profile'], kind: 'object' },
      { path: ['profile', 'colorA'], kind: 'string', required: true, maxLength: 64 },
      { path: ['profile', 'colorB'], kind: 'string', required: true, maxLength: 64 },
      { path: ['profile', 'icon'], kind: 'string', required: true, maxLength: 64 },
      { path: ['name'], kind: 'string', maxLength: 500 },
    ],
  },
  {
    id: 'accounts.patchSession',
    name: 'PATCH /sessions/:sid',
    method: 'PATCH',
    url: (u) => `/sessions/${u.session.id}`,
    auth: true,
    body: 'object',
    valid: { deviceName: 'x' },
    fields: [{ path: ['deviceName'], kind: 'string', maxLength: 500 }],
  },
  {
    id: 'sync.addBookmark',
    name: 'POST /users/:uid/bookmarks/:tmdbId',
    method: 'POST',
    url: (u) => `/users/${u.user.id}/bookmarks/603`,
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: {
      tmdbId: '603',
      meta: movieMeta(),
      group: ['Favourites'],
      favoriteEpisodes: ['62085'],
      updatedAt: '2026-01-01T00:00:00Z',
    },
    fields: [
      ...metaFields([]),
      { path: ['tmdbId'], kind: 'string', maxLength: 64 },
      // `group` itself may be a string or an array: only its names are fuzzed.
      { path: ['group', 0], kind: 'string', required: true, maxLength: 100 },
      { path: ['favoriteEpisodes'], kind: 'array' },
      { path: ['favoriteEpisodes', 0], kind: 'string', required: true, maxLength: 64 },
      { path: ['updatedAt'], kind: 'iso' },
    ],
    badUrls: (u) => badTmdbIds.map((id) => `/users/${u.user.id}/bookmarks/${id}`),
  },
  {
    id: 'sync.importBookmarks',
    name: 'PUT /users/:uid/bookmarks',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/bookmarks`,
    auth: true,
    body: 'array',
    valid: [{ tmdbId: '603', meta: movieMeta() }],
    fields: [
      ...metaFields([0]),
      { path: [0, 'tmdbId'], kind: 'string', required: true, maxLength: 64 },
      { path: [0, 'updatedAt'], kind: 'iso' },
    ],
  },
  {
    id: 'sync.deleteBookmark',
    name: 'DELETE /users/:uid/bookmarks/:tmdbId',
    method: 'DELETE',
    url: (u) => `/users/${u.user.id}/bookmarks/603`,
    auth: true,
    body: 'none',
    badUrls: (u) => [
      ...badTmdbIds.map((id) => `/users/${u.user.id}/bookmarks/${id}`),
      ...[
        'type=tv',
        'type=',
        'updatedAt=yesterday',
        'updatedAt=',
        'type=movie&type=show',
        'updatedAt=2024-02-30T00:00:00Z',
      ].map((q) => `/users/${u.user.id}/bookmarks/603?${q}`),
    ],
  },
  {
    id: 'sync.putProgress',
    name: 'PUT /users/:uid/progress/:tmdbId',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/progress/1396`,
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: progressItem,
    fields: progressFields([]),
    badUrls: (u) => badTmdbIds.map((id) => `/users/${u.user.id}/progress/${id}`),
  },
  {
    id: 'sync.importProgress',
    name: 'PUT /users/:uid/progress/import',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/progress/import`,
    auth: true,
    body: 'array',
    valid: [progressItem],
    fields: [...progressFields([0]), { path: [0, 'tmdbId'], kind: 'string', required: true, maxLength: 64 }],
  },
  {
    id: 'sync.deleteProgress',
    name: 'DELETE /users/:uid/progress/:tmdbId',
    method: 'DELETE',
    url: (u) => `/users/${u.user.id}/progress/1396`,
    auth: true,
    body: 'object',
    nullableBody: true,
    valid: { seasonId: 's', episodeId: 'e', type: 'show', updatedAt: '2026-01-01T00:00:00Z' },
    fields: [
      { path: ['seasonId'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['episodeId'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['type'], kind: 'string' },
      { path: ['updatedAt'], kind: 'iso' },
    ],
    badUrls: (u) => badTmdbIds.map((id) => `/users/${u.user.id}/progress/${id}`),
  },
  {
    id: 'history.watchHistory',
    name: 'GET /users/:uid/watch-history',
    method: 'GET',
    url: (u) => `/users/${u.user.id}/watch-history?limit=0`,
    auth: true,
    body: 'none',
    randomQuery: false,
    badUrls: (u) => [
      ...['limit=0', 'limit=x', 'limit=2001', 'cursor=~', 'updatedSince=yesterday'].map(
        (q) => `/users/${u.user.id}/watch-history?${q}`,
      ),
      ...badSegments().map((v) => `/users/${u.user.id}/watch-history?limit=${v}`),
    ],
  },
  {
    id: 'history.putWatchHistory',
    name: 'PUT /users/:uid/watch-history/:tmdbId',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/watch-history/1396`,
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: historyItem,
    fields: historyFields([]),
    badUrls: (u) => badTmdbIds.map((id) => `/users/${u.user.id}/watch-history/${id}`),
  },
  {
    id: 'history.importWatchHistory',
    name: 'PUT /users/:uid/watch-history/import',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/watch-history/import`,
    auth: true,
    body: 'array',
    valid: [historyItem],
    fields: [...historyFields([0]), { path: [0, 'tmdbId'], kind: 'string', required: true, maxLength: 64 }],
  },
  {
    id: 'history.deleteWatchHistory',
    name: 'DELETE /users/:uid/watch-history/:tmdbId',
    method: 'DELETE',
    url: (u) => `/users/${u.user.id}/watch-history/1396`,
    auth: true,
    body: 'object',
    nullableBody: true,
    valid: { seasonId: 's', episodeId: 'e', type: 'show', watchedAt: '2026-01-01T00:00:00Z' },
    fields: [
      { path: ['seasonId'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['episodeId'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['type'], kind: 'string' },
      { path: ['watchedAt'], kind: 'iso' },
      { path: ['updatedAt'], kind: 'iso' },
    ],
    badUrls: (u) => badTmdbIds.map((id) => `/users/${u.user.id}/watch-history/${id}`),
  },
  {
    id: 'ratings.ratings',
    name: 'GET /users/:uid/ratings',
    method: 'GET',
    url: (u) => `/users/${u.user.id}/ratings?limit=0`,
    auth: true,
    body: 'none',
    randomQuery: false,
    badUrls: (u) => [
      ...['limit=0', 'limit=x', 'limit=2001', 'cursor=~', 'updatedSince=yesterday'].map(
        (q) => `/users/${u.user.id}/ratings?${q}`,
      ),
      ...badSegments().map((v) => `/users/${u.user.id}/ratings?limit=${v}`),
    ],
  },
  {
    id: 'ratings.postRating',
    name: 'POST /users/:uid/ratings',
    method: 'POST',
    url: (u) => `/users/${u.user.id}/ratings`,
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: { tmdb_id: 603, type: 'movie', rating: 8 },
    fields: [
      { path: ['tmdb_id'], kind: 'number', required: true, min: 1 },
      { path: ['type'], kind: 'string', required: true },
      { path: ['rating'], kind: 'number', required: true, min: 0, max: 10 },
    ],
  },
  {
    id: 'ratings.putRating',
    name: 'PUT /users/:uid/ratings/:tmdbId',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/ratings/603`,
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: ratingItem,
    fields: ratingFields([]),
    badUrls: (u) => badTmdbIds.map((id) => `/users/${u.user.id}/ratings/${id}`),
  },
  {
    id: 'ratings.importRatings',
    name: 'PUT /users/:uid/ratings/import',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/ratings/import`,
    auth: true,
    body: 'array',
    valid: [{ ...ratingItem, tmdbId: '603' }],
    fields: [...ratingFields([0]), { path: [0, 'tmdbId'], kind: 'string', required: true, maxLength: 64 }],
  },
  {
    id: 'ratings.deleteRating',
    name: 'DELETE /users/:uid/ratings/:tmdbId',
    method: 'DELETE',
    url: (u) => `/users/${u.user.id}/ratings/603`,
    auth: true,
    body: 'object',
    nullableBody: true,
    valid: { type: 'movie', updatedAt: '2026-01-01T00:00:00Z' },
    fields: [
      { path: ['type'], kind: 'string' },
      { path: ['updatedAt'], kind: 'iso' },
    ],
    badUrls: (u) => badTmdbIds.map((id) => `/users/${u.user.id}/ratings/${id}`),
  },
  {
    id: 'sync.putSettings',
    name: 'PUT /users/:uid/settings',
    method: 'PUT',
    url: (u) => `/users/${u.user.id}/settings`,
    auth: true,
    body: 'object',
    valid: {
      applicationTheme: 't',
      applicationLanguage: 'nl',
      defaultSubtitleLanguage: 'en',
      defaultAudioLanguage: 'fr',
      proxyUrls: ['https://p'],
      watchedThreshold: 0.9,
      updatedAt: '2026-01-01T00:00:00Z',
    },
    fields: [
      { path: ['applicationTheme'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['applicationLanguage'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['defaultSubtitleLanguage'], kind: 'string', nullable: true, maxLength: 64 },
      // An ISO 639 code: two or three lower-case letters.
      { path: ['defaultAudioLanguage'], kind: 'string', nullable: true, maxLength: 3 },
      { path: ['proxyUrls'], kind: 'array', nullable: true },
      { path: ['proxyUrls', 0], kind: 'string', required: true, maxLength: 2048 },
      // A share of the length: 0.5–1.
      { path: ['watchedThreshold'], kind: 'number', nullable: true, min: 0.5, max: 1 },
      { path: ['updatedAt'], kind: 'iso' },
    ],
  },
  {
    id: 'accounts.providerMetrics',
    name: 'POST /metrics/providers',
    method: 'POST',
    url: () => '/metrics/providers',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: {
      items: [{ tmdbId: '1', type: 'movie', title: 't', status: 'success', providerId: 'p' }],
      tool: 'extension',
    },
    fields: [
      { path: ['items'], kind: 'array', required: true },
      { path: ['items', 0, 'tmdbId'], kind: 'string', required: true, maxLength: 255 },
      { path: ['items', 0, 'status'], kind: 'string', required: true },
      { path: ['items', 0, 'providerId'], kind: 'string', required: true, maxLength: 255 },
      { path: ['items', 0, 'title'], kind: 'string', required: true, maxLength: 1000 },
      { path: ['tool'], kind: 'string', maxLength: 255 },
    ],
  },
  {
    id: 'accounts.captchaMetrics',
    name: 'POST /metrics/captcha',
    method: 'POST',
    url: () => '/metrics/captcha',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { success: true },
    fields: [{ path: ['success'], kind: 'boolean', required: true }],
  },
  {
    id: 'sync.bookmarks',
    name: 'GET /users/:uid/bookmarks',
    method: 'GET',
    url: (u) => `/users/${u.user.id}/bookmarks?limit=0`,
    auth: true,
    body: 'none',
    randomQuery: false,
    badUrls: (u) => [
      ...['limit=0', 'limit=x', 'limit=2001', 'limit=-1', 'updatedSince=yesterday'].map(
        (q) => `/users/${u.user.id}/bookmarks?${q}`,
      ),
      ...badSegments().map((v) => `/users/${u.user.id}/bookmarks?limit=${v}`),
    ],
  },
  {
    id: 'sync.progress',
    name: 'GET /users/:uid/progress',
    method: 'GET',
    url: (u) => `/users/${u.user.id}/progress?limit=0`,
    auth: true,
    body: 'none',
    randomQuery: false,
    badUrls: (u) => [
      ...['limit=0', 'limit=x', 'limit=2001', 'updatedSince=2024-13-01'].map(
        (q) => `/users/${u.user.id}/progress?${q}`,
      ),
      ...badSegments().map((v) => `/users/${u.user.id}/progress?limit=${v}`),
    ],
  },
  {
    id: 'customers.register',
    name: 'POST /customers',
    method: 'POST',
    url: () => '/customers',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { fullname: 'Fuzz', email: 'fuzz@example.org', password: 'long enough password' },
    fields: [
      { path: ['fullname'], kind: 'string', required: true, maxLength: 100 },
      { path: ['email'], kind: 'string', required: true, maxLength: 254 },
      { path: ['password'], kind: 'string', required: true, maxLength: 1024 },
      { path: ['captchaToken'], kind: 'string', maxLength: 8192 },
    ],
  },
  {
    id: 'customers.login',
    name: 'POST /customers/auth',
    method: 'POST',
    url: () => '/customers/auth',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { email: 'fuzz@example.org', password: 'long enough password', device: 'd' },
    fields: [
      { path: ['email'], kind: 'string', required: true, maxLength: 320 },
      { path: ['password'], kind: 'string', required: true, maxLength: 1024 },
      { path: ['device'], kind: 'string', maxLength: 500 },
    ],
  },
  {
    id: 'customers.update',
    name: 'POST /customers/:uid/update',
    method: 'POST',
    url: (u) => `/customers/${u.email.user.id}/update`,
    auth: 'email',
    body: 'object',
    valid: { fullname: 'F', icon: 'cat', profiles: [{ fullname: 'Kid', icon: 'couch' }] },
    fields: [
      { path: ['fullname'], kind: 'string', maxLength: 100 },
      { path: ['icon'], kind: 'string' },
      { path: ['profiles'], kind: 'array' },
      { path: ['profiles', 0, 'fullname'], kind: 'string', required: true, maxLength: 100 },
      { path: ['profiles', 0, 'icon'], kind: 'string', required: true },
    ],
  },
  {
    id: 'customers.password',
    name: 'POST /customers/:uid/password',
    method: 'POST',
    url: (u) => `/customers/${u.email.user.id}/password`,
    auth: 'email',
    body: 'object',
    hasRequired: true,
    valid: { password: 'another long password', confirm: 'another long password' },
    fields: [
      { path: ['password'], kind: 'string', required: true, maxLength: 1024 },
      { path: ['confirm'], kind: 'string', required: true, maxLength: 1024 },
    ],
  },
  {
    id: 'customers.createProfile',
    name: 'POST /customers/:uid/profiles',
    method: 'POST',
    url: (u) => `/customers/${u.email.user.id}/profiles`,
    auth: 'email',
    body: 'object',
    hasRequired: true,
    valid: { fullname: 'Kid', icon: 'cat', kids: { region: 'US', maxAge: 10, showUnrated: false } },
    fields: [
      { path: ['fullname'], kind: 'string', required: true, maxLength: 100 },
      { path: ['icon'], kind: 'string', required: true },
      { path: ['kids'], kind: 'object', nullable: true },
      { path: ['kids', 'region'], kind: 'string', required: true },
      { path: ['kids', 'maxAge'], kind: 'number', required: true, min: 0, max: 18 },
      { path: ['kids', 'showUnrated'], kind: 'boolean' },
    ],
  },
  {
    id: 'customers.patchProfile',
    name: 'PATCH /customers/:uid/profiles/:profileId',
    method: 'PATCH',
    url: (u) => `/customers/${u.email.user.id}/profiles/${u.profileId}`,
    auth: 'email',
    body: 'object',
    valid: { fullname: 'Kid', icon: 'cat', kids: { region: 'GB', maxAge: 12, showUnrated: true } },
    fields: [
      { path: ['fullname'], kind: 'string', maxLength: 100 },
      { path: ['icon'], kind: 'string' },
      { path: ['kids'], kind: 'object', nullable: true },
      { path: ['kids', 'region'], kind: 'string', required: true },
      { path: ['kids', 'maxAge'], kind: 'number', required: true, min: 0, max: 18 },
      { path: ['kids', 'showUnrated'], kind: 'boolean' },
    ],
    badUrls: (u) => longSegments(65, 20).map((id) => `/customers/${u.email.user.id}/profiles/${id}`),
  },
  {
    id: 'customers.deleteProfile',
    name: 'DELETE /customers/:uid/profiles/:profileId',
    method: 'DELETE',
    url: (u) => `/customers/${u.email.user.id}/profiles/${'x'.repeat(65)}`,
    auth: 'email',
    body: 'none',
    badUrls: (u) => [
      ...longSegments(65).map((id) => `/customers/${u.email.user.id}/profiles/${id}`),
      `/customers/${u.email.user.id}/profiles/no-such-profile`,
    ],
  },
  {
    id: 'customers.setProfilePin',
    name: 'PUT /customers/:uid/profile-pin',
    method: 'PUT',
    url: (u) => `/customers/${u.email.user.id}/profile-pin`,
    auth: 'email',
    body: 'object',
    hasRequired: true,
    // A wrong password: valid input, refused with 403 (proof rules: profile-locks.test.ts).
    valid: { profileId: '', pin: '2468', password: 'not the password' },
    fields: [
      { path: ['profileId'], kind: 'string', required: true, maxLength: 64 },
      { path: ['pin'], kind: 'pin', required: true, nullable: true },
      { path: ['currentPin'], kind: 'string', maxLength: 16 },
      { path: ['password'], kind: 'string', maxLength: 1024 },
    ],
  },
  {
    id: 'customers.unlockProfile',
    name: 'POST /customers/:uid/profile-unlock',
    method: 'POST',
    url: (u) => `/customers/${u.email.user.id}/profile-unlock`,
    auth: 'email',
    body: 'object',
    hasRequired: true,
    valid: { profileId: '', pin: '0000' },
    fields: [
      { path: ['profileId'], kind: 'string', required: true, maxLength: 64 },
      { path: ['pin'], kind: 'string', required: true, maxLength: 16 },
    ],
  },
  {
    id: 'customers.enterProfile',
    name: 'POST /customers/:uid/profile-enter',
    method: 'POST',
    url: (u) => `/customers/${u.email.user.id}/profile-enter`,
    auth: 'email',
    body: 'object',
    hasRequired: true,
    valid: { profileId: '' },
    fields: [{ path: ['profileId'], kind: 'string', required: true, maxLength: 64 }],
  },
  {
    id: 'deviceLinks.create',
    name: 'POST /auth/device-links',
    method: 'POST',
    url: () => '/auth/device-links',
    auth: false,
    body: 'object',
    valid: { device: 'Living-room TV', publicKey: 'A'.repeat(43) },
    fields: [
      { path: ['device'], kind: 'string', maxLength: 500 },
      { path: ['publicKey'], kind: 'string', maxLength: 43 },
    ],
  },
  {
    id: 'deviceLinks.poll',
    name: 'POST /auth/device-links/:linkId/poll',
    method: 'POST',
    url: () => '/auth/device-links/no-such-link/poll',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { pollToken: 'not a token' },
    fields: [{ path: ['pollToken'], kind: 'string', required: true, maxLength: 128 }],
    badUrls: () => longSegments(65, 20).map((id) => `/auth/device-links/${id}/poll`),
  },
  {
    id: 'deviceLinks.byCode',
    name: 'GET /auth/device-links/code/:code',
    method: 'GET',
    url: () => '/auth/device-links/code/000000',
    auth: 'email',
    body: 'none',
    randomQuery: false,
    badUrls: () => [
      ...badSegments(190).map((code) => `/auth/device-links/code/${code}`),
      ...longSegments(7, 16).map((code) => `/auth/device-links/code/${code}`),
      ...['12345', '1234567', 'abcdef', '١٢٣٤٥٦'].map(
        (code) => `/auth/device-links/code/${encodeURIComponent(code)}`,
      ),
    ],
  },
  {
    id: 'deviceLinks.approve',
    name: 'POST /auth/device-links/code/:code/approve',
    method: 'POST',
    url: () => '/auth/device-links/code/000000/approve',
    auth: 'email',
    body: 'object',
    hasRequired: true,
    valid: { password: 'not the password' },
    fields: [{ path: ['password'], kind: 'string', required: true, maxLength: 1024 }],
    badUrls: () => badSegments(200).map((code) => `/auth/device-links/code/${code}/approve`),
  },
  {
    id: 'parties.create',
    name: 'POST /parties',
    method: 'POST',
    url: () => '/parties',
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: {
      title: { type: 'movie', title: 'Inception', tmdbId: '27205', releaseYear: 2010 },
      name: 'Ana',
      hostOnly: false,
      position: 12.5,
      playing: true,
    },
    fields: [
      { path: ['title'], kind: 'object', required: true },
      { path: ['title', 'title'], kind: 'string', required: true, maxLength: 300 },
      { path: ['title', 'tmdbId'], kind: 'string', required: true, maxLength: 10 },
      { path: ['title', 'releaseYear'], kind: 'number', nullable: true, min: 1870, max: 2200 },
      { path: ['name'], kind: 'string', required: true, maxLength: 40 },
      { path: ['hostOnly'], kind: 'boolean' },
      { path: ['position'], kind: 'number', min: 0, max: 7 * 24 * 3600 },
      { path: ['playing'], kind: 'boolean' },
    ],
  },
  {
    id: 'parties.join',
    name: 'POST /parties/:partyId/members',
    method: 'POST',
    url: () => `/parties/${'A'.repeat(22)}/members`,
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { name: 'Ben' },
    fields: [{ path: ['name'], kind: 'string', required: true, maxLength: 40 }],
    badUrls: () => badSegments(100).map((id) => `/parties/${id}/members`),
  },
  {
    id: 'parties.command',
    name: 'POST /parties/:partyId/commands',
    method: 'POST',
    url: () => `/parties/${'A'.repeat(22)}/commands`,
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { type: 'seek', position: 60 },
    fields: [
      { path: ['type'], kind: 'string', required: true, maxLength: 20 },
      { path: ['position'], kind: 'number', required: true, min: 0, max: 7 * 24 * 3600 },
    ],
    badUrls: () => badSegments(100).map((id) => `/parties/${id}/commands`),
  },
  {
    id: 'parties.message',
    name: 'POST /parties/:partyId/messages',
    method: 'POST',
    url: () => `/parties/${'A'.repeat(22)}/messages`,
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { text: 'popcorn?' },
    fields: [{ path: ['text'], kind: 'string', required: true, maxLength: 500 }],
    badUrls: () => badSegments(100).map((id) => `/parties/${id}/messages`),
  },
  {
    id: 'parties.postPlayerStatus',
    name: 'POST /api/player/status',
    method: 'POST',
    url: () => '/api/player/status',
    auth: true,
    body: 'object',
    hasRequired: true,
    valid: {
      userId: 'fuzz-member',
      roomCode: 'FUZZROOM',
      isHost: true,
      content: { title: 'Inception', type: 'Movie', tmdbId: 27205, seasonNumber: null },
      player: {
        isPlaying: true,
        isPaused: false,
        isLoading: false,
        hasPlayedOnce: true,
        time: 1,
        duration: 100,
        playbackRate: 1,
        buffered: 3,
      },
    },
    fields: [
      { path: ['userId'], kind: 'string', required: true, maxLength: 100 },
      { path: ['roomCode'], kind: 'string', required: true, maxLength: 100 },
      { path: ['isHost'], kind: 'boolean' },
      { path: ['content'], kind: 'object' },
      { path: ['content', 'title'], kind: 'string', required: true, maxLength: 300 },
      { path: ['player'], kind: 'object' },
      { path: ['player', 'time'], kind: 'number', required: true },
      { path: ['player', 'isPlaying'], kind: 'boolean', required: true },
    ],
  },
  {
    id: 'passkeys.register',
    name: 'POST /auth/passkeys/register',
    method: 'POST',
    url: () => '/auth/passkeys/register',
    auth: 'email',
    body: 'object',
    hasRequired: true,
    valid: {
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA', transports: ['internal'] },
      },
      name: 'Phone',
      password: 'not the password',
    },
    fields: [
      { path: ['response'], kind: 'object', required: true },
      { path: ['response', 'id'], kind: 'string', required: true, maxLength: 1366 },
      { path: ['response', 'rawId'], kind: 'string', required: true, maxLength: 1366 },
      { path: ['response', 'type'], kind: 'string', required: true, maxLength: 10 },
      { path: ['response', 'response'], kind: 'object', required: true },
      { path: ['response', 'response', 'clientDataJSON'], kind: 'string', required: true, maxLength: 8192 },
      {
        path: ['response', 'response', 'attestationObject'],
        kind: 'string',
        required: true,
        maxLength: 65536,
      },
      { path: ['name'], kind: 'string', required: true, maxLength: 600 },
      { path: ['password'], kind: 'string', maxLength: 1024 },
      { path: ['wrappedSeed'], kind: 'object' },
    ],
  },
  {
    id: 'passkeys.login',
    name: 'POST /auth/passkeys/login',
    method: 'POST',
    url: () => '/auth/passkeys/login',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: {
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' },
      },
      device: 'Kitchen tablet',
    },
    fields: [
      { path: ['response'], kind: 'object', required: true },
      { path: ['response', 'id'], kind: 'string', required: true, maxLength: 1366 },
      { path: ['response', 'response'], kind: 'object', required: true },
      { path: ['response', 'response', 'signature'], kind: 'string', required: true, maxLength: 2048 },
      { path: ['response', 'response', 'userHandle'], kind: 'string', maxLength: 128 },
      { path: ['device'], kind: 'string', maxLength: 500 },
    ],
  },
  // Segments of a library video (decision 111): the access token is checked before any file is looked up.
  {
    id: 'segments.segments',
    name: 'GET /api/sources/library/:access/:fileId/segments',
    method: 'GET',
    url: () => `/api/sources/library/not-a-token/${'A'.repeat(22)}/segments`,
    auth: false,
    body: 'none',
    badUrls: () => [
      ...longSegments(2049, 20).map((access) => `/api/sources/library/${access}/${'A'.repeat(22)}/segments`),
      ...longSegments(65, 20).map((id) => `/api/sources/library/x/${id}/segments`),
    ],
  },
  ...(['segments.markSegment', 'segments.unmarkSegment'] as const).map((id): RouteSpec => ({
    id,
    name: `${id === 'segments.markSegment' ? 'PUT' : 'DELETE'} /api/sources/library/:access/:fileId/segments/:type`,
    method: id === 'segments.markSegment' ? 'PUT' : 'DELETE',
    url: () => `/api/sources/library/not-a-token/${'A'.repeat(22)}/segments/intro`,
    auth: true,
    ...(id === 'segments.markSegment'
      ? {
          body: 'object' as const,
          hasRequired: true,
          valid: { start: 0, end: 30 },
          fields: [
            { path: ['start'], kind: 'number' as const, required: true, min: 0, max: 1e7 },
            { path: ['end'], kind: 'number' as const, required: true, min: 0, max: 1e7 },
          ],
        }
      : { body: 'none' as const }),
    badUrls: () => [
      ...badSegments(30).map((type) => `/api/sources/library/x/${'A'.repeat(22)}/segments/${type}`),
      ...longSegments(65, 20).map((fileId) => `/api/sources/library/x/${fileId}/segments/intro`),
    ],
  })),
  ...(['membership.subscribe', 'membership.subscribeAlias'] as const).map((id): RouteSpec => ({
    id,
    name: `POST /customers/:uid/${id.endsWith('Alias') ? 'subscription' : 'suscription'}`,
    method: 'POST',
    url: (u) => `/customers/${u.email.user.id}/${id.endsWith('Alias') ? 'subscription' : 'suscription'}`,
    auth: 'email',
    body: 'object',
    hasRequired: true,
    valid: { planId: 2, criptoName: 'BTC', code: null },
    fields: [
      { path: ['planId'], kind: 'integerish', required: true },
      { path: ['criptoName'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['cryptoName'], kind: 'string', nullable: true, maxLength: 64 },
      { path: ['code'], kind: 'string', nullable: true, maxLength: 64 },
    ],
  })),
  {
    id: 'membership.payment',
    name: 'GET /api/payments/:paymentId',
    method: 'GET',
    url: () => '/api/payments/no-such-payment',
    auth: 'email',
    body: 'none',
    badUrls: () => longSegments(65).map((id) => `/api/payments/${id}`),
  },
  {
    id: 'membership.simulatePaid',
    name: 'POST /api/payments/:paymentId/simulate-paid',
    method: 'POST',
    url: () => '/api/payments/no-such-payment/simulate-paid',
    auth: 'email',
    body: 'none',
    badUrls: () => longSegments(65).map((id) => `/api/payments/${id}/simulate-paid`),
  },
  {
    id: 'membership.createPromo',
    name: 'POST /promos/create',
    method: 'POST',
    url: () => '/promos/create',
    auth: 'admin',
    body: 'object',
    nullableBody: true,
    valid: { rate: 20 },
    fields: [{ path: ['rate'], kind: 'rate', nullable: true, min: 1, max: 100 }],
  },
  {
    id: 'membership.checkPromo',
    name: 'GET /promos/:code',
    method: 'GET',
    url: () => `/promos/${'x'.repeat(65)}`,
    auth: 'email',
    body: 'none',
    randomQuery: false,
    badUrls: () => longSegments(65).map((code) => `/promos/${code}`),
  },
  {
    id: 'membership.adminPayments',
    name: 'GET /api/admin/payments',
    method: 'GET',
    url: () => '/api/admin/payments?limit=0',
    auth: 'admin',
    body: 'none',
    randomQuery: false,
    badUrls: () => [
      ...['limit=501', 'limit=x', 'limit=1.5', 'settlement=paid', 'settlement='].map(
        (q) => `/api/admin/payments?${q}`,
      ),
      ...badSegments().map((v) => `/api/admin/payments?settlement=${v}`),
    ],
  },
  {
    id: 'metadata.search',
    name: 'GET /api/search',
    method: 'GET',
    url: () => '/api/search',
    auth: false,
    body: 'none',
    badUrls: () => ['query=', 'query=%20%20', `query=${'a'.repeat(201)}`].map((q) => `/api/search?${q}`),
  },
  {
    id: 'metadata.match',
    name: 'POST /api/match',
    method: 'POST',
    url: () => '/api/match',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: {
      items: [
        {
          key: 'k',
          title: 'The Matrix',
          year: 1999,
          type: 'movie',
          tmdbId: '603',
          imdbId: 'tt0133093',
          episodes: [{ season: 1, number: 1, title: 'Pilot', tmdbId: '62085' }],
        },
      ],
    },
    fields: [
      { path: ['items'], kind: 'array', required: true },
      { path: ['items', 0], kind: 'object', required: true },
      { path: ['items', 0, 'key'], kind: 'string', required: true, maxLength: 100 },
      { path: ['items', 0, 'title'], kind: 'string', required: true, maxLength: 300 },
      { path: ['items', 0, 'year'], kind: 'number', min: 1870, max: 2100 },
      { path: ['items', 0, 'type'], kind: 'string' },
      { path: ['items', 0, 'tmdbId'], kind: 'string', maxLength: 10 },
      { path: ['items', 0, 'imdbId'], kind: 'string', maxLength: 12 },
      { path: ['items', 0, 'episodes'], kind: 'array' },
      { path: ['items', 0, 'episodes', 0], kind: 'object', required: true },
      { path: ['items', 0, 'episodes', 0, 'season'], kind: 'number', min: 0, max: 999 },
      { path: ['items', 0, 'episodes', 0, 'number'], kind: 'number', min: 0, max: 100_000 },
      { path: ['items', 0, 'episodes', 0, 'title'], kind: 'string', maxLength: 300 },
      { path: ['items', 0, 'episodes', 0, 'tmdbId'], kind: 'string', maxLength: 10 },
    ],
    badUrls: () => [
      ...['language=xx', 'language=', 'language=EN'].map((q) => `/api/match?${q}`),
      ...badSegments().map((v) => `/api/match?language=${v}`),
    ],
  },
  ...(
    [
      ['metadata.list', (v: string) => `/api/lists/movie/${v}`],
      ['metadata.genres', (v: string) => `/api/genres/${v}`],
      ['metadata.discover', (v: string) => `/api/discover/${v}?genre=28`],
      ['metadata.details', (v: string) => `/api/media/movie/${v}`],
      ['metadata.season', (v: string) => `/api/media/tv/1399/season/${v}`],
      ['metadata.findByImdb', (v: string) => `/api/find/${v}`],
      ['metadata.legacyJustWatch', (v: string) => `/api/legacy/justwatch/movie/${v}`],
    ] as const
  ).map(([id, url]): RouteSpec => ({
    id,
    name: `GET ${url(':param')}`,
    method: 'GET',
    url: () => url('~'),
    auth: false,
    body: 'none',
    randomQuery: false,
    badUrls: () => badSegments().map(url),
  })),
  ...(
    [
      ['sources.scrape', '/scrape'],
      ['sources.scrapeSource', '/scrape/source'],
      ['sources.scrapeEmbed', '/scrape/embed'],
    ] as const
  ).map(([id, path]): RouteSpec => ({
    id,
    name: `GET ${path}`,
    method: 'GET',
    url: () => path,
    auth: false,
    body: 'none',
    badUrls: () => [
      `${path}?type=movie&title=x&tmdbId=abc`,
      `${path}?type=show&title=x&tmdbId=1`,
      `${path}?type=movie&title=&tmdbId=1&id=`,
      `${path}?id=${'x'.repeat(101)}&url=u`,
      `${path}?type=movie&title=x&tmdbId=1&releaseYear=1`,
    ],
  })),
  // The caption relay for casting (decision 113): anyone, a WebVTT text; its GET is text (not fuzzed here).
  {
    id: 'cast.uploadCaption',
    name: 'POST /api/cast/captions',
    method: 'POST',
    url: () => '/api/cast/captions',
    auth: false,
    body: 'object',
    hasRequired: true,
    valid: { vtt: 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n' },
    fields: [{ path: ['vtt'], kind: 'string', required: true }],
  },
];

const malformedJson = [
  '{',
  '{"a":',
  '[1,2',
  'nul',
  "{'a':1}",
  '{"a":1}}',
  '\u0000',
  ' ',
  'undefined',
  '{"a":NaN}',
  '[,]',
  '{"a":01}',
  '{"a":1,}',
  '"unterminated',
  '{"a":"\\x"}',
  '\uFEFF{}x',
  '{}{}',
];

export interface Case {
  url: string;
  payload?: string;
  contentType?: string;
}

/** JSON nested `depth` deep (arrays, objects or both), with `inner` at the bottom. */
const nested = (depth: number, kind: 'array' | 'object' | 'mixed', inner = '1') => {
  const open = (i: number) => (kind === 'array' || (kind === 'mixed' && i % 2) ? '[' : '{"a":');
  const close = (i: number) => (kind === 'array' || (kind === 'mixed' && i % 2) ? ']' : '}');
  let text = inner;
  for (let i = 0; i < depth; i++) text = open(i) + text + close(i);
  return text;
};

/**
 * Bodies whose nesting alone should be refused before anything reads them (the parser's depth limit),
 * up to 1 MiB of `[`: what froze a process for seconds.
 */
export const deepBodies = (): string[] => [
  nested(33, 'array'),
  nested(64, 'object'),
  nested(500, 'mixed'),
  nested(10_000, 'array'),
  '['.repeat(1024 * 1024 - 16),
  '{"a":'.repeat(200_000),
];

/** Number literals JSON allows and JavaScript cannot hold exactly, each past every field's range. */
const hugeNumbers = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '9007199254740993',
  '-9' + '9'.repeat(400),
];

function hugeNumberBodies(valid: unknown, fields: Field[]): string[] {
  const out: string[] = [];
  const numeric = fields.filter((f) => f.kind === 'integerish' || f.max !== undefined);
  for (const f of numeric)
    for (const literal of hugeNumbers)
      out.push(JSON.stringify(setAt(valid, f.path, '@@number@@')).replace('"@@number@@"', literal));
  return out;
}

/**
 * Header values a hostile or broken client sends. Each is sent with the route's valid input, so the
 * route does its real work (a library write with a 16-digit `X-Client-Time` gave 500).
 */
export const hostileHeaders: Record<string, string>[] = [
  ...[
    '9999999999999999',
    '99999999999999999999999999',
    '-1',
    '-9999999999999999',
    '0',
    'NaN',
    'Infinity',
    '1e999',
    '0x7fffffff',
    ' 1700000000000 ',
    '',
    '1,2',
    'x'.repeat(8000),
    '2026-01-01T00:00:00Z',
  ].map((v) => ({ 'x-client-time': v })),
  { 'accept-language': 'x'.repeat(8000) },
  { 'accept-language': '*;q=NaN, zz-ZZZZZZZZ;q=2, ,,,' },
  { 'if-none-match': '"' + 'W/'.repeat(2000) + '"' },
  { 'if-none-match': '*' },
  { 'if-modified-since': 'Tue, 99 Foo 99999 99:99:99 GMT' },
  { 'x-forwarded-for': 'not-an-address, ::ffff:999.1.1.1, ' + '1.'.repeat(2000) },
  { 'x-forwarded-proto': 'gopher' },
  { origin: 'null' },
  { origin: 'http://' + 'a'.repeat(4000) + '.example' },
  { range: 'bytes=99999999999999999999-' },
  { range: 'bytes=-0,' + '0-1,'.repeat(500) },
  { 'user-agent': '\u00ff'.repeat(4000) },
  { 'x-requested-with': 'XMLHttpRequest'.repeat(500) },
];

export function casesFor(spec: RouteSpec, u: Callers): Case[] {
  const url = spec.url(u);
  const asJson = (v: unknown): Case => ({ url, payload: JSON.stringify(v), contentType: 'application/json' });
  const cases: Case[] = [];
  for (const text of malformedJson) cases.push({ url, payload: text, contentType: 'application/json' });
  // (text/plain has a parser; a bodiless route rightly ignores such a body.)
  for (const type of spec.body === 'none'
    ? ['application/xml', 'image/png']
    : ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'image/png']) {
    cases.push({ url, payload: JSON.stringify(spec.valid ?? {}), contentType: type });
  }
  cases.push({
    url,
    payload: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }),
    contentType: 'application/json',
  });
  if (spec.badUrls)
    for (const bad of spec.badUrls(u))
      cases.push({ url: bad, payload: JSON.stringify(spec.valid ?? {}), contentType: 'application/json' });
  if (spec.body === 'none') {
    // Bodies are ignored there: fuzz the query and path only, many times over.
    if (spec.randomQuery !== false)
      for (let i = 0; i < 200; i++)
        cases.push({ url: `${url}?type=${encodeURIComponent(randomString(8) || 'x')}` });
    return cases;
  }
  for (const m of mutations(spec.valid, spec.fields ?? [])) cases.push(asJson(m));
  for (const text of deepBodies()) cases.push({ url, payload: text, contentType: 'application/json' });
  if (spec.valid !== undefined)
    for (const text of hugeNumberBodies(spec.valid, spec.fields ?? []))
      cases.push({ url, payload: text, contentType: 'application/json' });
  for (let i = 0; i < 250; i++) {
    const v = randomNonObject();
    if (v === null && spec.nullableBody) continue;
    if (spec.body === 'array' && Array.isArray(v) && v.length === 0) continue; // an empty import is valid
    cases.push(asJson(v));
  }
  if (spec.body === 'array') {
    for (let i = 0; i < 60; i++)
      cases.push(asJson([spec.valid && (spec.valid as unknown[])[0], randomNonObject()]));
    for (let i = 0; i < 40; i++) cases.push(asJson({ items: spec.valid }));
    cases.push(
      asJson(
        Array.from({ length: 10_001 }, () => ({
          tmdbId: '1',
          meta: { title: '', year: 1, type: 'movie' },
          duration: 1,
          watched: 1,
        })),
      ),
    );
  }
  if (spec.hasRequired || spec.body === 'array') {
    for (let i = 0; i < 80; i++) {
      const v = Object.fromEntries(
        Array.from({ length: 1 + Math.floor(rand() * 3) }, () => [randomString(6) || 'k', randomJson(1)]),
      );
      cases.push(asJson(v));
    }
  }
  return cases;
}

/** An app with the fuzzing callers and a snapshot of everything a request could write. */
export async function startFuzzTarget(): Promise<{
  t: SyncTestApp;
  user: Callers;
  snapshot: () => Promise<string>;
}> {
  const t = await startSyncApp({
    env: { ADMIN_EMAILS: ADMIN_EMAIL },
    deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
  });
  const passphrase = await register(t.server);
  const email = await signUp(t.server);
  const profile = await t.server.inject({
    method: 'POST',
    url: `/customers/${email.user.id}/profiles`,
    headers: email.headers,
    payload: { fullname: 'Kid', icon: 'cat' },
  });
  const user: Callers = {
    ...passphrase,
    email,
    admin: await signUp(t.server, { email: ADMIN_EMAIL }),
    profileId: (profile.json() as { profile: { _id: string } }).profile._id,
  };
  await login(t.server, user.keys);
  const h = user.headers;
  const u = user.user.id;
  await t.server.inject({
    method: 'POST',
    url: `/users/${u}/bookmarks/603`,
    headers: h,
    payload: { meta: movieMeta() },
  });
  await t.server.inject({
    method: 'PUT',
    url: `/users/${u}/progress/1396`,
    headers: h,
    payload: { meta: showMeta(), duration: 10, watched: 5, seasonId: 's', episodeId: 'e' },
  });
  await t.server.inject({
    method: 'PUT',
    url: `/users/${u}/settings`,
    headers: h,
    payload: { applicationLanguage: 'nl' },
  });
  await t.server.inject({
    method: 'PUT',
    url: `/users/${u}/ratings/603`,
    headers: h,
    payload: { type: 'movie', meta: movieMeta(), rating: 8 },
  });
  const snapshot = async () => {
    const db = t.db.db;
    return JSON.stringify(
      await Promise.all([
        db.selectFrom('users').selectAll().orderBy('id').execute(),
        db.selectFrom('sessions').select(['id', 'user_id', 'device', 'created_at']).orderBy('id').execute(),
        db.selectFrom('auth_challenges').select('code').execute(),
        db.selectFrom('bookmarks').selectAll().orderBy('tmdb_id').execute(),
        db.selectFrom('progress_items').selectAll().orderBy('id').execute(),
        db.selectFrom('progress_deletions').selectAll().execute(),
        db.selectFrom('user_settings').selectAll().execute(),
        db.selectFrom('ratings').selectAll().orderBy('tmdb_id').execute(),
        db.selectFrom('captcha_solutions').selectAll().execute(),
        db.selectFrom('profiles').selectAll().orderBy('id').execute(),
        db.selectFrom('payments').selectAll().orderBy('id').execute(),
        db.selectFrom('promo_codes').selectAll().orderBy('code').execute(),
        db.selectFrom('memberships').selectAll().execute(),
      ]),
    );
  };
  return { t, user, snapshot };
}

/** Sends one case the way the route's caller would (its token, the case's body and content type). */
export function send(
  t: SyncTestApp,
  user: Callers,
  spec: RouteSpec,
  c: Case,
  extraHeaders: Record<string, string> = {},
) {
  return t.server.inject({
    method: spec.method,
    url: c.url,
    headers: {
      ...(spec.auth === true
        ? user.headers
        : spec.auth === 'email'
          ? user.email.headers
          : spec.auth === 'admin'
            ? user.admin.headers
            : {}),
      ...(c.contentType ? { 'content-type': c.contentType } : {}),
      ...extraHeaders,
    },
    ...(c.payload !== undefined ? { payload: c.payload } : {}),
  });
}

/** The route's valid input as a case (its body, if it takes one). */
export const validCase = (spec: RouteSpec, u: Callers): Case => ({
  url: spec.url(u),
  ...(spec.body === 'none'
    ? {}
    : { payload: JSON.stringify(spec.valid ?? {}), contentType: 'application/json' }),
});
