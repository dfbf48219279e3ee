import { z } from './z.ts';
import { defineEndpoint, defineStream, type EndpointErrors } from './endpoint.ts';
import { sourceRoutes } from './routes.ts';
import { ErrorCode } from './errors.ts';

// Wire shapes of the scrape API: the same as `@marquee/providers` types (a server test checks they agree).

export const CaptionSchema = z.object({
  id: z.string(),
  language: z.string(),
  url: z.string(),
  type: z.enum(['srt', 'vtt']),
  needsProxy: z.boolean(),
  opensubtitles: z.boolean(),
  /** Marquee extension: a forced track (signs, foreign dialogue), listed first. */
  forced: z.boolean().optional(),
  /** Marquee extension: the track's own name in the file (`SDH`, `Commentary`). */
  label: z.string().optional(),
  /**
   * Marquee extension: an ASS/SSA track's own script (styles, positions), for a renderer that draws them;
   * `url` is the same track as WebVTT for everyone else.
   */
  assUrl: z.string().optional(),
});

export const QualitySchema = z.enum(['4k', '1080', '720', '480', '360', 'unknown']);
export const StreamFileSchema = z.object({
  type: z.enum(['mp4', 'webm']),
  url: z.string(),
  headers: z.record(z.string(), z.string()).optional(),
});

/**
 * Marquee extension: an audio track of a library title. The active one is what the stream plays; any other
 * plays through its own HLS playlist (the player reloads it at the same position).
 */
export const AudioTrackSchema = z.object({
  id: z.string(),
  /** ISO 639-1 where the file's language has one (`en`), else the file's code, or `und`. */
  language: z.string(),
  /** The track's own name in the file, or null. */
  label: z.string().nullable(),
  channels: z.number().int().nullable(),
  codec: z.string(),
  isDefault: z.boolean(),
  active: z.boolean(),
  /** The HLS playlist playing this track instead; null for the active track. */
  playlist: z.string().nullable(),
});

/**
 * Marquee extension: a picture subtitle of a library title (Blu-ray PGS, DVD VobSub), shown by burning it
 * into the picture: each of its playlists is the title transcoded with it, one per audio track (by the
 * track's id, or `default` when the stream lists no audio tracks). Not a caption: clients that do not
 * know it ignore it.
 */
export const ImageSubtitleSchema = z.object({
  id: z.string(),
  /** ISO 639-1 where the file's language has one (`en`), else the file's code, or `und`. */
  language: z.string(),
  /** The track's own name in the file, or null. */
  label: z.string().nullable(),
  /** A forced track (signs, foreign dialogue): listed first. */
  forced: z.boolean(),
  format: z.enum(['pgs', 'vobsub']),
  playlists: z.record(z.string(), z.string()),
});

/** Marquee extension: how the server delivers a library file (the file itself, remuxed, or transcoded). */
export const DeliverySchema = z.enum(['direct', 'remux', 'transcode']);

const streamBase = {
  id: z.string(),
  flags: z.array(z.enum(['cors-allowed', 'ip-locked'])),
  captions: z.array(CaptionSchema),
  headers: z.record(z.string(), z.string()).optional(),
  preferredHeaders: z.record(z.string(), z.string()).optional(),
  /** Made by the project (test pattern): the player labels it as a sample. */
  isSample: z.boolean().optional(),
  audioTracks: z.array(AudioTrackSchema).optional(),
  delivery: DeliverySchema.optional(),
  /**
   * Marquee extension: seek thumbnails made by the server, a WebVTT file whose cues point into tiled JPEG
   * sprites (`sprite-0.jpg#xywh=0,0,320,180`), relative to the VTT's URL.
   */
  thumbnails: z.string().optional(),
  imageSubtitles: z.array(ImageSubtitleSchema).optional(),
};

export const StreamSchema = z.discriminatedUnion('type', [
  z.object({ ...streamBase, type: z.literal('hls'), playlist: z.string() }),
  z.object({
    ...streamBase,
    type: z.literal('file'),
    qualities: z.partialRecord(QualitySchema, StreamFileSchema),
  }),
]);

export const RunOutputSchema = z.object({
  sourceId: z.string(),
  embedId: z.string().optional(),
  stream: StreamSchema,
});
export const SourceOutputSchema = z.object({
  embeds: z.array(z.object({ embedId: z.string(), url: z.string() })),
  stream: z.array(StreamSchema).optional(),
});
export const EmbedOutputSchema = z.object({ stream: z.array(StreamSchema) });

export const ProviderMetaSchema = z.object({
  type: z.enum(['source', 'embed']),
  id: z.string(),
  name: z.string(),
  rank: z.number(),
  mediaTypes: z.array(z.enum(['movie', 'show'])).optional(),
});
export type ProviderMetaWire = z.infer<typeof ProviderMetaSchema>;

// ---- events ----

/** Data of `error` events and of failed providers: never a stack trace. */
export const ScrapeErrorInfo = z.object({
  name: z.string(),
  message: z.string(),
  code: ErrorCode.optional(),
});
export const UpdateEventSchema = z.object({
  id: z.string(),
  percentage: z.number().min(0).max(100),
  status: z.enum(['pending', 'success', 'notfound', 'failure']),
  error: ScrapeErrorInfo.optional(),
  reason: z.string().optional(),
});
export const InitEventSchema = z.object({ sourceIds: z.array(z.string()) });
export const DiscoverEmbedsEventSchema = z.object({
  sourceId: z.string(),
  embeds: z.array(z.object({ id: z.string(), embedScraperId: z.string() })),
});

const common = {
  /** A JWT to send back as `jwt|<token>` until it expires (also in the X-Token response header). */
  token: z.string(),
  update: UpdateEventSchema,
  /** Nothing was found (the data is an empty JSON string). */
  noOutput: z.literal(''),
  error: ScrapeErrorInfo,
};

/** Data of each event of `GET /scrape`, by event name. */
export const scrapeAllEvents = {
  ...common,
  init: InitEventSchema,
  start: z.string(),
  discoverEmbeds: DiscoverEmbedsEventSchema,
  completed: RunOutputSchema,
};
/** Data of each event of `GET /scrape/source`. */
export const scrapeSourceEvents = { ...common, completed: SourceOutputSchema };
/** Data of each event of `GET /scrape/embed`. */
export const scrapeEmbedEvents = { ...common, completed: EmbedOutputSchema };

export type ScrapeEventData<M extends Record<string, z.ZodType>> = { [K in keyof M]: z.infer<M[K]> };
export type ScrapeAllEventData = ScrapeEventData<typeof scrapeAllEvents>;
export type ScrapeSourceEventData = ScrapeEventData<typeof scrapeSourceEvents>;
export type ScrapeEmbedEventData = ScrapeEventData<typeof scrapeEmbedEvents>;

// ---- queries ----

const tmdbId = z.string().regex(/^\d{1,10}$/, 'must be a numeric TMDB id');
/** Season and episode ids: TMDB's, or the embedded catalog's longer synthetic ones (`1001396001001`). */
const childId = z.string().regex(/^\d{1,20}$/, 'must be a numeric id');
const mediaFields = {
  type: z.enum(['movie', 'show']),
  title: z.string().trim().min(1).max(300),
  releaseYear: z.coerce.number().int().min(1800).max(3000).optional(),
  tmdbId,
  imdbId: z.string().max(20).optional(),
  seasonNumber: z.coerce.number().int().min(0).max(9999).optional(),
  seasonTmdbId: childId.optional(),
  episodeNumber: z.coerce.number().int().min(0).max(99999).optional(),
  episodeTmdbId: childId.optional(),
};
const tokenField = {
  /** Same as the X-Token header: `altcha|…` once, then `jwt|…`. */
  token: z.string().max(8192).optional(),
};

/**
 * Marquee extension: what the viewer's device plays, so the library can pick direct play, remux or
 * transcode (playback-plan.ts on the server). Clients that send nothing get what every browser plays.
 */
const deviceFields = {
  /** Comma-separated codec and container names the device decodes (`DEVICE_CODECS`). */
  codecs: z.string().max(500).optional(),
  /** Preferred audio language, ISO 639-1 (`fr`): the library starts with a track in it. */
  audioLanguage: z
    .string()
    .regex(/^[a-z]{2,3}$/, 'must be an ISO 639 language code')
    .optional(),
};

/**
 * Names a device may report in `codecs`. Video: `h264`, `h264-10` (10-bit), `hevc`, `hevc-10`, `vp8`, `vp9`,
 * `av1`, `hdr` (it shows HDR). Audio: `aac`, `mp3`, `opus`, `vorbis`, `flac`, `ac3`, `eac3`, `dts`.
 * Containers played as files: `mp4`, `webm`, `mkv`. Unknown names are ignored.
 */
export const DEVICE_CODECS = [
  'h264',
  'h264-10',
  'hevc',
  'hevc-10',
  'vp8',
  'vp9',
  'av1',
  'hdr',
  'aac',
  'mp3',
  'opus',
  'vorbis',
  'flac',
  'ac3',
  'eac3',
  'dts',
  'mp4',
  'webm',
  'mkv',
] as const;
export type DeviceCodec = (typeof DEVICE_CODECS)[number];

type MediaQueryShape = {
  type: 'movie' | 'show';
  seasonNumber?: number;
  seasonTmdbId?: string;
  episodeNumber?: number;
  episodeTmdbId?: string;
};
const requireEpisode = (value: MediaQueryShape, ctx: z.RefinementCtx) => {
  if (value.type !== 'show') return;
  for (const key of ['seasonNumber', 'seasonTmdbId', 'episodeNumber', 'episodeTmdbId'] as const) {
    if (value[key] === undefined)
      ctx.addIssue({ code: 'custom', path: [key], message: 'required for a show (missing show data)' });
  }
};

export const ScrapeQuery = z
  .object({
    ...mediaFields,
    ...tokenField,
    /** Marquee extension: the viewer's source order, comma-separated ids tried first. */
    sourceOrder: z.string().max(1000).optional(),
    ...deviceFields,
  })
  .superRefine(requireEpisode);
export type ScrapeQuery = z.infer<typeof ScrapeQuery>;

export const ScrapeSourceQuery = z
  .object({ ...mediaFields, ...tokenField, ...deviceFields, id: z.string().min(1).max(100) })
  .superRefine(requireEpisode);
export type ScrapeSourceQuery = z.infer<typeof ScrapeSourceQuery>;

export const ScrapeEmbedQuery = z.object({
  ...tokenField,
  id: z.string().min(1).max(100),
  url: z.string().min(1).max(4096),
});
export type ScrapeEmbedQuery = z.infer<typeof ScrapeEmbedQuery>;

// ---- endpoints ----

/** Errors of every scrape stream before it starts (sources.service.ts `authorize`: the captcha gate). */
const scrapeGateErrors = {
  401: ['captcha_required', 'captcha_invalid'],
  503: ['captcha_unavailable'],
} as const satisfies EndpointErrors;
/**
 * A media's scrape: not released yet (403, release.ts's rule on the metadata's date), not in the metadata
 * (404: a title, season or episode it does not list), its release not checkable while the metadata
 * cannot answer (503, with Retry-After), taken down (451), or the membership gate (`assertPlayable`,
 * decision 041). The server's release-check.ts fails closed.
 */
const mediaScrapeErrors = {
  401: ['login_required', ...scrapeGateErrors[401]],
  402: ['membership_required'],
  /**
   * `profile_locked`: the caller's X-Profile-Id profile has a PIN this device has not entered (decision 104);
   * `over_content_limit`: it is a kids' profile and the title is over its limit (decision 106).
   */
  403: ['media_unreleased', 'profile_locked', 'over_content_limit'],
  404: ['media_not_found', 'profile_not_found'],
  451: ['media_removed'],
  503: [...scrapeGateErrors[503], 'metadata_unavailable'],
} as const satisfies EndpointErrors;

/**
 * The scrape endpoints answer `text/event-stream` (`events`: each event's data by name). Errors found
 * before the stream starts (bad query 400, captcha 401, membership 401/402, unreleased media 403, media
 * not in the metadata or unknown provider 404, removed media 451, metadata unavailable 503) are ordinary
 * JSON error bodies; later ones arrive as an `error` event.
 */
export const sourcesEndpoints = {
  scrape: defineStream({
    ...sourceRoutes.scrape,
    summary: 'Scrape every source for a media (server-sent events)',
    auth: 'optional',
    tags: ['sources'],
    errors: mediaScrapeErrors,
    query: ScrapeQuery,
    events: scrapeAllEvents,
  }),
  scrapeSource: defineStream({
    ...sourceRoutes.scrapeSource,
    summary: 'Scrape one source for a media (server-sent events)',
    auth: 'optional',
    tags: ['sources'],
    errors: { ...mediaScrapeErrors, 404: [...mediaScrapeErrors[404], 'source_not_found'] },
    query: ScrapeSourceQuery,
    events: scrapeSourceEvents,
  }),
  scrapeEmbed: defineStream({
    ...sourceRoutes.scrapeEmbed,
    summary: 'Scrape one embed URL (server-sent events)',
    auth: 'none',
    tags: ['sources'],
    errors: { ...scrapeGateErrors, 404: ['source_not_found'] },
    query: ScrapeEmbedQuery,
    events: scrapeEmbedEvents,
  }),
  providerMetadata: defineEndpoint({
    ...sourceRoutes.providerMetadata,
    summary: 'Sources and embeds of this instance, as [embeds, sources]',
    auth: 'none',
    tags: ['sources'],
    response: z.tuple([z.array(ProviderMetaSchema), z.array(ProviderMetaSchema)]),
  }),
} as const;
