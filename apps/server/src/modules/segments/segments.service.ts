import {
  SEGMENT_TYPES,
  segmentMarkProblem,
  type Segment,
  type SegmentDetectionState,
  type SegmentMark,
  type SegmentMarkBody,
  type SegmentType,
  type SegmentsResponse,
} from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { ANYONE, invalidMediaUrl } from '../sources/media-access.ts';
import type { LibrarySubtitle, LibraryVideo } from '../sources/library-index.ts';
import { chapterSegments } from './chapter-segments.ts';
import { fileVersion } from './detection-groups.ts';
import type { SegmentDetector } from './segment-detection.ts';
import type { SegmentServiceClient, ServiceMedia } from './segment-service.ts';
import type { SegmentsRepository, StoredDetection, StoredMark } from './segments.repository.ts';

/** The title a file's token was handed out for: the one the library matched the file to. */
export interface GrantedTitle {
  type: 'movie' | 'show';
  tmdbId: string;
}

/** What the segments need of the sources module: the media routes' own check and the library's files. */
export interface SegmentMedia {
  /**
   * Checks a file's access token as every media request does (decision 071: signature, expiry, takedown,
   * membership); throws their refusal. Answers whom the token was handed to ('' = anyone) and for which
   * title.
   */
  authorize(fileId: string, access: string): Promise<{ viewer: string; title: GrantedTitle }>;
  /** A library file by id (a 404 AppError when there is none). */
  libraryFile(fileId: string): Promise<LibraryVideo | LibrarySubtitle>;
  /** The season and episode numbers the library files an episode under; null for a film. */
  episodeOf(fileId: string): Promise<{ season: number; episode: number } | null>;
}

/** Viewers' marks this close (at both ends) agree: the same segment marked by hand. */
export const MARKS_AGREE_MS = 2_000;

/**
 * The viewers' segment of each type: the mark most others agree with, the newest of those equally
 * agreed with (a later correction wins a tie).
 */
export function viewersSegments(marks: readonly StoredMark[]): Segment[] {
  const out: Segment[] = [];
  for (const type of SEGMENT_TYPES) {
    const ofType = marks.filter((m) => m.type === type);
    let best: { mark: StoredMark; votes: number } | null = null;
    for (const mark of ofType) {
      const votes = ofType.filter(
        (other) =>
          Math.abs(other.startMs - mark.startMs) <= MARKS_AGREE_MS &&
          Math.abs(other.endMs - mark.endMs) <= MARKS_AGREE_MS,
      ).length;
      if (!best || votes > best.votes || (votes === best.votes && mark.updatedAt > best.mark.updatedAt))
        best = { mark, votes };
    }
    if (best)
      out.push({
        type,
        start: best.mark.startMs / 1000,
        end: best.mark.endMs / 1000,
        source: 'viewers',
        votes: best.votes,
      });
  }
  return out;
}

/** What detection found, as segments. */
function detectedSegments(found: StoredDetection | null): Segment[] {
  const out: Segment[] = [];
  if (found?.intro)
    out.push({
      type: 'intro',
      start: found.intro.startMs / 1000,
      end: found.intro.endMs / 1000,
      source: 'detected',
    });
  if (found?.credits)
    out.push({
      type: 'credits',
      start: found.credits.startMs / 1000,
      end: found.credits.endMs / 1000,
      source: 'detected',
    });
  return out;
}

/** The most trusted segment of each type (the lists come most trusted first), within the runtime. */
export function bestSegments(duration: number | null, ...bySource: Segment[][]): Segment[] {
  const chosen = new Map<SegmentType, Segment>();
  for (const list of bySource)
    for (const segment of list) if (!chosen.has(segment.type)) chosen.set(segment.type, segment);
  const round = (s: number) => Math.round(s * 1000) / 1000;
  return SEGMENT_TYPES.flatMap((type) => {
    const s = chosen.get(type);
    if (!s) return [];
    const end = duration === null ? s.end : Math.min(s.end, duration);
    return end > s.start ? [{ ...s, start: round(s.start), end: round(end) }] : [];
  });
}

export interface SegmentsServiceOptions {
  repository: SegmentsRepository;
  media: SegmentMedia;
  /** Detection on the library; absent: `off` (no library, or no job queue). */
  detector?: SegmentDetector | undefined;
  /** The operator's online segment service (SEGMENTS_SERVICE_URL); absent: never asked. */
  service?: Pick<SegmentServiceClient, 'segments'> | undefined;
  now: () => number;
}

const notVideo = () => new AppError(404, 'file_not_found', 'No such video');

/**
 * The segments of library videos (decision 111): read by whoever may play the file, the best of each
 * type from its chapters, detection, viewers' marks and the operator's segment service; marked and
 * unmarked by signed-in viewers.
 */
export class SegmentsService {
  constructor(private readonly o: SegmentsServiceOptions) {}

  /** GET: the file's segments; `viewer` (a signed-in caller, or null) also gets their own marks. */
  async segments(access: string, fileId: string, viewer: string | null): Promise<SegmentsResponse> {
    const grant = await this.o.media.authorize(fileId, access);
    return this.answer(await this.video(fileId), grant.title, viewer);
  }

  /** PUT: the viewer's mark of one type, replacing theirs; 400 `segment_invalid` when it does not fit. */
  async mark(
    userId: string,
    access: string,
    fileId: string,
    type: SegmentType,
    body: SegmentMarkBody,
  ): Promise<SegmentsResponse> {
    const { video, title } = await this.markable(userId, access, fileId);
    const duration = video.info?.duration ?? null;
    const problem = segmentMarkProblem(type, body.start, body.end, duration);
    if (problem) throw new AppError(400, 'segment_invalid', `This mark does not fit the video: ${problem}`);
    await this.o.repository.putMark(fileId, this.versionOf(video), {
      type,
      userId,
      startMs: Math.round(body.start * 1000),
      endMs: Math.round(Math.min(body.end, duration!) * 1000),
      updatedAt: this.o.now(),
    });
    return this.answer(video, title, userId);
  }

  /** DELETE: takes the viewer's mark of one type back (nothing to take back is fine). */
  async unmark(userId: string, access: string, fileId: string, type: SegmentType): Promise<SegmentsResponse> {
    const { video, title } = await this.markable(userId, access, fileId);
    await this.o.repository.deleteMark(fileId, type, userId);
    return this.answer(video, title, userId);
  }

  /**
   * A viewer marks what they may play: the file's token must pass the media routes' check and have been
   * handed to them (or to anyone, on an open instance) — another viewer's link is not theirs to use.
   */
  private async markable(
    userId: string,
    access: string,
    fileId: string,
  ): Promise<{ video: LibraryVideo; title: GrantedTitle }> {
    const grant = await this.o.media.authorize(fileId, access);
    if (grant.viewer !== ANYONE && grant.viewer !== userId) throw invalidMediaUrl();
    return { video: await this.video(fileId), title: grant.title };
  }

  private async video(fileId: string): Promise<LibraryVideo> {
    const file = await this.o.media.libraryFile(fileId);
    if (file.kind !== 'video') throw notVideo();
    return file;
  }

  private versionOf(video: LibraryVideo): string {
    return fileVersion({ size: video.size, mtime: Math.round(video.mtimeMs) });
  }

  /**
   * What the service is asked about: the title the file's token was handed out for (the one the library
   * matched it to), an episode by the numbers the library files it under. Null: nothing to ask.
   */
  private async serviceMediaOf(video: LibraryVideo, title: GrantedTitle): Promise<ServiceMedia | null> {
    if (title.type === 'movie') return { type: 'movie', tmdbId: title.tmdbId };
    const numbers = await this.o.media.episodeOf(video.id);
    return numbers ? { type: 'tv', tmdbId: title.tmdbId, ...numbers } : null;
  }

  /**
   * The service's segments, [] when it is off, has none or fails: it never fails the answer, nor holds
   * it longer than its time limit.
   */
  private async serviceSegments(video: LibraryVideo, title: GrantedTitle): Promise<Segment[]> {
    const service = this.o.service;
    if (!service) return [];
    try {
      const media = await this.serviceMediaOf(video, title);
      return media ? await service.segments(media, video.info?.duration ?? null) : [];
    } catch {
      return [];
    }
  }

  private async answer(
    video: LibraryVideo,
    title: GrantedTitle,
    viewer: string | null,
  ): Promise<SegmentsResponse> {
    const duration = video.info?.duration ?? null;
    // The service is asked while the database is read: its wait is not added to theirs.
    const fromService = this.serviceSegments(video, title);
    const detection: { state: SegmentDetectionState; found: StoredDetection | null } = this.o.detector
      ? await this.o.detector.detectionOf(video)
      : { state: 'off', found: null };
    const marks = await this.o.repository.marks(video.id, this.versionOf(video));
    const chapters: Segment[] = chapterSegments(video.info?.chapters ?? []).map((s) => ({
      ...s,
      source: 'chapters',
    }));
    const mine: SegmentMark[] = marks
      .filter((m) => viewer !== null && m.userId === viewer)
      .map((m) => ({ type: m.type, start: m.startMs / 1000, end: m.endMs / 1000 }));
    return {
      fileId: video.id,
      duration,
      segments: bestSegments(
        duration,
        chapters,
        detectedSegments(detection.found),
        viewersSegments(marks),
        await fromService,
      ),
      detection: detection.state,
      mine,
    };
  }
}
