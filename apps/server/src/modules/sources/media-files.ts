import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import send from '@fastify/send';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../errors.ts';

/** Content types of what the sources serve (hls.js and Chromium rely on them). */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.m4s': 'video/iso.segment',
  '.vtt': 'text/vtt; charset=utf-8',
  '.srt': 'application/x-subrip; charset=utf-8',
  // ASS scripts for the player's styled renderer (written in UTF-8 by ffmpeg).
  '.ass': 'text/x-ssa; charset=utf-8',
  // Seek thumbnail sprites (modules/media/thumbnails.ts).
  '.jpg': 'image/jpeg',
};

/** Path parameters of a library video's own files (the file, its subtitles, its thumbnails). */
export const libraryFileParams = z.object({
  access: z.string().max(2048),
  fileId: z.string().max(64),
  name: z.string().max(1024),
});

/** Players on other origins read media cross-origin, refusals included (they renew on `media_url_expired`). */
export function allowAnyOrigin(reply: FastifyReply): void {
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
}

export function mediaTypeOf(fileName: string): string | null {
  return MEDIA_TYPES[path.extname(fileName).toLowerCase()] ?? null;
}

export interface SendMediaOptions {
  /** The folder the file is in; `fileName` is one name inside it, never a path. */
  dir: string;
  fileName: string;
  /** The name the content type is read from when it is not `fileName` (a library link's name). */
  typeName?: string;
  cacheControl: string;
}

/**
 * Sends one media file with range requests (206 + Content-Range; 416 when unsatisfiable), ETag and
 * Last-Modified, through @fastify/send. The caller has already decided which file: here only a single name
 * inside one folder is accepted, so a request can never reach outside it.
 */
export async function sendMediaFile(
  request: FastifyRequest,
  reply: FastifyReply,
  o: SendMediaOptions,
): Promise<FastifyReply> {
  const type = mediaTypeOf(o.typeName ?? o.fileName);
  if (!type || o.fileName.includes('/') || o.fileName.includes('\\') || o.fileName.startsWith('.')) {
    throw new AppError(404, 'file_not_found', 'No such media file');
  }
  const result = await send(request.raw, `/${encodeURIComponent(o.fileName)}`, {
    root: o.dir,
    acceptRanges: true,
    etag: true,
    lastModified: true,
    cacheControl: false,
    contentType: false,
    dotfiles: 'deny',
    index: false,
  });
  if (result.type === 'error') {
    result.stream.destroy();
    if (result.statusCode === 416) {
      reply.header('content-range', result.headers['Content-Range'] ?? '');
      throw new AppError(416, 'range_not_satisfiable', 'The requested range is outside the file');
    }
    if (result.statusCode === 404) throw new AppError(404, 'file_not_found', 'No such media file');
    if (result.statusCode === 403) throw new AppError(403, 'forbidden', 'Not a media file');
    throw new AppError(500, 'internal_error', 'Could not read the media file', {
      cause: result.metadata.error,
    });
  }
  if (result.type === 'directory') {
    result.stream.destroy();
    throw new AppError(404, 'file_not_found', 'No such media file');
  }
  reply.status(result.statusCode).headers(result.headers);
  if (result.statusCode !== 304) reply.header('content-type', type);
  reply.header('cache-control', o.cacheControl);
  // Players on other origins (hls.js, the family's clients) read these files cross-origin.
  if (!reply.hasHeader('access-control-allow-origin')) reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', 'Content-Length, Content-Range, Accept-Ranges');
  return reply.send(result.stream);
}

export interface SendOpenedOptions {
  /** The real path the library admitted (links resolved). */
  path: string;
  /** Its inode when it was checked: the file opened must be that one. */
  ino: number;
  /** The name the content type is read from. */
  typeName: string;
  cacheControl: string;
}

/**
 * Opens a library file without following a link in its place (O_NOFOLLOW) and only when the file opened
 * is the one that was checked (same inode): a file swapped for a link, or a folder on its path swapped
 * for one, between the check and the open is refused instead of served (docs/security.md).
 */
export async function openChecked(file: string, ino: number): Promise<FileHandle | null> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => null);
  if (!handle) return null;
  const info = await handle.stat().catch(() => null);
  if (info?.isFile() && info.ino === ino) return handle;
  await handle.close();
  return null;
}

/** One `bytes=` range of a file of `size` bytes; null to send it whole, 'unsatisfiable' for 416. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: the whole file (as @fastify/send does).
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  if (start >= size || !Number.isSafeInteger(start)) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends a library file from a handle opened by `openChecked`: range requests (206, 416), ETag and
 * Last-Modified with their conditional requests (304), If-Range — what `sendMediaFile` does for files
 * found by name, here for a file that must not change between the check and the read.
 */
export async function sendLibraryFile(
  request: FastifyRequest,
  reply: FastifyReply,
  o: SendOpenedOptions,
): Promise<FastifyReply> {
  const type = mediaTypeOf(o.typeName);
  const handle = type ? await openChecked(o.path, o.ino) : null;
  if (!type || !handle) throw new AppError(404, 'file_not_found', 'No such media file');
  let streaming = false;
  try {
    const info = await handle.stat();
    const etag = `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`;
    const lastModified = info.mtime.toUTCString();
    allowAnyOrigin(reply);
    reply
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('last-modified', lastModified)
      .header('cache-control', o.cacheControl)
      .header('access-control-expose-headers', 'Content-Length, Content-Range, Accept-Ranges');
    const headers = request.headers;
    const noneMatch = headers['if-none-match'];
    const modifiedSince = headers['if-modified-since'];
    const notModified =
      noneMatch !== undefined
        ? noneMatch.split(',').some((t) => t.trim() === etag || t.trim() === '*')
        : modifiedSince !== undefined &&
          Math.floor(info.mtimeMs / 1000) <= Math.floor(Date.parse(modifiedSince) / 1000);
    if (notModified) return await reply.status(304).send();
    const ifRange = headers['if-range'];
    const rangeApplies =
      ifRange === undefined ||
      (typeof ifRange === 'string' &&
        (ifRange === etag || Date.parse(ifRange) === Math.floor(info.mtimeMs / 1000) * 1000));
    const range = rangeApplies ? parseRange(headers.range, info.size) : null;
    if (range === 'unsatisfiable') {
      reply.header('content-range', `bytes */${info.size}`);
      throw new AppError(416, 'range_not_satisfiable', 'The requested range is outside the file');
    }
    const { start, end } = range ?? { start: 0, end: info.size - 1 };
    reply
      .status(range ? 206 : 200)
      .header('content-type', type)
      .header('content-length', String(Math.max(0, end - start + 1)));
    if (range) reply.header('content-range', `bytes ${start}-${end}/${info.size}`);
    if (request.method === 'HEAD' || info.size === 0) return await reply.send();
    streaming = true;
    return await reply.send(handle.createReadStream({ start, end, autoClose: true }));
  } finally {
    if (!streaming) await handle.close();
  }
}
