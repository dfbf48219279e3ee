import {
  flags,
  makeSourcerer,
  NotFoundError,
  ProviderRefusal,
  qualities,
  type AudioTrack,
  type Caption,
  type ImageSubtitle,
  type ScrapeMedia,
  type Sourcerer,
  type Stream,
  type StreamFile,
} from '@marquee/providers';
import { isoLanguage } from '../media/language.ts';
import type { MediaInfo } from '../media/media-info.ts';
import {
  decidePlayback,
  hlsVariants,
  audioModeFor,
  type DeviceCodecs,
  type HlsPlan,
  type PlaybackDecision,
} from '../media/playback-plan.ts';
import { findMedia, type LibraryIndexer, type LibrarySubtitle, type LibraryVideo } from './library-index.ts';

export const LIBRARY_SOURCE_ID = 'library';

/** The URLs of a library file for the player, signed for this scrape's viewer (decision 071). */
export interface LibraryUrls {
  /** The file itself, with range requests. */
  file(file: LibraryVideo | LibrarySubtitle): string;
  /** The master playlist of an HLS delivery whose first rendition is `plan`. */
  hls(video: LibraryVideo, plan: HlsPlan): string;
  /** WebVTT of an embedded text subtitle stream (`index`), or of a whole subtitle file (`index` null). */
  subtitle(file: LibraryVideo | LibrarySubtitle, index: number | null): string;
  /** The ASS script of an embedded ASS/SSA stream (`index`), or of an ASS/SSA file (`index` null). */
  ass?(file: LibraryVideo | LibrarySubtitle, index: number | null): string;
  /** The seek thumbnails of a video when they are made (the first play asks for them). */
  thumbnails?(video: LibraryVideo): Promise<string | undefined>;
}

/** What this scrape's device plays and what this server can convert. */
export interface LibraryDevice {
  codecs: DeviceCodecs;
  audioLanguage?: string | undefined;
  /** ffmpeg runs here: remux and transcode are possible. */
  canConvert: boolean;
  /** Video transcodes are allowed (TRANSCODE_MAX > 0). */
  canTranscode?: boolean;
}

const UNPLAYABLE_REASONS = {
  no_ffmpeg: "this browser cannot play the file's format and the server has no ffmpeg to convert it",
  no_video: 'the file holds no picture',
  unsupported_codec: "the file's video format cannot be converted by this server",
  no_transcode: "this browser cannot play the file's picture and this server does not transcode video",
} as const;

/** Subtitles of the files of a title: forced tracks first, then by language; every one as a caption. */
function captionsOf(files: readonly LibraryVideo[], urls: LibraryUrls, canConvert: boolean): Caption[] {
  const captions: Caption[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    for (const stream of file.info?.subtitles ?? []) {
      if (stream.kind !== 'text' || !canConvert) continue;
      const id = `library-${file.id}-${stream.index}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const styled = (stream.codec === 'ass' || stream.codec === 'ssa') && urls.ass;
      captions.push({
        id,
        language: isoLanguage(stream.language),
        url: urls.subtitle(file, stream.index),
        type: 'vtt',
        needsProxy: false,
        opensubtitles: false,
        ...(stream.isForced ? { forced: true } : {}),
        ...(stream.title ? { label: stream.title } : {}),
        // Its own styling, drawn by the player's ASS renderer (the WebVTT above is the fallback).
        ...(styled ? { assUrl: urls.ass!(file, stream.index) } : {}),
      });
    }
    for (const subtitle of file.subtitles) {
      if (seen.has(subtitle.id)) continue;
      const text = subtitle.format === 'srt' || subtitle.format === 'vtt';
      const styled = subtitle.format === 'ass' || subtitle.format === 'ssa';
      if (!text && !(styled && canConvert)) continue;
      seen.add(subtitle.id);
      captions.push({
        id: `library-${subtitle.id}`,
        language: subtitle.language,
        url: text ? urls.file(subtitle) : urls.subtitle(subtitle, null),
        type: text ? subtitle.type : 'vtt',
        needsProxy: false,
        opensubtitles: false,
        ...(subtitle.forced ? { forced: true } : {}),
        ...(subtitle.label ? { label: subtitle.label } : {}),
        ...(styled && canConvert && urls.ass ? { assUrl: urls.ass(subtitle, null) } : {}),
      });
    }
  }
  return captions.sort((a, b) => Number(b.forced ?? false) - Number(a.forced ?? false));
}

function audioTracksOf(
  video: LibraryVideo,
  info: MediaInfo,
  decision: PlaybackDecision,
  device: LibraryDevice,
  urls: LibraryUrls,
): AudioTrack[] | undefined {
  if (decision.delivery === 'unplayable' || info.audio.length < 2 || !info.video) return undefined;
  const copy = decision.delivery === 'direct' || decision.variants[0]?.plan.video === 'copy';
  return info.audio.map((track) => {
    const active = track.index === decision.audioIndex;
    let playlist: string | null = null;
    if (!active && device.canConvert) {
      const variants = hlsVariants(info, info.video!, {
        copy: copy && decision.delivery !== 'transcode',
        audio: audioModeFor(device.codecs, track),
      });
      playlist = urls.hls(video, variants[0]!.plan);
    }
    return {
      id: String(track.index),
      language: isoLanguage(track.language),
      label: track.title,
      channels: track.channels || null,
      codec: track.codec,
      isDefault: track.isDefault,
      active,
      playlist,
    };
  });
}

/** The picture subtitle formats a transcode burns in, by ffprobe's codec name. */
const IMAGE_SUBTITLE_FORMATS: Readonly<Record<string, ImageSubtitle['format']>> = {
  hdmv_pgs_subtitle: 'pgs',
  dvd_subtitle: 'vobsub',
};

/**
 * The picture subtitles of the file a stream plays, each burned into a transcode at the stream's top
 * height when chosen (decision 085): a playlist per audio track the stream lists (by its id), else one
 * (`default`) with the track the stream plays. Only where video transcodes are allowed; forced first.
 */
function imageSubtitlesOf(
  video: LibraryVideo,
  info: MediaInfo,
  decision: PlaybackDecision,
  audioTracks: readonly AudioTrack[] | undefined,
  device: LibraryDevice,
  urls: LibraryUrls,
): ImageSubtitle[] | undefined {
  if (!device.canConvert || device.canTranscode === false || !info.video) return undefined;
  if (decision.delivery === 'unplayable') return undefined;
  const burnable = info.subtitles.filter((s) => s.kind === 'image' && IMAGE_SUBTITLE_FORMATS[s.codec]);
  if (burnable.length === 0) return undefined;
  const byIndex = (index: number | null) => info.audio.find((a) => a.index === index) ?? null;
  const audio: [string, MediaInfo['audio'][number] | null][] = audioTracks
    ? audioTracks.map((t) => [t.id, byIndex(Number(t.id))])
    : [['default', byIndex(decision.audioIndex)]];
  const subtitles = burnable.map((stream) => {
    const playlists: Record<string, string> = {};
    for (const [key, track] of audio) {
      const variants = hlsVariants(info, info.video!, {
        copy: false,
        audio: track ? audioModeFor(device.codecs, track) : null,
        burn: stream.index,
      });
      playlists[key] = urls.hls(video, variants[0]!.plan);
    }
    return {
      id: `library-${video.id}-${stream.index}`,
      language: isoLanguage(stream.language),
      label: stream.title,
      forced: stream.isForced,
      format: IMAGE_SUBTITLE_FORMATS[stream.codec]!,
      playlists,
    };
  });
  return subtitles.sort((a, b) => Number(b.forced) - Number(a.forced));
}

/** A title whose files were not probed (no ffprobe): every version as a file, as its content says. */
function unprobedStream(
  files: readonly LibraryVideo[],
  urls: LibraryUrls,
  canConvert: boolean,
): Stream | null {
  const playable = files.filter((f) => f.format === 'mp4' || f.format === 'matroska');
  if (playable.length === 0) return null;
  const ordered = [...playable].sort((a, b) => Number(a.format !== 'mp4') - Number(b.format !== 'mp4'));
  const byQuality: Partial<Record<(typeof qualities)[number], StreamFile>> = {};
  for (const quality of qualities) {
    const file = ordered.find((f) => f.quality === quality);
    if (file) byQuality[quality] = { type: file.format === 'mp4' ? 'mp4' : 'webm', url: urls.file(file) };
  }
  return {
    id: 'library',
    type: 'file',
    qualities: byQuality,
    captions: captionsOf(ordered, urls, canConvert),
    flags: [flags.CORS_ALLOWED],
    delivery: 'direct',
  };
}

/**
 * The stream of a title's files for one device (docs/decisions/085-library-pipeline.md): files that play
 * as they are → a file stream, one version per quality; else the best version through HLS (remux or
 * transcode) with its quality ladder; every audio track and every subtitle offered. Throws a
 * ProviderRefusal (media_unplayable) when nothing can play here.
 */
export function libraryStream(
  files: LibraryVideo[],
  urls: LibraryUrls,
  device: LibraryDevice,
): Stream | null {
  if (files.length === 0) return null;
  const probed = files.filter((f): f is LibraryVideo & { info: MediaInfo } => f.info !== null);
  if (probed.length === 0) return unprobedStream(files, urls, device.canConvert);
  const decisions = probed.map((file) => ({
    file,
    decision: decidePlayback(file.info, {
      device: device.codecs,
      audioLanguage: device.audioLanguage,
      canConvert: device.canConvert,
      ...(device.canTranscode === false ? { canTranscode: false } : {}),
      format: file.format,
    }),
  }));
  const captions = captionsOf(probed, urls, device.canConvert);
  const direct = decisions.filter((d) => d.decision.delivery === 'direct');
  const height = (f: LibraryVideo & { info: MediaInfo }) => f.info.video?.height ?? 0;
  // Every version plays as it is: a file per quality (the highest picture first within a quality).
  if (direct.length === decisions.length) {
    const byQuality: Partial<Record<(typeof qualities)[number], StreamFile>> = {};
    for (const { file, decision } of [...direct].sort((a, b) => height(b.file) - height(a.file))) {
      if (decision.delivery !== 'direct') continue;
      const quality = file.quality !== 'unknown' ? file.quality : decision.quality;
      byQuality[quality] ??= { type: decision.fileType, url: urls.file(file) };
    }
    const only = direct.length === 1 ? direct[0]! : null;
    const audioTracks = only
      ? audioTracksOf(only.file, only.file.info, only.decision, device, urls)
      : undefined;
    // The picture subtitles of the largest version (the one "automatic" plays).
    const top = [...direct].sort((a, b) => height(b.file) - height(a.file))[0]!;
    const imageSubtitles = imageSubtitlesOf(top.file, top.file.info, top.decision, audioTracks, device, urls);
    return {
      id: 'library',
      type: 'file',
      qualities: byQuality,
      captions,
      flags: [flags.CORS_ALLOWED],
      delivery: 'direct',
      ...(audioTracks ? { audioTracks } : {}),
      ...(imageSubtitles ? { imageSubtitles } : {}),
    };
  }
  // Else the best convertible version (the largest picture) through HLS.
  const convertible = decisions
    .filter((d) => d.decision.delivery === 'remux' || d.decision.delivery === 'transcode')
    .sort((a, b) => height(b.file) - height(a.file));
  const best = convertible[0];
  if (best && (best.decision.delivery === 'remux' || best.decision.delivery === 'transcode')) {
    const audioTracks = audioTracksOf(best.file, best.file.info, best.decision, device, urls);
    const imageSubtitles = imageSubtitlesOf(
      best.file,
      best.file.info,
      best.decision,
      audioTracks,
      device,
      urls,
    );
    return {
      id: 'library',
      type: 'hls',
      playlist: urls.hls(best.file, best.decision.variants[0]!.plan),
      captions,
      flags: [flags.CORS_ALLOWED],
      delivery: best.decision.delivery,
      ...(audioTracks ? { audioTracks } : {}),
      ...(imageSubtitles ? { imageSubtitles } : {}),
    };
  }
  // Some versions play as they are, others cannot be converted: the playable ones.
  if (direct.length > 0)
    return libraryStream(
      direct.map((d) => d.file),
      urls,
      device,
    );
  const first = decisions[0]!.decision;
  throw new ProviderRefusal(
    first.delivery === 'unplayable' ? UNPLAYABLE_REASONS[first.reason] : UNPLAYABLE_REASONS.no_ffmpeg,
    'media_unplayable',
  );
}

/** The operator's media folder as a source (Jellyfin/Plex naming). */
export function makeLibrarySource(
  indexer: LibraryIndexer,
  urls: LibraryUrls,
  device: LibraryDevice,
): Sourcerer {
  const scrape = async ({ media, progress }: { media: ScrapeMedia; progress: (n: number) => void }) => {
    const index = await indexer.get();
    progress(50);
    const files = findMedia(index, media);
    const stream = libraryStream(files, urls, device);
    if (!stream) throw new NotFoundError('not in the media library');
    // Every version is the same film: the largest picture's thumbnails serve them all.
    const largest = files
      .filter((f) => f.info?.video)
      .sort((a, b) => b.info!.video!.height - a.info!.video!.height)[0];
    const thumbnails = largest ? await urls.thumbnails?.(largest) : undefined;
    return { embeds: [], stream: [thumbnails ? { ...stream, thumbnails } : stream] };
  };
  return makeSourcerer({
    id: LIBRARY_SOURCE_ID,
    name: 'Media library',
    rank: 300,
    flags: [flags.CORS_ALLOWED],
    scrapeMovie: scrape,
    scrapeShow: scrape,
  });
}
