/**
 * Scrape API and source media paths, event names and small helpers, schema-free so the web app can
 * import them without the schema library (decision 003). The scrape API keeps the app family's paths at
 * the root: a client that knows a "provider API" base URL appends `/scrape`, `/metadata` to it.
 */
export const sourcePaths = {
  scrape: '/scrape',
  scrapeSource: '/scrape/source',
  scrapeEmbed: '/scrape/embed',
  providerMetadata: '/metadata',
  /**
   * Prefix of the sample media. A signed access token follows it, then the file:
   * `/api/sources/sample/<access>/hls/master.m3u8` (playlists name their segments relatively, so the
   * token covers them too). Decision 071.
   */
  sampleAssets: '/api/sources/sample',
  /**
   * A file of the operator's media library, by an opaque id (the name is only for people reading URLs),
   * behind a signed access token for that file. Decision 071.
   */
  libraryFile: '/api/sources/library/:access/:fileId/:name',
  /** Prefix of the library's files: `<prefix>/<access>/<fileId>/…` (the file, its HLS renditions, its subtitles). */
  libraryFiles: '/api/sources/library',
  /**
   * An HLS rendition of a library video made on the fly (docs/decisions/085-library-pipeline.md):
   * `master.m3u8`, `index.m3u8`, `init.mp4`, `<n>.m4s`, under the video's own access token.
   */
  libraryHls: '/api/sources/library/:access/:fileId/hls/:plan/:name',
  /** A text subtitle of a library video (`<stream>.vtt`) or a styled subtitle file (`file.vtt`) as WebVTT. */
  librarySubtitle: '/api/sources/library/:access/:fileId/subtitles/:name',
  /** Seek thumbnails of a library video: `thumbnails.vtt` and its `sprite-<n>.jpg` (decision 086). */
  libraryThumbnails: '/api/sources/library/:access/:fileId/thumbnails/:name',
} as const;

/**
 * Signed media URLs (`…/api/sources/sample|library/<expiry>.<title>.<viewer>.<signature>/…`, decision
 * 071) stop working at their expiry (base-36 seconds); the media routes then answer 403
 * `media_url_expired` and the player asks the scrape API for fresh ones. When such a URL expires (epoch
 * milliseconds), or null for any other URL.
 */
export function mediaUrlExpiry(url: string): number | null {
  const match =
    /\/api\/sources\/(?:sample|library)\/([0-9a-z]{1,11})\.[ms]\d{1,10}\.[A-Za-z0-9_~-]{1,36}\.[A-Za-z0-9_-]{22}\//.exec(
      url,
    );
  return match ? parseInt(match[1]!, 36) * 1000 : null;
}

/**
 * Request and response header carrying the scrape token; also accepted as the `token` query parameter.
 * Its value says how the caller proves itself: `altcha|<payload>` (or `turnstile|…`, `recaptcha|…`, per
 * the instance's captcha) once, then the `jwt|<token>` the server answered with until it expires.
 */
export const SCRAPE_TOKEN_HEADER = 'x-token';

/**
 * Events of the scrape streams (text/event-stream), in the order they can appear:
 * `token` (a fresh token to reuse, also sent as the X-Token response header), `init`, then per provider
 * `start` and `update` (with `discoverEmbeds` when a source found embeds), and exactly one terminal event:
 * `completed` (the result), `noOutput` (nothing found) or `error`. A plain `message` event (no name) is
 * never sent: the family's clients treat one as a stream that closed improperly.
 */
export const scrapeEventNames = [
  'token',
  'init',
  'start',
  'update',
  'discoverEmbeds',
  'completed',
  'noOutput',
  'error',
] as const;
export interface ScrapeMediaParams {
  type: 'movie' | 'show';
  title: string;
  releaseYear?: number | null;
  tmdbId: string;
  imdbId?: string | null;
  season?: { number: number; tmdbId: string };
  episode?: { number: number; tmdbId: string };
}

/**
 * Query of `/scrape` (and, with `id`, of `/scrape/source`) for a media, as the family's clients send it;
 * pass it to `new URLSearchParams(…)`.
 */
export function scrapeQuery(
  media: ScrapeMediaParams,
  extra: {
    id?: string;
    token?: string;
    sourceOrder?: readonly string[];
    /** What the device decodes (the contract's DEVICE_CODECS names). */
    codecs?: readonly string[];
    audioLanguage?: string;
  } = {},
): Record<string, string> {
  const query: Record<string, string> = { type: media.type, title: media.title, tmdbId: media.tmdbId };
  if (media.releaseYear) query.releaseYear = String(media.releaseYear);
  if (media.imdbId) query.imdbId = media.imdbId;
  if (media.type === 'show' && media.season && media.episode) {
    query.seasonNumber = String(media.season.number);
    query.seasonTmdbId = media.season.tmdbId;
    query.episodeNumber = String(media.episode.number);
    query.episodeTmdbId = media.episode.tmdbId;
  }
  if (extra.id) query.id = extra.id;
  if (extra.token) query.token = extra.token;
  if (extra.sourceOrder?.length) query.sourceOrder = extra.sourceOrder.join(',');
  if (extra.codecs?.length) query.codecs = extra.codecs.join(',');
  if (extra.audioLanguage) query.audioLanguage = extra.audioLanguage;
  return query;
}
