import { imageSubtitleKey } from '../core/image-subtitles.ts';
import { isStreamQuality, type StreamQuality } from '../core/quality.ts';
import type { Stream } from '@marquee/providers';
import type {
  AudioTrackItem,
  CaptionListItem,
  ImageSubtitleItem,
  PlayerSource,
  SourceFile,
} from '../core/types.ts';

/** A source's audio tracks and the one it plays (the store's `setSource` option). */
export interface SourceAudioTracks {
  tracks: AudioTrackItem[];
  activeId: string | null;
}

/**
 * A source's picture subtitles, the one burned into what it plays (null: none), and what plays the same
 * audio track without one (the store's `setSource` option).
 */
export interface SourceImageSubtitles {
  items: ImageSubtitleItem[];
  activeId: string | null;
  plain: PlayerSource;
}

/** What the display loads for a stream, its captions, audio tracks and picture subtitles. */
export interface FoundSource {
  source: PlayerSource;
  captions: CaptionListItem[];
  isSample: boolean;
  audioTracks: SourceAudioTracks;
  imageSubtitles: SourceImageSubtitles;
}

/** A library stream's picture subtitles, each an HLS playlist per audio track (a conversion). */
function imageSubtitlesOf(stream: Stream): ImageSubtitleItem[] {
  const thumbnails = stream.thumbnails ? { thumbnails: stream.thumbnails } : {};
  return (stream.imageSubtitles ?? []).map((s) => ({
    id: s.id,
    language: s.language,
    label: s.label,
    forced: s.forced,
    sources: Object.fromEntries(
      Object.entries(s.playlists).map(([key, url]): [string, PlayerSource] => [
        key,
        { type: 'hls', url, conversion: true, ...thumbnails },
      ]),
    ),
  }));
}

/**
 * A library stream's audio tracks: the active one plays `source` itself, every other one its own HLS
 * playlist; a track that is neither (no playlist) cannot be offered. Other streams have none.
 */
function audioTracksOf(stream: Stream, source: PlayerSource): SourceAudioTracks {
  const tracks: AudioTrackItem[] = [];
  let activeId: string | null = null;
  for (const t of stream.audioTracks ?? []) {
    const thumbnails = stream.thumbnails ? { thumbnails: stream.thumbnails } : {};
    const own: PlayerSource | null = t.active
      ? source
      : t.playlist
        ? { type: 'hls', url: t.playlist, conversion: true, ...thumbnails }
        : null;
    if (!own) continue;
    if (t.active) activeId = t.id;
    tracks.push({
      id: t.id,
      language: t.language,
      label: t.label,
      channels: t.channels,
      isDefault: t.isDefault,
      source: own,
    });
  }
  return { tracks, activeId };
}

/** A provider's stream as what the display loads, plus its captions (forced and labelled ones as such). */
export function playerSourceOf(stream: Stream): FoundSource {
  const captions: CaptionListItem[] = stream.captions.map((c) => ({
    id: c.id,
    language: c.language,
    url: c.url,
    type: c.type,
    needsProxy: c.needsProxy,
    opensubtitles: c.opensubtitles,
    ...(c.forced ? { forced: true } : {}),
    ...(c.label ? { label: c.label } : {}),
    ...(c.assUrl ? { assUrl: c.assUrl } : {}),
  }));
  const isSample = stream.isSample === true;
  let source: PlayerSource;
  const thumbnails = stream.thumbnails ? { thumbnails: stream.thumbnails } : {};
  const conversion = stream.delivery === 'remux' || stream.delivery === 'transcode';
  if (stream.type === 'hls')
    source = { type: 'hls', url: stream.playlist, ...thumbnails, ...(conversion ? { conversion } : {}) };
  else {
    const qualities: Partial<Record<StreamQuality, SourceFile>> = {};
    for (const [quality, file] of Object.entries(stream.qualities)) {
      if (file && file.url && isStreamQuality(quality))
        qualities[quality] = { type: file.type, url: file.url };
    }
    source = { type: 'file', qualities, ...thumbnails };
  }
  return {
    source,
    captions,
    isSample,
    audioTracks: audioTracksOf(stream, source),
    imageSubtitles: { items: imageSubtitlesOf(stream), activeId: null, plain: source },
  };
}

/**
 * The same stream found again (fresh URLs) playing the audio track the viewer chose, when it has that
 * track and plays another one by default.
 */
export function withAudioTrack(found: FoundSource, trackId: string | null): FoundSource {
  const { tracks, activeId } = found.audioTracks;
  const chosen = trackId === activeId ? undefined : tracks.find((t) => t.id === trackId);
  if (!chosen) return found;
  return {
    ...found,
    source: chosen.source,
    audioTracks: { tracks, activeId: chosen.id },
    imageSubtitles: { ...found.imageSubtitles, plain: chosen.source },
  };
}

/**
 * The same stream found again (fresh URLs) with the picture subtitle the viewer chose burned in, for the
 * audio track it plays (apply `withAudioTrack` first); as it is when it has no such subtitle.
 */
export function withImageSubtitle(found: FoundSource, subtitleId: string | null): FoundSource {
  const item = found.imageSubtitles.items.find((s) => s.id === subtitleId);
  const burned = item?.sources[imageSubtitleKey(found.audioTracks.activeId)];
  if (!item || !burned) return found;
  return { ...found, source: burned, imageSubtitles: { ...found.imageSubtitles, activeId: item.id } };
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
