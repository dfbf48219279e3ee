import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { SessionAuthenticator } from '../../plugins/auth.ts';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { MetadataCacheRepository } from '../metadata/metadata-cache.repository.ts';
import type { LibraryIndexer } from '../sources/library-index.ts';
import type { SourcesService } from '../sources/sources.service.ts';
import { SegmentDetector } from './segment-detection.ts';
import { SegmentServiceClient, episodeOf } from './segment-service.ts';
import { detectSegmentTools, type SegmentTools } from './segment-tools.ts';
import { SegmentsRepository } from './segments.repository.ts';
import { registerSegmentRoutes } from './segments.routes.ts';
import { SegmentsService } from './segments.service.ts';

export interface SegmentsContext {
  config: Pick<Config, 'FFMPEG_PATH' | 'FPCALC_PATH' | 'SEGMENTS_SERVICE_URL' | 'SEGMENTS_SERVICE_KEY'>;
  database: DatabaseHandle;
  now: () => Date;
  /** The media routes' access check and the library's files. */
  sources: Pick<SourcesService, 'authorizeMedia' | 'libraryFile'>;
  /** The operator's library (MEDIA_LIBRARY_DIR); absent: no detection. */
  library: LibraryIndexer | undefined;
  /** The background job queue (decision 086); absent: no detection. */
  jobs: JobQueue | undefined;
  auth: SessionAuthenticator;
  limits: RateLimits;
  /** Outbound HTTP (tests may hand in their own). */
  fetch?: typeof fetch | undefined;
}

/**
 * The operator's online segment service when SEGMENTS_SERVICE_URL is set (else none: nothing leaves the
 * server), its answers kept in the metadata cache's table (shared by every process of the instance).
 */
function segmentService(
  ctx: SegmentsContext,
  log: (level: 'warn' | 'debug', message: string, details: object) => void,
): SegmentServiceClient | undefined {
  const baseUrl = ctx.config.SEGMENTS_SERVICE_URL;
  if (!baseUrl) return undefined;
  return new SegmentServiceClient({
    baseUrl,
    apiKey: ctx.config.SEGMENTS_SERVICE_KEY,
    cache: new MetadataCacheRepository(ctx.database.db),
    now: () => ctx.now().getTime(),
    log,
    fetch: ctx.fetch,
  });
}

/**
 * Skip intro, recap and credits (decision 111): the segments routes, and detection on the library —
 * every scan queues the seasons not yet detected as they are — when the library, the job queue, ffmpeg
 * and fpcalc are there (looked for at the first scan, never at start-up); the operator's online segment
 * service when one is configured.
 */
export async function registerSegments(server: FastifyInstance, ctx: SegmentsContext): Promise<void> {
  const log = (level: 'info' | 'warn' | 'debug', message: string, details: object) =>
    server.log[level](details, message);
  const repository = new SegmentsRepository(ctx.database.db);
  let tools: Promise<SegmentTools | null> | undefined;
  const findTools = () =>
    (tools ??= detectSegmentTools(ctx.config.FFMPEG_PATH, ctx.config.FPCALC_PATH).then((found) => {
      if (!found)
        log(
          'warn',
          'segments: fpcalc or ffmpeg not found; intros and credits are not detected (see docs/operations.md)',
          {
            fpcalc: ctx.config.FPCALC_PATH,
            ffmpeg: ctx.config.FFMPEG_PATH,
          },
        );
      return found;
    }));
  const { library, jobs } = ctx;
  const detector =
    library && jobs
      ? new SegmentDetector({ jobs, repository, tools: findTools, now: () => ctx.now().getTime(), log })
      : undefined;
  if (library && detector)
    library.onScanned((index) => {
      detector
        .scheduleSeasons(index)
        .catch((error: unknown) => log('warn', 'segments: could not queue detection', { err: error }));
    });
  const service = new SegmentsService({
    repository,
    detector,
    service: segmentService(ctx, log),
    now: () => ctx.now().getTime(),
    media: {
      authorize: async (fileId, access) => {
        const grant = await ctx.sources.authorizeMedia(`library:${fileId}`, access);
        return { viewer: grant.viewer, title: { type: grant.type, tmdbId: grant.tmdbId } };
      },
      libraryFile: (fileId) => ctx.sources.libraryFile(fileId),
      episodeOf: async (fileId) => (library ? episodeOf(await library.get(), fileId) : null),
    },
  });
  await registerSegmentRoutes(server, service, { auth: ctx.auth, limits: ctx.limits });
}
