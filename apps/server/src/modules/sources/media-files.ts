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
