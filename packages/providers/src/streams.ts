import type { Flag } from './targets.ts';

export type CaptionType = 'srt' | 'vtt';

export interface Caption {
  /** Unique within one stream. */
  id: string;
  /** ISO 639-1 code (`en`, `fr`), or `und` when the source does not say. */
  language: string;
  url: string;
  type: CaptionType;
  /** The caption host does not allow cross-origin reads: fetch it through the proxy or the extension. */
  needsProxy: boolean;
  /** Comes from OpenSubtitles rather than the source itself (listed apart in the player). */
  opensubtitles: boolean;
}

export const qualities = ['4k', '1080', '720', '480', '360', 'unknown'] as const;
export type Quality = (typeof qualities)[number];

export interface StreamFile {
  type: 'mp4' | 'webm';
  url: string;
  headers?: Record<string, string>;
}

interface StreamBase {
  /** Unique within one output. */
  id: string;
  flags: Flag[];
  captions: Caption[];
  /** Headers the stream's host needs (the extension sets them before playback). */
  headers?: Record<string, string>;
  /** Headers that help but are not required. */
  preferredHeaders?: Record<string, string>;
  /** Made by the project (test pattern and tone), not the title itself: the player says so. */
  isSample?: boolean;
}

export interface FileStream extends StreamBase {
  type: 'file';
  qualities: Partial<Record<Quality, StreamFile>>;
}

export interface HlsStream extends StreamBase {
  type: 'hls';
  playlist: string;
}

export type Stream = FileStream | HlsStream;

/** `srt`/`vtt` from a URL or file name (query and fragment ignored), or null for other formats. */
export function captionTypeFromUrl(url: string): CaptionType | null {
  const path = url.split(/[?#]/, 1)[0]!.toLowerCase();
  if (path.endsWith('.srt')) return 'srt';
  if (path.endsWith('.vtt')) return 'vtt';
  return null;
}

/** A stream the player can use: an HLS playlist URL, or at least one file with a URL. */
export function isValidStream(stream: Stream | undefined | null): stream is Stream {
  if (!stream) return false;
  if (stream.type === 'hls') return stream.playlist.length > 0;
  return Object.values(stream.qualities).some((file) => file !== undefined && file.url.length > 0);
}
