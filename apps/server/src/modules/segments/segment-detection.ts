import { stat } from 'node:fs/promises';
import type { SegmentDetectionState } from '@marquee/contract';
import { errorMessage, type JobKindOptions, type JobQueue } from '../jobs/job-queue.ts';
import type { LibraryIndex, LibraryVideo } from '../sources/library-index.ts';
import { lastBlackRun } from './black-frames.ts';
import {
  DetectionGroup,
  detectionFileOf,
  fileVersion,
  groupOf,
  seasonGroups,
  type DetectionFile,
} from './detection-groups.ts';
import {
  CREDITS_MATCH,
  INTRO_MATCH,
  sharedPassagesInTurns,
  type EpisodePrint,
  type SharedPassage,
} from './fingerprint-match.ts';
import {
  blackFramesOf,
  decodePoints,
  encodePoints,
  fingerprintAudio,
  type SegmentTools,
} from './segment-tools.ts';
import type { AnalysisKind, SegmentsRepository, StoredDetection } from './segments.repository.ts';

/*
 * Segment detection on the operator's library (decision 111), a background job on the library
 * pipeline's queue (decision 086), one group at a time: a season's episodes are compared for the audio
 * they share at their start (the intro) and at their end (the credits song), and each file's last
 * minutes are searched for credits rolling over black. A scan queues every season not yet detected as
 * it now is; a film (or a lone file) is queued when its segments are first asked for. What was read
 * from each file is kept, so a season that gets a new episode reads only that one.
 */

export const SEGMENTS_JOB = 'segment-detection';

/** How much of the start is searched for the intro: a quarter of the runtime, 2 minutes at least (half a short file), 10 at most. */
export const headSeconds = (duration: number) =>
  Math.min(duration, 600, Math.max(0.25 * duration, Math.min(120, duration / 2)));
/** And of the end for the credits: 15 % of the runtime, a minute at least (half a short file), 10 at most. */
export const tailSeconds = (duration: number) =>
  Math.min(duration, 600, Math.max(0.15 * duration, Math.min(60, duration / 2)));

/** Fingerprints miss the last ~2 s of audio (Chromaprint's window): credits found this near the end run to it. */
const END_SNAP_SECONDS = 3;
/** An intro found this near the start starts with the file. */
const START_SNAP_SECONDS = 1;
/** A file that could not be analysed is tried again after this long (or when its season changes). */
export const FAILED_RETRY_MS = 24 * 3600_000;

interface Seconds {
  start: number;
  end: number;
}

/**
 * The credits from what was found: where the season's shared end song and the black run overlap, from
 * the later start (nothing of the story is skipped) to the later end; otherwise the song (the season
 * agrees on it), else the black run.
 */
export function combineCredits(
  song: Seconds | null,
  black: Seconds | null,
  duration: number,
): (Seconds & { method: string }) | null {
  const snap = (s: Seconds) => ({
    start: s.start,
    end: s.end >= duration - END_SNAP_SECONDS ? duration : Math.min(s.end, duration),
  });
  if (song && black && song.start < black.end && black.start < song.end)
    return {
      ...snap({ start: Math.max(song.start, black.start), end: Math.max(song.end, black.end) }),
      method: 'audio+black',
    };
  if (song) return { ...snap(song), method: 'audio' };
  if (black) return { ...snap(black), method: 'black' };
  return null;
}

const introOf = (passage: SharedPassage | undefined): Seconds | null =>
  passage ? { start: passage.start < START_SNAP_SECONDS ? 0 : passage.start, end: passage.end } : null;

const ms = (s: Seconds | null) =>
  s ? { startMs: Math.round(s.start * 1000), endMs: Math.round(s.end * 1000) } : null;

/** What was read from one file for one detection run. */
interface FileReads {
  head: EpisodePrint | null;
  tail: EpisodePrint | null;
  black: Seconds | null;
  /** What could not be read, and why. */
  failures: string[];
  /** How many reads were tried. */
  tried: number;
}

export interface SegmentDetectorOptions {
  jobs: JobQueue;
  repository: SegmentsRepository;
  /** The programs, found once (null: detection is off). */
  tools: () => Promise<SegmentTools | null>;
  now: () => number;
  retry?: Pick<JobKindOptions, 'attempts' | 'backoffMs' | 'failedCooldownMs'>;
  log?: (level: 'info' | 'warn', message: string, details: object) => void;
}

/** Queues and runs segment detection; says where a file's detection stands. */
export class SegmentDetector {
  /** Each file's group as of the last scan (a season's episodes). */
  private groups = new Map<string, DetectionGroup>();
  /** Groups found detected as they are (not looked up again until the library changes them). */
  private readonly detected = new Set<string>();

  constructor(private readonly o: SegmentDetectorOptions) {
    o.jobs.register<unknown>(SEGMENTS_JOB, (data, context) => this.detect(data, context.signal), {
      concurrency: 1,
      attempts: 2,
      backoffMs: 60_000,
      failedCooldownMs: 6 * 3600_000,
      ...o.retry,
    });
  }

  /**
   * After a scan: every season whose episodes are not all detected as the season now is gets its job
   * (once: the queue drops a job already queued under the same id).
   */
  async scheduleSeasons(index: Pick<LibraryIndex, 'shows'>): Promise<number> {
    const seasons = seasonGroups(index);
    this.groups = new Map(seasons.flatMap((g) => g.files.map((f) => [f.fileId, g] as const)));
    if (!(await this.o.tools())) return 0;
    const unknown = seasons.filter((g) => !this.detected.has(g.key));
    const rows = await this.o.repository.detections(unknown.flatMap((g) => g.files.map((f) => f.fileId)));
    let queued = 0;
    for (const group of unknown) {
      if (group.files.every((f) => this.isCurrent(rows.get(f.fileId), f, group))) {
        this.detected.add(group.key);
        continue;
      }
      await this.enqueue(group);
      queued += 1;
    }
    return queued;
  }

  /**
   * Where this file's detection stands, and what it found (for this version of the file, even when its
   * season has changed since: it is answered while the season is detected again). A file whose
   * detection is due gets its job queued.
   */
  async detectionOf(
    video: LibraryVideo,
  ): Promise<{ state: SegmentDetectionState; found: StoredDetection | null }> {
    const file = detectionFileOf(video);
    if (!file || !(await this.o.tools())) return { state: 'off', found: null };
    const group = this.groups.get(file.fileId) ?? groupOf([file]);
    const row = (await this.o.repository.detections([file.fileId])).get(file.fileId);
    const found = row && row.fileVersion === fileVersion(file) ? row : null;
    if (this.isCurrent(row, file, group)) return { state: found!.state, found };
    this.enqueue(group).catch((error: unknown) =>
      this.o.log?.('warn', 'segments: could not queue detection', { err: error, file: file.fileId }),
    );
    return { state: 'pending', found };
  }

  private isCurrent(row: StoredDetection | undefined, file: DetectionFile, group: DetectionGroup): boolean {
    if (!row || row.fileVersion !== fileVersion(file) || row.groupKey !== group.key) return false;
    return row.state === 'done' || this.o.now() - row.detectedAt < FAILED_RETRY_MS;
  }

  private enqueue(group: DetectionGroup): Promise<void> {
    return this.o.jobs.enqueue(SEGMENTS_JOB, group, { id: `segments-${group.key}` });
  }

  /** The job: read every file still as it was queued, compare, store one detection per file. */
  private async detect(input: unknown, signal: AbortSignal): Promise<void> {
    const group = DetectionGroup.parse(input);
    const tools = await this.o.tools();
    if (!tools) return;
    // A file changed since: the next scan queues its season as it is now.
    const files = (
      await Promise.all(group.files.map(async (f) => ((await this.unchanged(f)) ? f : null)))
    ).filter((f): f is DetectionFile => f !== null);
    if (files.length === 0) return;
    const started = Date.now();
    const reads = new Map<string, FileReads>();
    for (const file of files) reads.set(file.fileId, await this.read(file, files.length > 1, tools, signal));
    const prints = (part: 'head' | 'tail') =>
      files.flatMap((f) => {
        const print = reads.get(f.fileId)![part];
        return print ? [print] : [];
      });
    const intros = await sharedPassagesInTurns(prints('head'), INTRO_MATCH, signal);
    const songs = await sharedPassagesInTurns(prints('tail'), CREDITS_MATCH, signal);
    for (const file of files) {
      const read = reads.get(file.fileId)!;
      const credits = combineCredits(songs.get(file.fileId) ?? null, read.black, file.duration);
      const failed = read.tried > 0 && read.failures.length === read.tried;
      await this.o.repository.saveDetection({
        fileId: file.fileId,
        fileVersion: fileVersion(file),
        groupKey: group.key,
        state: failed ? 'failed' : 'done',
        intro: ms(introOf(intros.get(file.fileId))),
        credits: ms(credits),
        detail: [credits?.method, ...read.failures].filter(Boolean).join('; ').slice(0, 1000) || null,
        detectedAt: this.o.now(),
      });
    }
    this.detected.add(group.key);
    this.o.log?.('info', 'segments detected', { files: files.length, ms: Date.now() - started });
  }

  private async unchanged(file: DetectionFile): Promise<boolean> {
    const now = await stat(file.path).catch(() => null);
    return now !== null && now.size === file.size && Math.round(now.mtimeMs) === file.mtime;
  }

  /**
   * What detection reads from one file: the fingerprints of its first and last minutes (when there are
   * other episodes to compare them with) and its black frames at the end. A read that fails is noted
   * (the others still count); the job itself fails only when it is stopped or the database fails.
   */
  private async read(
    file: DetectionFile,
    compare: boolean,
    tools: SegmentTools,
    signal: AbortSignal,
  ): Promise<FileReads> {
    const reads: FileReads = { head: null, tail: null, black: null, failures: [], tried: 0 };
    const attempt = async <T>(what: string, work: () => Promise<T>): Promise<T | null> => {
      reads.tried += 1;
      try {
        return await work();
      } catch (error) {
        signal.throwIfAborted();
        reads.failures.push(`${what}: ${errorMessage(error)}`);
        this.o.log?.('warn', `segments: could not read the ${what}`, { file: file.fileId, err: error });
        return null;
      }
    };
    if (compare && file.audioIndex !== null) {
      const head = headSeconds(file.duration);
      const tail = tailSeconds(file.duration);
      reads.head = await attempt('opening audio', () =>
        this.print(file, 'intro-print', 0, head, tools, signal),
      );
      reads.tail = await attempt('closing audio', () =>
        this.print(file, 'credits-print', file.duration - tail, tail, tools, signal),
      );
    }
    reads.black = await attempt('closing picture', () => this.black(file, tools, signal));
    return reads;
  }

  /** A fingerprint of `length` seconds from `from`: kept from an earlier run, or read now and kept. */
  private async print(
    file: DetectionFile,
    kind: AnalysisKind,
    from: number,
    length: number,
    tools: SegmentTools,
    signal: AbortSignal,
  ): Promise<EpisodePrint> {
    const version = fileVersion(file);
    const kept = await this.o.repository.analysis(file.fileId, kind, version);
    if (kept) return { id: file.fileId, points: decodePoints(kept.data), offset: kept.offsetMs / 1000 };
    const offsetMs = Math.round(from * 1000);
    const points = await fingerprintAudio(
      tools,
      file.path,
      { from: offsetMs / 1000, length, audioIndex: file.audioIndex! },
      { signal, timeoutMs: Math.max(5 * 60_000, length * 2_000) },
    );
    await this.o.repository.saveAnalysis(
      file.fileId,
      kind,
      { fileVersion: version, offsetMs, data: encodePoints(points) },
      this.o.now(),
    );
    return { id: file.fileId, points, offset: offsetMs / 1000 };
  }

  /** The last run of black frames in the file's last minutes (seconds in the file), kept like the prints. */
  private async black(
    file: DetectionFile,
    tools: SegmentTools,
    signal: AbortSignal,
  ): Promise<Seconds | null> {
    const version = fileVersion(file);
    const kept = await this.o.repository.analysis(file.fileId, 'black', version);
    if (kept) return JSON.parse(kept.data) as Seconds | null;
    const tail = tailSeconds(file.duration);
    const offsetMs = Math.round((file.duration - tail) * 1000);
    const frames = await blackFramesOf(tools, file.path, offsetMs / 1000, {
      signal,
      timeoutMs: Math.max(10 * 60_000, tail * 5_000),
    });
    const run = lastBlackRun(frames);
    const found = run ? { start: offsetMs / 1000 + run.start, end: offsetMs / 1000 + run.end } : null;
    await this.o.repository.saveAnalysis(
      file.fileId,
      'black',
      { fileVersion: version, offsetMs, data: JSON.stringify(found) },
      this.o.now(),
    );
    return found;
  }
}
