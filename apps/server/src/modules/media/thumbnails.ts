import { execFile } from 'node:child_process';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sourcePaths, type EndpointErrors } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { JobKindOptions, JobQueue } from '../jobs/job-queue.ts';
import { JobFile } from './job-file.ts';
import { allowAnyOrigin, libraryFileParams, sendMediaFile } from '../sources/media-files.ts';

const run = promisify(execFile);

/*
 * Seek thumbnails made on the server (issue 24, decision 086), Jellyfin's trickplay defaults: one frame
 * every 10 s, 320 px wide, tiled 10×10 into JPEG sprites, described by a WebVTT file whose cues point at
 * tiles (`sprite-0.jpg#xywh=320,0,320,180`). Made once per version of a file by a background job, at low
 * priority, one at a time; kept under `<TRANSCODE_DIR>/thumbnails/<fileId>-<size>-<mtime>/`.
 */

export const THUMBNAIL_INTERVAL_S = 10;
export const THUMBNAIL_WIDTH = 320;
export const SPRITE_COLUMNS = 10;
export const SPRITE_ROWS = 10;
const PER_SPRITE = SPRITE_COLUMNS * SPRITE_ROWS;
export const THUMBNAILS_JOB = 'thumbnails';
export const THUMBNAILS_VTT = 'thumbnails.vtt';
/** The path of a video's thumbnail track (or of one of its sprites) under its access token (decision 071). */
export const thumbnailsPath = (access: string, fileId: string, name = THUMBNAILS_VTT) =>
  sourcePaths.libraryThumbnails
    .replace(':access', access)
    .replace(':fileId', encodeURIComponent(fileId))
    .replace(':name', name);
/** The only names served: the track and its sprites. */
const SERVED_NAME = /^(?:thumbnails\.vtt|sprite-\d{1,5}\.jpg)$/;

/** One version of a library video: what the job needs, all of it from the server's own index. */
export interface ThumbnailSource {
  /** The library file id. */
  id: string;
  /** The file's real path. */
  path: string;
  size: number;
  mtimeMs: number;
  /** Seconds (the probe's). */
  duration: number;
}

/** The job's data (it may sit in Redis: checked again before anything runs). */
const ThumbnailJobData = JobFile;
export type ThumbnailJobData = z.infer<typeof ThumbnailJobData>;

/** A library index entry (a LibraryVideo, or a LibrarySubtitle, which has none), as the routes get it. */
export interface IndexedFile {
  kind: string;
  id: string;
  path: string;
  size?: number;
  mtimeMs?: number;
  info?: { duration: number | null; video?: unknown } | null;
}

/** A library video as a thumbnail source, when it can have thumbnails (a picture and a duration). */
export function thumbnailSourceOf(file: IndexedFile): ThumbnailSource | null {
  const duration = file.info?.duration ?? 0;
  const { size, mtimeMs } = file;
  if (file.kind !== 'video' || !file.info?.video || !(duration > 0)) return null;
  if (size === undefined || mtimeMs === undefined) return null;
  return { id: file.id, path: file.path, size, mtimeMs, duration };
}

/** The folder name of one version of a file: a changed file gets new thumbnails. */
const versionKey = (fileId: string, size: number, mtime: number) => `${fileId}-${size}-${mtime}`;

/** How many thumbnails a video of `duration` seconds has: one per started 10 s. */
export const thumbnailCount = (duration: number) => Math.max(1, Math.ceil(duration / THUMBNAIL_INTERVAL_S));

/**
 * ffmpeg's arguments: the first video stream that is not a cover picture, one frame every 10 s scaled to
 * 320 px wide, tiled into sprites `sprite-0.jpg`, `sprite-1.jpg` … in `outDir`. Nothing from a request.
 */
export function thumbnailArgs(input: string, outDir: string, threads: number): string[] {
  const pattern = path.join(outDir.replaceAll('%', '%%'), 'sprite-%d.jpg');
  return [
    '-nostdin',
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-threads',
    String(threads),
    '-i',
    `file:${input}`,
    '-map',
    '0:V:0',
    '-an',
    '-sn',
    '-dn',
    '-vf',
    `fps=1/${THUMBNAIL_INTERVAL_S},scale=${THUMBNAIL_WIDTH}:-2,tile=${SPRITE_COLUMNS}x${SPRITE_ROWS}`,
    '-threads',
    String(threads),
    '-q:v',
    '4',
    '-f',
    'image2',
    '-start_number',
    '0',
    `file:${pattern}`,
  ];
}

const timestamp = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
};

/** The WebVTT track: cue `k` covers [10k, 10k+10) (the last ends with the video) and shows tile `k`. */
export function thumbnailsVtt(
  count: number,
  tile: { width: number; height: number },
  duration: number,
): string {
  const lines = ['WEBVTT', ''];
  for (let k = 0; k < count; k++) {
    const start = k * THUMBNAIL_INTERVAL_S;
    const end = k === count - 1 ? Math.max(duration, start + 0.001) : start + THUMBNAIL_INTERVAL_S;
    const cell = k % PER_SPRITE;
    const x = (cell % SPRITE_COLUMNS) * tile.width;
    const y = Math.floor(cell / SPRITE_COLUMNS) * tile.height;
    lines.push(
      `${timestamp(start)} --> ${timestamp(end)}`,
      `sprite-${Math.floor(k / PER_SPRITE)}.jpg#xywh=${x},${y},${tile.width},${tile.height}`,
      '',
    );
  }
  return lines.join('\n');
}

/** Width and height of a JPEG, from its first start-of-frame marker; null when it is not one. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
    // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {
        height: (bytes[at + 5]! << 8) | bytes[at + 6]!,
        width: (bytes[at + 7]! << 8) | bytes[at + 8]!,
      };
    }
    at += 2 + length;
  }
  return null;
}

async function readHead(file: string, length: number): Promise<Uint8Array> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

export interface ThumbnailsOptions {
  jobs: JobQueue;
  /** FFMPEG_PATH. */
  ffmpeg: string;
  /** The conversions' folder (TRANSCODE_DIR, default `<DATA_DIR>/transcodes`); thumbnails go in `thumbnails/`. */
  workDir: string;
  /** Thumbnail jobs at once (on Redis: across the processes). Default 1. */
  concurrency?: number;
  /** ffmpeg threads per job. Default 1 (Jellyfin's): thumbnails never compete with playback. */
  threads?: number;
  /** Runs ffmpeg under `nice -n 19` when `nice` is there. Default true. */
  nice?: boolean;
  /** The job's retry settings (default: 2 attempts, 1 min apart, a failed file tried again after a day). */
  retry?: Pick<JobKindOptions, 'attempts' | 'backoffMs' | 'failedCooldownMs'>;
  log?: (level: 'info' | 'warn', message: string, details: object) => void;
}

/**
 * The server's seek thumbnails: `thumbnailsFor` says whether a video's are made, `enqueueThumbnails`
 * queues the job that makes them (once per version of the file, across processes with Redis).
 */
export class Thumbnails {
  readonly root: string;
  private niceAvailable: Promise<boolean> | undefined;

  constructor(private readonly o: ThumbnailsOptions) {
    this.root = path.join(o.workDir, 'thumbnails');
    o.jobs.register<ThumbnailJobData>(THUMBNAILS_JOB, (data, context) => this.make(data, context.signal), {
      concurrency: o.concurrency ?? 1,
      attempts: 2,
      backoffMs: 60_000,
      failedCooldownMs: 24 * 3600_000,
      ...o.retry,
    });
  }

  /** The folder of this version of the file, and whether its thumbnails are there. */
  async thumbnailsFor(file: ThumbnailSource): Promise<{ ready: boolean; dir: string }> {
    const dir = path.join(this.root, versionKey(file.id, file.size, Math.round(file.mtimeMs)));
    return { ready: await exists(path.join(dir, THUMBNAILS_VTT)), dir };
  }

  /** Queues the job for this version of the file (nothing when it is queued or running already). */
  async enqueueThumbnails(file: ThumbnailSource): Promise<void> {
    const data: ThumbnailJobData = {
      fileId: file.id,
      path: file.path,
      size: file.size,
      mtime: Math.round(file.mtimeMs),
      duration: file.duration,
    };
    await this.o.jobs.enqueue(THUMBNAILS_JOB, data, { id: versionKey(data.fileId, data.size, data.mtime) });
  }

  /**
   * Whether the thumbnails can be offered now; when not, their job is queued in the background (a scrape
   * never waits for the queue, nor fails with it).
   */
  async ensure(file: ThumbnailSource): Promise<boolean> {
    const { ready } = await this.thumbnailsFor(file);
    if (!ready)
      this.enqueueThumbnails(file).catch((error: unknown) =>
        this.o.log?.('warn', 'thumbnails: could not queue the job', { err: error, file: file.id }),
      );
    return ready;
  }

  private nice(): Promise<boolean> {
    if (this.o.nice === false) return Promise.resolve(false);
    return (this.niceAvailable ??= run('nice', ['-n', '19', 'true'], { timeout: 5_000 }).then(
      () => true,
      () => false,
    ));
  }

  /** The job: ffmpeg writes the sprites into a `.part` folder, then the track is written and it is renamed. */
  private async make(input: ThumbnailJobData, signal: AbortSignal): Promise<void> {
    const data = ThumbnailJobData.parse(input);
    const key = versionKey(data.fileId, data.size, data.mtime);
    const dir = path.join(this.root, key);
    if (await exists(path.join(dir, THUMBNAILS_VTT))) return;
    // The file changed since the job was queued: that version's thumbnails will never be asked for.
    const now = await stat(data.path).catch(() => null);
    if (!now || now.size !== data.size || Math.round(now.mtimeMs) !== data.mtime) return;
    const part = `${dir}.part`;
    await rm(part, { recursive: true, force: true });
    await mkdir(part, { recursive: true });
    const started = Date.now();
    try {
      const args = thumbnailArgs(data.path, part, this.o.threads ?? 1);
      const nice = await this.nice();
      await run(nice ? 'nice' : this.o.ffmpeg, nice ? ['-n', '19', this.o.ffmpeg, ...args] : args, {
        signal,
        killSignal: 'SIGKILL',
        // A long film decodes for a while at one thread; past this something is wrong with it.
        timeout: Math.max(30 * 60_000, data.duration * 2_000),
        maxBuffer: 1024 * 1024,
      });
      const sprites = (await readdir(part)).filter((name) => /^sprite-\d+\.jpg$/.test(name)).length;
      const size = sprites > 0 ? jpegSize(await readHead(path.join(part, 'sprite-0.jpg'), 64 * 1024)) : null;
      if (!size) throw new Error('ffmpeg wrote no thumbnails');
      const tile = { width: size.width / SPRITE_COLUMNS, height: size.height / SPRITE_ROWS };
      const count = Math.min(thumbnailCount(data.duration), sprites * PER_SPRITE);
      await writeFile(path.join(part, THUMBNAILS_VTT), thumbnailsVtt(count, tile, data.duration));
      await rename(part, dir).catch(async (error: unknown) => {
        // Made meanwhile by another run (the same version): keep that one.
        if (!(await exists(path.join(dir, THUMBNAILS_VTT)))) throw error;
      });
      this.o.log?.('info', 'thumbnails made', { file: data.fileId, sprites, ms: Date.now() - started });
      await this.removeOtherVersions(data.fileId, key);
    } finally {
      await rm(part, { recursive: true, force: true });
    }
  }

  /** Thumbnails of the file's earlier versions are of no use any more. */
  private async removeOtherVersions(fileId: string, keep: string): Promise<void> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const stale = names.filter(
      (name) => name !== keep && name.startsWith(`${fileId}-`) && !name.endsWith('.part'),
    );
    await Promise.all(stale.map((name) => rm(path.join(this.root, name), { recursive: true, force: true })));
  }
}

const thumbnailErrors = {
  400: ['validation_failed'],
  401: ['login_required'],
  402: ['membership_required'],
  403: ['forbidden', 'media_url_invalid', 'media_url_expired'],
  404: ['file_not_found'],
  416: ['range_not_satisfiable'],
  451: ['media_removed'],
} as const satisfies EndpointErrors;

export interface ThumbnailRouteDeps {
  thumbnails: Thumbnails;
  /**
   * Checks the access token for this file on every request (decision 071: signature, expiry, takedown,
   * membership — it throws the refusal) and answers the Cache-Control of the answer.
   */
  authorize(fileId: string, access: string): Promise<{ cacheControl: string }>;
  /** The library file by id (a 404 AppError when there is none). */
  libraryFile(fileId: string): Promise<IndexedFile>;
}

/**
 * `GET /api/sources/library/:access/:fileId/thumbnails/:name`: a video's `thumbnails.vtt` and its
 * `sprite-<n>.jpg`, once made (404 before), behind the video's own access token.
 */
export function registerThumbnailRoutes(app: FastifyInstance, deps: ThumbnailRouteDeps): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    sourcePaths.libraryThumbnails,
    {
      config: { documentedErrors: thumbnailErrors },
      schema: {
        tags: ['sources'],
        summary:
          'Seek thumbnails of a library video (WebVTT of JPEG sprite tiles), behind a signed access token',
        params: libraryFileParams,
      },
    },
    async (request, reply) => {
      allowAnyOrigin(reply);
      const { access, fileId, name } = request.params;
      const { cacheControl } = await deps.authorize(fileId, access);
      const notFound = () => new AppError(404, 'file_not_found', 'No such thumbnails');
      if (!SERVED_NAME.test(name)) throw notFound();
      const source = thumbnailSourceOf(await deps.libraryFile(fileId));
      if (!source) throw notFound();
      const { ready, dir } = await deps.thumbnails.thumbnailsFor(source);
      if (!ready) throw notFound();
      return sendMediaFile(request, reply, { dir, fileName: name, cacheControl });
    },
  );
}
