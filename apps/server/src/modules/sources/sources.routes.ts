import path from 'node:path';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  PROFILE_HEADER,
  PROFILE_TOKEN_HEADER,
  SCRAPE_TOKEN_HEADER,
  type ScrapeQuery,
  type ScrapeSourceQuery,
  sourcePaths,
  sourcesEndpoints as e,
  type EndpointErrors,
  errorCodes,
  type ErrorCode,
} from '@marquee/contract';
import { describeError, NotFoundError, type ScrapeMedia } from '@marquee/providers';
import { AppError } from '../../errors.ts';
import { playbackTokenOf } from '../../plugins/auth.ts';
import { contractRoute, contractStream } from '../../plugins/contract-route.ts';
import { EventStream } from './event-stream.ts';
import { ANYONE } from './media-access.ts';
import { allowAnyOrigin, libraryFileParams, sendLibraryFile, sendMediaFile } from './media-files.ts';
import type { SourcesService } from './sources.service.ts';

/** The media a scrape query names (the contract has already checked that a show names its episode). */
export function scrapeMediaOf(query: ScrapeQuery | ScrapeSourceQuery): ScrapeMedia {
  const common = {
    title: query.title,
    releaseYear: query.releaseYear ?? 0,
    tmdbId: query.tmdbId,
    ...(query.imdbId ? { imdbId: query.imdbId } : {}),
  };
  if (query.type === 'movie') return { ...common, type: 'movie' };
  return {
    ...common,
    type: 'show',
    season: { number: query.seasonNumber!, tmdbId: query.seasonTmdbId! },
    episode: { number: query.episodeNumber!, tmdbId: query.episodeTmdbId! },
  };
}

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

function tokenOf(request: FastifyRequest, query: { token?: string | undefined }): string | undefined {
  const header = request.headers[SCRAPE_TOKEN_HEADER];
  return query.token ?? (typeof header === 'string' && header ? header : undefined);
}

/** The profile a signed-in viewer plays for (decision 104): X-Profile-Id and its X-Profile-Token. */
const playbackProfileOf = (request: FastifyRequest) => ({
  id: request.headers[PROFILE_HEADER],
  token: request.headers[PROFILE_TOKEN_HEADER],
});

/**
 * The family's clients on other origins read the stream and its X-Token header. CORS itself (allowed
 * origins, preflights) is plugins/cors.ts's (CORS_ORIGINS); its headers are on the reply already.
 */
function streamHeaders(freshToken: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { 'access-control-expose-headers': 'X-Token' };
  if (freshToken) headers['x-token'] = freshToken;
  return headers;
}

/** Error event data: the family's clients recognise NotFoundError by name; never a stack trace. */
function errorEventData(error: unknown) {
  const info = describeError(error);
  const known = (errorCodes as readonly string[]).includes(info.code ?? '') ? (info.code as ErrorCode) : null;
  return {
    ...info,
    code:
      error instanceof NotFoundError ? ('media_not_found' as const) : (known ?? ('scrape_failed' as const)),
  };
}

/**
 * Media file routes are not contract routes (they answer bytes, with ranges); their errors, for the
 * OpenAPI document: the signed URL (decision 071), takedowns, the membership gate, the file and range.
 */
const mediaFileErrors = {
  400: ['validation_failed'],
  401: ['login_required'],
  402: ['membership_required'],
  403: ['forbidden', 'media_url_invalid', 'media_url_expired'],
  404: ['file_not_found'],
  416: ['range_not_satisfiable'],
  451: ['media_removed'],
} as const satisfies EndpointErrors;

/** Conversions add: 502 when ffmpeg fails on the file, 503 when every conversion slot is taken. */
const conversionErrors = {
  ...mediaFileErrors,
  502: ['conversion_failed'],
  503: ['server_busy'],
} as const satisfies EndpointErrors;

/** The app with the Zod type provider: the media routes' params are typed by their schemas. */
type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

// Kept in this order: the OpenAPI document (plugins/openapi.ts) lists routes as they are added.
export function registerSourcesRoutes(app: FastifyInstance, service: SourcesService): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  registerScrapeRoutes(app, service);
  registerProviderScrapeRoutes(app, service);
  // Preflights (X-Token) and the CORS headers of these routes: plugins/cors.ts.
  contractRoute(app, e.providerMetadata, async () => service.metadata());
  registerMediaFileRoutes(typed, service);
  registerLibraryConversionRoutes(typed, service);
}

/** Every source and embed in turn, as server-sent events. */
function registerScrapeRoutes(app: FastifyInstance, service: SourcesService): void {
  contractStream(app, e.scrape, async ({ query }, request, reply) => {
    const media = scrapeMediaOf(query);
    await service.assertAvailable(media);
    await service.assertReleased(media);
    const viewer = await service.assertPlayable(playbackTokenOf(request), media, playbackProfileOf(request));
    const { freshToken } = await service.authorize(tokenOf(request, query), request.ip);
    const stream = new EventStream(request, reply, e.scrape.events, { headers: streamHeaders(freshToken) });
    if (freshToken) stream.send('token', freshToken);
    try {
      const sourceOrder = query.sourceOrder
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const output = await service.scrapeAll(media, {
        origin: originOf(request),
        signal: stream.signal,
        viewer,
        device: { codecs: query.codecs, audioLanguage: query.audioLanguage },
        ...(sourceOrder?.length ? { sourceOrder } : {}),
        events: {
          init: (event) => stream.send('init', event),
          start: (id) => stream.send('start', id),
          update: (event) => stream.send('update', event),
          discoverEmbeds: (event) => stream.send('discoverEmbeds', event),
        },
      });
      if (output) stream.end('completed', output);
      else stream.end('noOutput', '');
    } catch (error) {
      if (!stream.ended) request.log.warn({ err: error }, 'scrape failed');
      stream.end('error', errorEventData(error));
    }
  });
}

/** One source, or one embed, as server-sent events. */
function registerProviderScrapeRoutes(app: FastifyInstance, service: SourcesService): void {
  contractStream(app, e.scrapeSource, async ({ query }, request, reply) => {
    const media = scrapeMediaOf(query);
    if (!service.hasSource(query.id)) throw notFoundProvider('source', query.id);
    await service.assertAvailable(media);
    await service.assertReleased(media);
    const viewer = await service.assertPlayable(playbackTokenOf(request), media, playbackProfileOf(request));
    const { freshToken } = await service.authorize(tokenOf(request, query), request.ip);
    const stream = new EventStream(request, reply, e.scrapeSource.events, {
      headers: streamHeaders(freshToken),
    });
    if (freshToken) stream.send('token', freshToken);
    try {
      const output = await service.scrapeSource(query.id, media, {
        origin: originOf(request),
        signal: stream.signal,
        viewer,
        device: { codecs: query.codecs, audioLanguage: query.audioLanguage },
        events: { update: (event) => stream.send('update', event) },
      });
      stream.end('completed', output);
    } catch (error) {
      stream.end('error', errorEventData(error));
    }
  });

  contractStream(app, e.scrapeEmbed, async ({ query }, request, reply) => {
    if (!service.hasEmbed(query.id)) throw notFoundProvider('embed', query.id);
    const { freshToken } = await service.authorize(tokenOf(request, query), request.ip);
    const stream = new EventStream(request, reply, e.scrapeEmbed.events, {
      headers: streamHeaders(freshToken),
    });
    if (freshToken) stream.send('token', freshToken);
    try {
      const output = await service.scrapeEmbed(query.id, query.url, {
        origin: originOf(request),
        signal: stream.signal,
        events: { update: (event) => stream.send('update', event) },
      });
      stream.end('completed', output);
    } catch (error) {
      stream.end('error', errorEventData(error));
    }
  });
}

function registerMediaFileRoutes(typed: ZodApp, service: SourcesService): void {
  // Media: every request (each range, each HLS segment) shows a token signed for these files and
  // their viewer, checked before anything is read (decision 071).
  typed.get(
    `${sourcePaths.sampleAssets}/:access/*`,
    {
      config: { documentedErrors: mediaFileErrors },
      schema: {
        tags: ['sources'],
        summary: 'Sample media (MP4, HLS, captions) with range requests, behind a signed access token',
        params: z.object({ access: z.string().max(2048), '*': z.string() }),
      },
    },
    async (request, reply) => {
      allowAnyOrigin(reply);
      const grant = await service.authorizeMedia('sample', request.params.access);
      const { dir, fileName } = service.sampleFile(request.params['*']);
      return sendMediaFile(request, reply, { dir, fileName, cacheControl: service.mediaCacheControl(grant) });
    },
  );

  typed.get(
    sourcePaths.libraryFile,
    {
      config: { documentedErrors: mediaFileErrors },
      schema: {
        tags: ['sources'],
        summary:
          'A video or subtitle file of the media library, with range requests, behind a signed access token',
        params: libraryFileParams,
      },
    },
    async (request, reply) => {
      allowAnyOrigin(reply);
      const grant = await service.authorizeMedia(`library:${request.params.fileId}`, request.params.access);
      const file = await service.libraryFile(request.params.fileId);
      if (file.ino === undefined) throw new AppError(404, 'file_not_found', 'No such media file');
      // Opened as checked: a link or another file put in its place since is refused (docs/security.md).
      return sendLibraryFile(request, reply, {
        path: file.path,
        ino: file.ino,
        typeName: file.name,
        cacheControl: service.mediaCacheControl(grant),
      });
    },
  );
}

function registerLibraryConversionRoutes(typed: ZodApp, service: SourcesService): void {
  // HLS renditions of a library video, made on the fly under the video's own token (decision 085).
  typed.get(
    sourcePaths.libraryHls,
    {
      config: { documentedErrors: conversionErrors },
      schema: {
        tags: ['sources'],
        summary:
          'An HLS playlist or segment of a library video, remuxed or transcoded on demand, behind a signed access token',
        params: z.object({
          access: z.string().max(2048),
          fileId: z.string().max(64),
          plan: z.string().max(40),
          name: z.string().max(40),
        }),
      },
    },
    async (request, reply) => {
      allowAnyOrigin(reply);
      const { access, fileId, plan, name } = request.params;
      const grant = await service.authorizeMedia(`library:${fileId}`, access);
      const answer = await service.libraryHls(fileId, plan, name, viewerKey(grant.viewer, request));
      const cacheControl = service.mediaCacheControl(grant);
      if (answer.kind === 'file') {
        return sendMediaFile(request, reply, {
          dir: path.dirname(answer.path),
          fileName: path.basename(answer.path),
          typeName: 'init.mp4',
          cacheControl,
        });
      }
      return reply
        .header('content-type', answer.type)
        .header('cache-control', cacheControl)
        .send(answer.body);
    },
  );

  typed.get(
    sourcePaths.librarySubtitle,
    {
      config: { documentedErrors: conversionErrors },
      schema: {
        tags: ['sources'],
        summary:
          'A text subtitle of a library video as WebVTT (`<stream>.vtt`, `file.vtt`), or an ASS/SSA one as an ASS script with its styles (`<stream>.ass`, `file.ass`), behind a signed access token',
        params: libraryFileParams,
      },
    },
    async (request, reply) => {
      allowAnyOrigin(reply);
      const { access, fileId, name } = request.params;
      const grant = await service.authorizeMedia(`library:${fileId}`, access);
      // The name says the form (decision 085); the file is the service's, found by the name's stream.
      const converted = name.endsWith('.ass')
        ? await service.libraryAss(fileId, name)
        : await service.librarySubtitle(fileId, name);
      return sendMediaFile(request, reply, {
        dir: path.dirname(converted),
        fileName: path.basename(converted),
        cacheControl: service.mediaCacheControl(grant),
      });
    },
  );
}

/** Conversion limits count per account, or per address for anyone (decision 085). */
const viewerKey = (viewer: string, request: FastifyRequest) =>
  viewer === ANYONE ? `ip:${request.ip}` : viewer;

function notFoundProvider(kind: 'source' | 'embed', id: string): AppError {
  return new AppError(404, 'source_not_found', `No ${kind} "${id}" on this instance`);
}
