/**
 * Paths of Marquee's own API, schema-free so the web app can import them without the schema
 * library. Endpoint declarations (with schemas) reference these; nothing else spells a path.
 */
export const apiPaths = {
  runtimeConfig: '/api/config',
  search: '/api/search',
  list: '/api/lists/:type/:list',
  genres: '/api/genres/:type',
  discover: '/api/discover/:type',
  details: '/api/media/:type/:id',
  season: '/api/media/tv/:id/season/:number',
  findByImdb: '/api/find/:imdbId',
  legacyJustWatch: '/api/legacy/justwatch/:type/:id',
  match: '/api/match',
  ping: '/ping.txt',
} as const;

/** Titles one `POST /api/match` takes (the import page sends a longer file in batches of this many). */
export const MATCH_MAX_ITEMS = 25;
