import { isStreamQuality, type StreamQuality } from '../core/quality.ts';
import type { Stream } from '@marquee/providers';
import type { CaptionListItem, PlayerSource, SourceFile } from '../core/types.ts';

/** A provider's stream as what the display loads, plus its captions. */
export function playerSourceOf(stream: Stream): {
  source: PlayerSource;
  captions: CaptionListItem[];
  isSample: boolean;
} {
  const captions: CaptionListItem[] = stream.captions.map((c) => ({
    id: c.id,
    language: c.language,
    url: c.url,
    type: c.type,
    needsProxy: c.needsProxy,
    opensubtitles: c.opensubtitles,
  }));
  if (stream.type === 'hls')
    return { source: { type: 'hls', url: stream.playlist }, captions, isSample: stream.isSample === true };
  const qualities: Partial<Record<StreamQuality, SourceFile>> = {};
  for (const [quality, file] of Object.entries(stream.qualities)) {
    if (file && file.url && isStreamQuality(quality)) qualities[quality] = { type: file.type, url: file.url };
  }
  return { source: { type: 'file', qualities }, captions, isSample: stream.isSample === true };
}

/** Host names the extension must prepare before playback (the stream's files or playlist). */
export function streamHosts(stream: Stream): string[] {
  const urls =
    stream.type === 'hls'
      ? [stream.playlist]
      : Object.values(stream.qualities).flatMap((f) => (f ? [f.url] : []));
  return [
    ...new Set(
      urls.flatMap((u) => {
        try {
          return [new URL(u).hostname];
        } catch {
          return [];
        }
      }),
    ),
  ];
}
