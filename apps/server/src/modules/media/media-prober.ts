import pLimit, { type LimitFunction } from 'p-limit';
import type { MediaInfo } from './media-info.ts';
import { sameFile, type FileIdentity, type MediaProbesRepository } from './media-probes.repository.ts';
import { probeMediaFile, type ProbeAnswer } from './probe.ts';

export type { FileIdentity } from './media-probes.repository.ts';

/** What is known about one file: its media info (null: not media, `error` says why). */
export interface ProbeResult extends ProbeAnswer {
  /** ffprobe ran for this answer (false: it came from the database). */
  ranFfprobe: boolean;
}

/** What the library scan needs from a prober (a fake answering from a prepared table will do in benchmarks). */
export interface LibraryProber {
  /** Throws a ProbeFailure (probe.ts) when ffprobe cannot answer now; the file is tried again later. */
  inspect(realPath: string, file: FileIdentity): Promise<ProbeResult>;
}

export interface MediaProberOptions {
  repository: MediaProbesRepository;
  /** FFPROBE_PATH. */
  ffprobePath: string;
  /** Per file; default 30 s. */
  timeoutMs?: number;
  /** ffprobe processes at once; default 3 (a scan of a new library must not starve playback). */
  concurrency?: number;
  now: () => number;
  /** Where a failure to store an answer is reported (the answer is still used). */
  log?: (message: string, details: Record<string, unknown>) => void;
}

export const DEFAULT_PROBE_TIMEOUT_MS = 30_000;
export const DEFAULT_PROBE_CONCURRENCY = 3;

/**
 * ffprobe's answers for library files, kept in `media_probes` by real path: a file is probed again only
 * when its size, mtime or inode changed, so a restart or another process of the instance reuses them.
 * At most `concurrency` ffprobe processes run at once; one path is probed once however many ask.
 */
export class MediaProber implements LibraryProber {
  private readonly limit: LimitFunction;
  private readonly inFlight = new Map<string, Promise<ProbeResult>>();
  private runs = 0;

  constructor(private readonly o: MediaProberOptions) {
    this.limit = pLimit(o.concurrency ?? DEFAULT_PROBE_CONCURRENCY);
  }

  /** How many times ffprobe ran in this process. */
  get ffprobeRuns(): number {
    return this.runs;
  }

  /** The file's media info (null: not media). Throws a ProbeFailure when ffprobe cannot answer. */
  async probe(realPath: string, file: FileIdentity): Promise<MediaInfo | null> {
    return (await this.inspect(realPath, file)).info;
  }

  /** Like `probe`, with the reason a file is not media and whether ffprobe ran. */
  inspect(realPath: string, file: FileIdentity): Promise<ProbeResult> {
    const key = `${realPath}\0${file.size}\0${file.mtimeMs}\0${file.ino}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.lookup(realPath, file).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async lookup(realPath: string, file: FileIdentity): Promise<ProbeResult> {
    const stored = await this.o.repository.get(realPath);
    if (stored && sameFile(stored, file))
      return { info: stored.info, error: stored.error, ranFfprobe: false };
    const answer = await this.limit(() => {
      this.runs += 1;
      return probeMediaFile(realPath, {
        ffprobePath: this.o.ffprobePath,
        timeoutMs: this.o.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
      });
    });
    await this.o.repository
      .put({ path: realPath, ...file, probedAt: this.o.now(), ...answer })
      .catch((error: unknown) =>
        this.o.log?.('media probe could not be stored', { path: realPath, err: error }),
      );
    return { ...answer, ranFfprobe: true };
  }

  /** Forgets what was stored about files that are gone. */
  async forget(paths: readonly string[]): Promise<void> {
    if (paths.length) await this.o.repository.delete(paths);
  }
}
