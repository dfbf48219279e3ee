// What the library knows about one media file, read by ffprobe at index time (probe.ts) and kept in the
// database (media_probes), so a rescan or another process never probes an unchanged file again. The
// playback decision (playback-plan.ts) and the HLS conversions (hls-conversions.ts) read it.

/** The main picture of a file (attached cover art is not a video stream here). */
export interface VideoStreamInfo {
  /** Absolute stream index in the file (`-map 0:<index>`). */
  index: number;
  /** ffprobe's codec_name: `h264`, `hevc`, `vp9`, `av1`, `mpeg4`, `mpeg2video`, `vc1`, … */
  codec: string;
  /** `High`, `Main 10`, … or null. */
  profile: string | null;
  /** ffprobe's level (H.264: 40 = 4.0; HEVC: 120 = 4.0 × 30), or null. */
  level: number | null;
  pixelFormat: string | null;
  /** 8, 10 or 12 (from bits_per_raw_sample or the pixel format); 8 when unknown. */
  bitDepth: number;
  width: number;
  height: number;
  /** Frames per second, or null. */
  frameRate: number | null;
  /** From color_transfer / side data: `hdr10` (smpte2084), `hlg` (arib-std-b67), `dolby-vision`, else `sdr`. */
  dynamicRange: 'sdr' | 'hdr10' | 'hlg' | 'dolby-vision';
  bitRate: number | null;
}

export interface AudioStreamInfo {
  index: number;
  /** `aac`, `ac3`, `eac3`, `dts`, `truehd`, `mp3`, `opus`, `vorbis`, `flac`, … */
  codec: string;
  profile: string | null;
  channels: number;
  channelLayout: string | null;
  sampleRate: number | null;
  /** ISO 639-2 as the file says (`eng`, `fra`), or `und`. */
  language: string;
  title: string | null;
  isDefault: boolean;
  bitRate: number | null;
}

export interface SubtitleStreamInfo {
  index: number;
  /** `subrip`, `ass`, `ssa`, `mov_text`, `webvtt`, `hdmv_pgs_subtitle`, `dvd_subtitle`, `dvb_subtitle`, … */
  codec: string;
  /** Text subtitles convert to WebVTT; image ones (PGS, VobSub, DVB) are drawn or burned in. */
  kind: 'text' | 'image';
  language: string;
  title: string | null;
  isDefault: boolean;
  isForced: boolean;
  isHearingImpaired: boolean;
}

export interface ChapterInfo {
  /** Seconds. */
  start: number;
  end: number;
  title: string | null;
}

export interface MediaInfo {
  /** ffprobe's format_name: `matroska,webm`, `mov,mp4,m4a,3gp,3g2,mj2`, `avi`, `mpegts`, `asf`, … */
  formatName: string;
  /** Seconds, or null when the container does not say. */
  duration: number | null;
  bitRate: number | null;
  /** The first real video stream, or null (an audio-only file is not a video). */
  video: VideoStreamInfo | null;
  audio: AudioStreamInfo[];
  subtitles: SubtitleStreamInfo[];
  chapters: ChapterInfo[];
}

/** Image subtitle codecs: shown by a renderer or burned in, never converted to text. */
export const IMAGE_SUBTITLE_CODECS: ReadonlySet<string> = new Set([
  'hdmv_pgs_subtitle',
  'dvd_subtitle',
  'dvb_subtitle',
  'xsub',
]);
