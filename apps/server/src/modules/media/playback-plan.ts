import type { Quality } from '@marquee/providers';
import { sameLanguage } from './language.ts';
import type { AudioStreamInfo, MediaInfo, VideoStreamInfo } from './media-info.ts';

// How one library file reaches one device (docs/decisions/085-library-pipeline.md), in Jellyfin's order:
// direct play (the file itself, with range requests) → remux (HLS, video copied) → transcode (HLS, video
// to H.264). Pure: the device's codecs, the probe and whether ffmpeg runs are all it reads.

/** What a device plays, by the contract's DEVICE_CODECS names. */
export type DeviceCodecs = ReadonlySet<string>;

/**
 * What a client that does not say plays: what every current browser decodes (the family's clients, other
 * players). Matroska is not in it: a file in it is remuxed (cheap) rather than risked.
 */
export const DEFAULT_DEVICE_CODECS: readonly string[] = [
  'h264',
  'vp8',
  'vp9',
  'aac',
  'mp3',
  'opus',
  'vorbis',
  'mp4',
  'webm',
];

export function deviceCodecs(param: string | undefined): DeviceCodecs {
  const names = (param ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  return new Set(names.length ? names : DEFAULT_DEVICE_CODECS);
}

/** Video the HLS segments (fMP4) can carry as they are. */
const COPYABLE_VIDEO = new Set(['h264', 'hevc', 'av1', 'vp9']);
/** Audio carried as it is in fMP4 segments when the device decodes it; anything else becomes AAC. */
const COPYABLE_AUDIO = new Set(['aac', 'ac3', 'eac3']);
/** Codecs a WebM file may hold: Matroska with only these plays wherever WebM does. */
const WEBM_CODECS = new Set(['vp8', 'vp9', 'av1', 'opus', 'vorbis']);

/** The device's name for an audio codec (ffprobe's `dts` is `dca` in some versions). */
const AUDIO_NAMES: Readonly<Record<string, string>> = {
  aac: 'aac',
  mp3: 'mp3',
  opus: 'opus',
  vorbis: 'vorbis',
  flac: 'flac',
  ac3: 'ac3',
  eac3: 'eac3',
  dts: 'dts',
  dca: 'dts',
};

export function deviceDecodesVideo(device: DeviceCodecs, video: VideoStreamInfo): boolean {
  if (video.dynamicRange !== 'sdr' && !device.has('hdr')) return false;
  const deep = video.bitDepth > 8;
  switch (video.codec) {
    case 'h264':
      return device.has(deep ? 'h264-10' : 'h264');
    case 'hevc':
      return device.has(deep ? 'hevc-10' : 'hevc');
    case 'vp8':
    case 'vp9':
    case 'av1':
      return device.has(video.codec);
    default:
      return false;
  }
}

export function deviceDecodesAudio(device: DeviceCodecs, audio: AudioStreamInfo): boolean {
  const name = AUDIO_NAMES[audio.codec];
  return name !== undefined && device.has(name);
}

/** Standard heights a transcode offers; a transcode never goes above 1080 lines. */
const LADDER = [1080, 720, 480, 360] as const;
export type LadderHeight = (typeof LADDER)[number];

/** One video rendition of an HLS delivery: the file's video as it is, or a transcode to a height. */
export type VideoMode = 'copy' | LadderHeight;

export interface AudioMode {
  /** Stream index in the file. */
  index: number;
  mode: 'copy' | 'aac';
}

/** One HLS rendition: what `hls-conversions.ts` runs ffmpeg for. Serialised into URLs by `planId`. */
export interface HlsPlan {
  video: VideoMode;
  audio: AudioMode | null;
  /** An image subtitle stream burned into the picture (forces a transcode). */
  burn: number | null;
}

export interface HlsVariant {
  plan: HlsPlan;
  quality: Quality;
  width: number;
  height: number;
  /** Peak bits per second (the master playlist's BANDWIDTH). */
  bandwidth: number;
}

export type PlaybackDecision =
  | { delivery: 'direct'; fileType: 'mp4' | 'webm'; audioIndex: number | null; quality: Quality }
  | {
      delivery: 'remux' | 'transcode';
      /** Highest first: the first is what plays unless the viewer picks another quality. */
      variants: HlsVariant[];
      audioIndex: number | null;
    }
  | { delivery: 'unplayable'; reason: 'no_ffmpeg' | 'no_video' | 'unsupported_codec' | 'no_transcode' };

export interface DecideOptions {
  device: DeviceCodecs;
  /** The viewer's preferred audio language (ISO 639-1), if any. */
  audioLanguage?: string | undefined;
  /** Whether this server can convert (ffmpeg found). */
  canConvert: boolean;
  /** Whether it may transcode video (TRANSCODE_MAX > 0); default: when it can convert. */
  canTranscode?: boolean;
  /** The file's content: ISO BMFF, Matroska/WebM or anything else. */
  format: 'mp4' | 'matroska' | 'other';
  /** Play this audio track (an explicit choice) instead of the preferred one. */
  audioIndex?: number | null;
}

/** Codecs ffmpeg here decodes for a transcode (Debian's build reads all of these). */
const DECODABLE_VIDEO = new Set([
  'h264',
  'hevc',
  'vp8',
  'vp9',
  'av1',
  'mpeg4',
  'mpeg2video',
  'mpeg1video',
  'msmpeg4v3',
  'msmpeg4v2',
  'wmv1',
  'wmv2',
  'wmv3',
  'vc1',
  'h263',
  'theora',
  'mjpeg',
  'prores',
  'dnxhd',
  'flv1',
  'rv40',
  'rv30',
]);

/** The audio track to start with: the viewer's language, else the file's default track, else the first. */
export function pickAudio(tracks: readonly AudioStreamInfo[], language?: string): AudioStreamInfo | null {
  if (tracks.length === 0) return null;
  const inLanguage = language ? tracks.filter((t) => sameLanguage(t.language, language)) : [];
  if (inLanguage.length) return inLanguage.find((t) => t.isDefault) ?? inLanguage[0]!;
  return tracks.find((t) => t.isDefault) ?? tracks[0]!;
}

/**
 * The height a picture counts as: a widescreen film of 1920×800 is a 1080p picture (what its width
 * would be at 16:9).
 */
export const effectiveHeight = (video: Pick<VideoStreamInfo, 'width' | 'height'>) =>
  Math.max(video.height, Math.round((video.width * 9) / 16));

/** Quality name of a picture height (the same thresholds as the web player's). */
export function qualityOfHeight(height: number): Quality {
  if (height >= 2000) return '4k';
  if (height >= 1000) return '1080';
  if (height >= 700) return '720';
  if (height >= 460) return '480';
  if (height >= 340) return '360';
  return 'unknown';
}

/** Peak video bits per second of a transcode to a height (x264 `maxrate`). */
export const TRANSCODE_BITRATE: Readonly<Record<LadderHeight, number>> = {
  1080: 6_000_000,
  720: 3_000_000,
  480: 1_200_000,
  360: 700_000,
};
const AAC_BITRATE = 160_000;

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * The size of a transcode to a rung: the picture fitted into the rung's 16:9 box (a 1920×800 film at 720
 * is 1280×534), never enlarged, even numbers (x264 needs them).
 */
export function renditionSize(video: Pick<VideoStreamInfo, 'width' | 'height'>, rung: LadderHeight) {
  const width = video.width > 0 ? video.width : Math.round((rung * 16) / 9);
  const height = video.height > 0 ? video.height : rung;
  const scale = Math.min(1, (rung * 16) / 9 / width, rung / height);
  return { width: even(width * scale), height: even(height * scale) };
}

export function audioModeFor(device: DeviceCodecs, track: AudioStreamInfo): AudioMode {
  return {
    index: track.index,
    mode: COPYABLE_AUDIO.has(track.codec) && deviceDecodesAudio(device, track) ? 'copy' : 'aac',
  };
}

function audioBandwidth(track: AudioStreamInfo | null, mode: AudioMode | null): number {
  if (!track || !mode) return 0;
  return mode.mode === 'copy' ? (track.bitRate ?? 640_000) : AAC_BITRATE;
}

/**
 * The renditions of an HLS delivery for one audio track: the picture as it is (remux) or at its own
 * height (transcode), then each lower standard height. `burn` forces a transcode.
 */
export function hlsVariants(
  info: MediaInfo,
  video: VideoStreamInfo,
  o: { copy: boolean; audio: AudioMode | null; burn?: number | null },
): HlsVariant[] {
  const track = o.audio ? (info.audio.find((a) => a.index === o.audio!.index) ?? null) : null;
  const audioBits = audioBandwidth(track, o.audio);
  const burn = o.burn ?? null;
  const variants: HlsVariant[] = [];
  const copy = o.copy && burn === null;
  const own = effectiveHeight(video);
  if (copy) {
    const bits = video.bitRate ?? (info.bitRate ? info.bitRate - audioBits : null) ?? 8_000_000;
    variants.push({
      plan: { video: 'copy', audio: o.audio, burn: null },
      quality: qualityOfHeight(own),
      width: video.width,
      height: video.height,
      bandwidth: Math.max(bits, 100_000) + audioBits,
    });
  }
  // A transcode at the picture's own size only when it is not copied; never above 1080 lines.
  for (const rung of LADDER) {
    if (rung > own + 8) continue;
    if (copy && rung >= own * 0.9) continue;
    variants.push({
      plan: { video: rung, audio: o.audio, burn },
      quality: qualityOfHeight(rung),
      ...renditionSize(video, rung),
      bandwidth: TRANSCODE_BITRATE[rung] + audioBits,
    });
  }
  if (variants.length === 0) {
    // Smaller than the lowest rung: one transcode at its own size.
    variants.push({
      plan: { video: 360, audio: o.audio, burn },
      quality: qualityOfHeight(own),
      ...renditionSize(video, 360),
      bandwidth: TRANSCODE_BITRATE[360] + audioBits,
    });
  }
  return variants;
}

/** Picks direct play, remux or transcode for one file on one device. */
export function decidePlayback(info: MediaInfo, o: DecideOptions): PlaybackDecision {
  const video = info.video;
  if (!video) return { delivery: 'unplayable', reason: 'no_video' };
  const chosen =
    o.audioIndex !== undefined && o.audioIndex !== null
      ? (info.audio.find((a) => a.index === o.audioIndex) ?? null)
      : pickAudio(info.audio, o.audioLanguage);
  const videoOk = deviceDecodesVideo(o.device, video);
  const audioOk = chosen === null || deviceDecodesAudio(o.device, chosen);
  const webmOnly = [video.codec, ...info.audio.map((a) => a.codec)].every((c) => WEBM_CODECS.has(c));
  const fileType =
    o.format === 'mp4' && o.device.has('mp4')
      ? 'mp4'
      : o.format === 'matroska' && (o.device.has('mkv') || (webmOnly && o.device.has('webm')))
        ? 'webm'
        : null;
  // A file plays as it is only with its one audio track: browsers do not switch the audio tracks of a
  // file, so one with several goes through HLS (where each track is a playlist of its own).
  if (fileType && videoOk && audioOk && info.audio.length <= 1) {
    return {
      delivery: 'direct',
      fileType,
      audioIndex: chosen?.index ?? null,
      quality: qualityOfHeight(effectiveHeight(video)),
    };
  }
  if (!o.canConvert) {
    // Without ffmpeg a file whose picture the device plays is still offered as it is, with the track the
    // browser picks (the file's default), whatever the viewer prefers.
    if (fileType && videoOk)
      return {
        delivery: 'direct',
        fileType,
        audioIndex: (info.audio.find((a) => a.isDefault) ?? info.audio[0])?.index ?? null,
        quality: qualityOfHeight(effectiveHeight(video)),
      };
    return { delivery: 'unplayable', reason: 'no_ffmpeg' };
  }
  const audio = chosen ? audioModeFor(o.device, chosen) : null;
  if (videoOk && COPYABLE_VIDEO.has(video.codec)) {
    return {
      delivery: 'remux',
      variants: hlsVariants(info, video, { copy: true, audio }),
      audioIndex: chosen?.index ?? null,
    };
  }
  if (!DECODABLE_VIDEO.has(video.codec)) return { delivery: 'unplayable', reason: 'unsupported_codec' };
  if (o.canTranscode === false) return { delivery: 'unplayable', reason: 'no_transcode' };
  return {
    delivery: 'transcode',
    variants: hlsVariants(info, video, { copy: false, audio }),
    audioIndex: chosen?.index ?? null,
  };
}

// ---- plan ids: `vc.a1c`, `v720.a2t`, `v480.an.b3` — the only way a plan reaches a URL ----

const PLAN_ID = /^v(c|1080|720|480|360)\.a(n|(\d{1,3})(c|t))(?:\.b(\d{1,3}))?$/;

export function planId(plan: HlsPlan): string {
  const video = plan.video === 'copy' ? 'c' : String(plan.video);
  const audio = plan.audio ? `${plan.audio.index}${plan.audio.mode === 'copy' ? 'c' : 't'}` : 'n';
  return `v${video}.a${audio}${plan.burn !== null ? `.b${plan.burn}` : ''}`;
}

/**
 * A plan id from a URL, accepted only when it fits this file: its streams exist, a copied video or audio
 * is one the segments can carry, a burned subtitle is an image subtitle of the file. Null otherwise.
 */
export function parsePlanId(id: string, info: MediaInfo): HlsPlan | null {
  const match = PLAN_ID.exec(id);
  const video = info.video;
  if (!match || !video) return null;
  const videoMode: VideoMode = match[1] === 'c' ? 'copy' : (Number(match[1]) as LadderHeight);
  if (videoMode === 'copy' && !COPYABLE_VIDEO.has(video.codec)) return null;
  let audio: AudioMode | null = null;
  if (match[2] !== 'n') {
    const index = Number(match[3]);
    const track = info.audio.find((a) => a.index === index);
    if (!track) return null;
    const mode = match[4] === 'c' ? 'copy' : 'aac';
    if (mode === 'copy' && !COPYABLE_AUDIO.has(track.codec)) return null;
    audio = { index, mode };
  }
  let burn: number | null = null;
  if (match[5] !== undefined) {
    burn = Number(match[5]);
    const subtitle = info.subtitles.find((s) => s.index === burn);
    if (!subtitle || subtitle.kind !== 'image' || videoMode === 'copy') return null;
  }
  return { video: videoMode, audio, burn };
}
