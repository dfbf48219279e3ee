import { createHash } from 'node:crypto';
import { z } from 'zod';
import { SEGMENT_TYPES, Segment, segmentMarkProblem } from '@marquee/contract';
import type { LibraryIndex } from '../sources/library-index.ts';

/*
 * The online segment service (decision 111): the least trusted source of a library video's intro, recap,
 * credits and preview, asked only when the operator sets SEGMENTS_SERVICE_URL. It speaks TheIntroDB's
 * API: `GET {base}/media?tmdb_id=…[&season=…&episode=…][&duration_ms=…]`, an optional bearer key, and
 * answers `{tmdb_id, type, intro: [{start_ms, end_ms}], recap, credits, preview}` (404: nothing known).
 * Only the title's TMDB id, the episode's numbers and the runtime leave the server. Answers are kept in
 * the shared metadata cache (every process of the instance reads them), found or not, and a failure
 * is kept briefly too: a season's viewers ask the service once. The segments answer never waits longer
 * than the time limit for it, and never fails because of it.
 */

/** How long the segments answer waits for the service (it answers in well under a second). */
export const SEGMENT_SERVICE_TIMEOUT_MS = 3_000;
/** How long its answers are kept: segments change rarely, a title nobody marked may get some, a failure passes. */
export const SEGMENT_SERVICE_TTL_MS = {
  found: 24 * 3_600_000,
  none: 6 * 3_600_000,
  failed: 10 * 60_000,
} as const;
/** An answer larger than this is not one (four short lists of times). */
const MAX_ANSWER_BYTES = 256 * 1024;

/** What the service is asked about: a film, or an episode of a show, by TMDB id. */
export type ServiceMedia =
  { type: 'movie'; tmdbId: string } | { type: 'tv'; tmdbId: string; season: number; episode: number };

const ServiceEntry = z.object({ start_ms: z.number().nullable(), end_ms: z.number().nullable() });
const ServiceEntries = z.array(ServiceEntry).max(100).nullish();

/** The service's answer (200). Other fields (confidence, counts, the episode's numbers) are not needed. */
export const ServiceAnswer = z.object({
  tmdb_id: z.number().int().positive(),
  type: z.enum(['movie', 'tv']),
  intro: ServiceEntries,
  recap: ServiceEntries,
  credits: ServiceEntries,
  preview: ServiceEntries,
});
export type ServiceAnswer = z.infer<typeof ServiceAnswer>;

/** What is kept in the cache: the segments made of an answer (none when there was none, or a failure). */
const CachedAnswer = z.object({ segments: z.array(Segment).max(SEGMENT_TYPES.length) });

/**
 * The segments of an answer, in seconds within the runtime (`duration`, null: unknown). Of several
 * entries of a type the first that fits is used (in the order the service gives them): `start_ms` null is
 * the start, `end_ms` null the end (unusable when the runtime is unknown); an end past the runtime is
 * cut to it (the service's release may run a little longer); what is then shorter than 3 s, reversed,
 * or longer than a viewer may mark that type (segmentMarkProblem, the contract's rule) is not one.
 */
export function serviceSegments(answer: ServiceAnswer, duration: number | null): Segment[] {
  const out: Segment[] = [];
  for (const type of SEGMENT_TYPES) {
    for (const entry of answer[type] ?? []) {
      const start = (entry.start_ms ?? 0) / 1000;
      const end = entry.end_ms === null ? duration : entry.end_ms / 1000;
      if (end === null) continue;
      const cut = duration === null ? end : Math.min(end, duration);
      if (segmentMarkProblem(type, start, cut, duration ?? Number.POSITIVE_INFINITY) !== null) continue;
      out.push({ type, start, end: cut, source: 'service' });
      break;
    }
  }
  return out;
}

const episodeMaps = new WeakMap<
  Pick<LibraryIndex, 'shows'>,
  Map<string, { season: number; episode: number }>
>();

/**
 * The season and episode numbers of a library file, as the index files it under its show (the first of
 * a multi-episode file's); null for a film or a file not in the index. Mapped once per index.
 */
export function episodeOf(
  index: Pick<LibraryIndex, 'shows'>,
  fileId: string,
): { season: number; episode: number } | null {
  let map = episodeMaps.get(index);
  if (!map) {
    map = new Map();
    for (const show of index.shows)
      for (const [key, videos] of show.episodes) {
        const [season, episode] = key.split(':').map(Number) as [number, number];
        for (const video of videos) {
          const known = map.get(video.id);
          if (!known || season < known.season || (season === known.season && episode < known.episode))
            map.set(video.id, { season, episode });
        }
      }
    episodeMaps.set(index, map);
  }
  return map.get(fileId) ?? null;
}

/** The shared cache the answers are kept in (the metadata cache's table: MetadataCacheRepository). */
export interface ServiceCache {
  get(key: string, now: number): Promise<string | undefined>;
  set(key: string, value: string, expiresAt: number): Promise<void>;
}

export type ServiceLog = (level: 'warn' | 'debug', message: string, details: object) => void;

export interface SegmentServiceOptions {
  /** SEGMENTS_SERVICE_URL, e.g. `https://api.theintrodb.org/v3`. */
  baseUrl: string;
  /** SEGMENTS_SERVICE_KEY: sent as a bearer token, never logged. */
  apiKey?: string | undefined;
  cache: ServiceCache;
  /** Epoch ms. */
  now: () => number;
  log: ServiceLog;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** What one call to the service came to, and how long to keep it. */
interface Outcome {
  segments: Segment[];
  ttlMs: number;
}

const failed: Outcome = { segments: [], ttlMs: SEGMENT_SERVICE_TTL_MS.failed };

/**
 * Asks the operator's segment service for a file's segments, through the shared cache, one call at a
 * time per title, episode and runtime in this process. Never throws: a service that is slow, down or
 * answers nonsense gives no segments (a warning the first time, until it answers well again).
 */
export class SegmentServiceClient {
  private readonly baseUrl: string;
  private readonly keyPrefix: string;
  private readonly fetch: typeof fetch;
  private readonly inFlight = new Map<string, Promise<Segment[]>>();
  /** Kinds of trouble already warned about (a failing service is not logged at every request). */
  private readonly warned = new Set<string>();

  constructor(private readonly o: SegmentServiceOptions) {
    this.baseUrl = o.baseUrl.replace(/\/+$/, '');
    // Another service (URL) keeps answers of its own.
    const service = createHash('sha256').update(this.baseUrl).digest('hex').slice(0, 12);
    this.keyPrefix = `segment-service:${service}`;
    this.fetch = o.fetch ?? globalThis.fetch;
  }

  /** The service's segments of a video (seconds within `duration`), [] when it has none or fails. */
  segments(media: ServiceMedia, duration: number | null): Promise<Segment[]> {
    const durationMs = duration === null ? null : Math.round(duration * 1000);
    const where = media.type === 'tv' ? `:${media.season}:${media.episode}` : '';
    const key = `${this.keyPrefix}:${media.type}:${media.tmdbId}${where}:${durationMs ?? ''}`;
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.lookup(key, media, duration, durationMs)
        .catch((error: unknown) => {
          this.warnOnce('error', 'segments: the segment service lookup failed', { err: error, ...media });
          return [];
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private async lookup(
    key: string,
    media: ServiceMedia,
    duration: number | null,
    durationMs: number | null,
  ): Promise<Segment[]> {
    const cached = await this.cached(key);
    if (cached) return cached;
    const outcome = await this.ask(media, duration, durationMs);
    await this.o.cache
      .set(key, JSON.stringify({ segments: outcome.segments }), this.o.now() + outcome.ttlMs)
      .catch((error: unknown) =>
        this.warnOnce('cache', 'segments: could not keep the segment service’s answer', { err: error }),
      );
    return outcome.segments;
  }

  private async cached(key: string): Promise<Segment[] | null> {
    try {
      const text = await this.o.cache.get(key, this.o.now());
      if (text === undefined) return null;
      const parsed = CachedAnswer.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.segments : null;
    } catch (error) {
      this.warnOnce('cache', 'segments: could not read the segment service’s kept answers', { err: error });
      return null;
    }
  }

  private urlOf(media: ServiceMedia, durationMs: number | null): string {
    const query = new URLSearchParams({ tmdb_id: media.tmdbId });
    if (media.type === 'tv') {
      query.set('season', String(media.season));
      query.set('episode', String(media.episode));
    }
    if (durationMs !== null) query.set('duration_ms', String(durationMs));
    return `${this.baseUrl}/media?${query}`;
  }

  /** One call: 200 → its segments (24 h), 404 → none (6 h), anything else → none for 10 minutes. */
  private async ask(
    media: ServiceMedia,
    duration: number | null,
    durationMs: number | null,
  ): Promise<Outcome> {
    let status: number;
    let text: string;
    try {
      const response = await this.fetch(this.urlOf(media, durationMs), {
        headers: {
          accept: 'application/json',
          'user-agent': 'Marquee',
          ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
        },
        signal: AbortSignal.timeout(this.o.timeoutMs ?? SEGMENT_SERVICE_TIMEOUT_MS),
      });
      status = response.status;
      if (status !== 200 || Number(response.headers.get('content-length')) > MAX_ANSWER_BYTES) {
        await response.body?.cancel().catch(() => {});
        text = '';
      } else text = await response.text();
    } catch (error) {
      this.warnOnce('unreachable', 'segments: the segment service did not answer in time', {
        err: error instanceof Error ? error.message : String(error),
        ...media,
      });
      return failed;
    }
    if (status === 404) return this.answered({ segments: [], ttlMs: SEGMENT_SERVICE_TTL_MS.none });
    if (status !== 200) {
      this.warnOnce('status', 'segments: the segment service refused', { status, ...media });
      return failed;
    }
    const answer = this.parse(text, media);
    if (!answer) return failed;
    const segments = serviceSegments(answer, duration);
    return this.answered({ segments, ttlMs: SEGMENT_SERVICE_TTL_MS.found });
  }

  /** The answer when it is one about the title asked for; null (warned) otherwise. */
  private parse(text: string, media: ServiceMedia): ServiceAnswer | null {
    let json: unknown;
    try {
      json = text.length > MAX_ANSWER_BYTES ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = ServiceAnswer.safeParse(json);
    const isAbout =
      parsed.success && String(parsed.data.tmdb_id) === media.tmdbId && parsed.data.type === media.type;
    if (isAbout) return parsed.data;
    this.warnOnce('answer', 'segments: the segment service’s answer is not one it gives; ignored', {
      ...media,
      problem: parsed.success ? 'about another title' : parsed.error.issues.slice(0, 3),
    });
    return null;
  }

  /** A good answer: the next trouble is warned about again. */
  private answered(outcome: Outcome): Outcome {
    this.warned.clear();
    return outcome;
  }

  private warnOnce(kind: string, message: string, details: object): void {
    const level = this.warned.has(kind) ? 'debug' : 'warn';
    this.warned.add(kind);
    this.o.log(level, message, details);
  }
}
