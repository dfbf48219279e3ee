import type { PlayerSource } from '../core/types.ts';

/**
 * One cue of a thumbnail track (WebVTT whose cues name an image, usually a tile of a sprite:
 * `sprite-0.jpg#xywh=320,0,320,180`), as the server's seek thumbnails describe them (decision 086).
 */
export interface ThumbnailCue {
  /** Seconds. */
  start: number;
  end: number;
  /** The image, absolute, without the fragment. */
  url: string;
  /** The tile inside the image, or null for the whole image. */
  tile: { x: number; y: number; width: number; height: number } | null;
}

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}[.,]\d{3})/;
/** Media fragment `xywh=x,y,w,h` (or `xywh=pixel:…`). */
const XYWH = /(?:^|&)xywh=(?:pixel:)?(\d+),(\d+),(\d+),(\d+)(?:&|$)/;

function seconds(time: string): number {
  const parts = time.replace(',', '.').split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/**
 * The cues of a thumbnail track, image URLs resolved against the track's own URL. Only http(s) images
 * are kept; cues without a timing line or an image are skipped; text that is not WebVTT has none.
 */
export function parseThumbnailTrack(text: string, trackUrl: string): ThumbnailCue[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  if (!/^WEBVTT(?:[ \t]|$)/.test(lines[0] ?? '')) return [];
  const cues: ThumbnailCue[] = [];
  for (let i = 1; i < lines.length; i++) {
    const timing = TIMING.exec(lines[i]!);
    if (!timing) continue;
    const payload = lines[i + 1]?.trim();
    if (!payload) continue;
    i += 1;
    let url: URL;
    try {
      url = new URL(payload, trackUrl);
    } catch {
      continue;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') continue;
    const fragment = XYWH.exec(url.hash.slice(1));
    url.hash = '';
    const start = seconds(timing[1]!);
    const end = seconds(timing[2]!);
    if (!(end > start)) continue;
    cues.push({
      start,
      end,
      url: url.href,
      tile: fragment
        ? {
            x: Number(fragment[1]),
            y: Number(fragment[2]),
            width: Number(fragment[3]),
            height: Number(fragment[4]),
          }
        : null,
    });
  }
  return cues;
}

/** The cues by image, images in the order the track first names them (one download each). */
export function cuesByImage(cues: readonly ThumbnailCue[]): Map<string, ThumbnailCue[]> {
  const byImage = new Map<string, ThumbnailCue[]>();
  for (const cue of cues) {
    const list = byImage.get(cue.url);
    if (list) list.push(cue);
    else byImage.set(cue.url, [cue]);
  }
  return byImage;
}

/** The server's thumbnail track of a source (a library stream's `thumbnails`), when it has one. */
export function thumbnailTrackOf(source: PlayerSource): string | null {
  return source.thumbnails || null;
}
