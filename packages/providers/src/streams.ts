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
  /** A forced track (signs, foreign dialogue): listed first. */
  forced?: boolean;
  /** The track's own name in the file (`SDH`, `Commentary`). */
  label?: string;
  /** An ASS/SSA track's own script, for a renderer that draws its styles (`url`: the same as WebVTT). */
  assUrl?: string;
}

/** An audio track of a library title: the active one is what the stream plays; others have their own playlist. */
export interface AudioTrack {
  id: string;
  /** ISO 639-1 where the file's language has one, else the file's code, or `und`. */
  language: string;
  label: string | null;
  channels: number | null;
  codec: string;
  isDefault: boolean;
  active: boolean;
  /** The HLS playlist playing this track instead; null for the active track. */
  playlist: string | null;
}

/**
 * A picture subtitle of a library title (PGS, VobSub), shown by burning it into the picture: a playlist
 * per audio track id (or `default` when the stream lists no audio tracks) plays the title with it.
 */
export interface ImageSubtitle {
  id: string;
  /** ISO 639-1 where the file's language has one, else the file's code, or `und`. */
  language: string;
  label: string | null;
  forced: boolean;
  format: 'pgs' | 'vobsub';
  playlists: Record<string, string>;
}

/** How the server delivers a library file. */
export type Delivery = 'direct' | 'remux' | 'transcode';

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
  /** Audio tracks of a library title (Marquee). */
  audioTracks?: AudioTrack[];
  delivery?: Delivery;
  /** Seek thumbnails made by the server: a WebVTT of sprite tiles (`sprite-0.jpg#xywh=…`). */
  thumbnails?: string;
  /** Picture subtitles of a library title, burned in when chosen (Marquee). */
  imageSubtitles?: ImageSubtitle[];
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
