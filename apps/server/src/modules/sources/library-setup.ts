import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { MediaProber } from '../media/media-prober.ts';
import { MediaProbesRepository } from '../media/media-probes.repository.ts';
import { LibraryIndexer } from './library-index.ts';

export interface LibrarySetup {
  config: Pick<Config, 'FFPROBE_PATH' | 'LIBRARY_WATCH'>;
  database: DatabaseHandle;
  now: () => number;
  /** The library folders (MEDIA_LIBRARY_DIR, resolved). */
  roots: readonly string[];
  /** An index older than this is rebuilt by the next scrape. */
  maxAgeMs: number;
  /** ffprobe runs here: every container ffmpeg reads is indexed (else MP4 and Matroska only). */
  probe: boolean;
}

/**
 * The media library's indexer, wired to the server's life: with ffprobe its probes are kept in
 * `media_probes`; the first scan starts when the server is ready (so the first scrape need not wait for
 * a new library's probes), the folder watcher too (LIBRARY_WATCH), and both stop when it closes.
 */
export function openLibrary(server: FastifyInstance, o: LibrarySetup): LibraryIndexer {
  const log = (message: string, details: Record<string, unknown>) => server.log.warn(details, message);
  const prober = o.probe
    ? new MediaProber({
        repository: new MediaProbesRepository(o.database.db),
        ffprobePath: o.config.FFPROBE_PATH,
        now: o.now,
        log,
      })
    : undefined;
  const indexer = new LibraryIndexer(o.roots, {
    maxAgeMs: o.maxAgeMs,
    now: o.now,
    log,
    ...(prober ? { prober } : {}),
  });
  server.addHook('onReady', async () => {
    indexer.scanNow();
    if (o.config.LIBRARY_WATCH)
      indexer
        .startWatching()
        .catch((error: unknown) => log('library: folders cannot be watched', { err: error }));
  });
  server.addHook('onClose', async () => indexer.close());
  return indexer;
}
