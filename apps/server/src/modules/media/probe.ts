import { execFile } from 'node:child_process';
import path from 'node:path';
import {
  IMAGE_SUBTITLE_CODECS,
  type AudioStreamInfo,
  type ChapterInfo,
  type MediaInfo,
  type SubtitleStreamInfo,
  type VideoStreamInfo,
} from './media-info.ts';

// ffprobe's JSON → MediaInfo (media-info.ts). The arguments are fixed here and the file is a real path
// the library scan found (never request input); ffprobe runs without a shell and with a time limit.

/** ffprobe could not give an answer: not found, killed by the time limit, or unreadable output. */
export class ProbeFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProbeFailure';
  }
}

export interface ProbeOptions {
  /** The ffprobe executable (FFPROBE_PATH): a name looked up in PATH, or a path. */
  ffprobePath: string;
  /** ffprobe is killed after this long (a damaged file or a stalled network share). */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** What ffprobe said about a file: its media info, or null and why (the file is not media ffmpeg reads). */
export interface ProbeAnswer {
  info: MediaInfo | null;
  error: string | null;
}

/** ffprobe's output for a file with many chapters and streams stays far below this. */
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

export const probeArguments = (file: string): string[] => [
  '-v',
  'error',
  '-show_format',
  '-show_streams',
  '-show_chapters',
  '-of',
  'json',
  '-i',
  file,
];

/**
 * Runs ffprobe on one file. A file ffprobe cannot read as media answers `{info: null, error}` (its first
 * error line); a missing ffprobe, a time-out or output that is not JSON throws a ProbeFailure.
 */
export function probeMediaFile(file: string, o: ProbeOptions): Promise<ProbeAnswer> {
  // An absolute path never reads as an option or a protocol (`-x`, `concat:`, `http:`).
  if (!path.isAbsolute(file)) return Promise.reject(new ProbeFailure(`not an absolute path: ${file}`));
  return new Promise((resolve, reject) => {
    execFile(
      o.ffprobePath,
      probeArguments(file),
      {
        timeout: o.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: MAX_OUTPUT_BYTES,
        windowsHide: true,
        encoding: 'utf8',
        ...(o.signal ? { signal: o.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT')
            return reject(new ProbeFailure(`ffprobe was not found (${o.ffprobePath})`, { cause: error }));
          if (error.name === 'AbortError') return reject(error);
          if ((error as { killed?: boolean }).killed)
            return reject(
              new ProbeFailure(`ffprobe gave no answer within ${Math.round(o.timeoutMs / 1000)} s`, {
                cause: error,
              }),
            );
          if (typeof code === 'number') return resolve({ info: null, error: lastLine(stderr, file) });
          return reject(new ProbeFailure(`ffprobe failed: ${error.message}`, { cause: error }));
        }
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch (cause) {
          return reject(new ProbeFailure('ffprobe printed something that is not JSON', { cause }));
        }
        const info = mediaInfoFromProbe(json);
        resolve(info ? { info, error: null } : { info: null, error: 'ffprobe found no media format' });
      },
    );
  });
}

/** The file's media info, or null when it is not media ffmpeg reads. Throws a ProbeFailure (see above). */
export async function probeMedia(file: string, o: ProbeOptions): Promise<MediaInfo | null> {
  return (await probeMediaFile(file, o)).info;
}

/** ffprobe's last message (the one it stopped on) without the file name ("x.mkv: Invalid data …" → "Invalid data …"). */
function lastLine(stderr: string, file: string): string {
  const line = stderr.split('\n').findLast((l) => l.trim() !== '') ?? 'ffprobe could not read the file';
  const trimmed = line.startsWith(`${file}: `) ? line.slice(file.length + 2) : line;
  return trimmed.trim().slice(0, 500);
}

// ---- mapping ----

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const objects = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);

function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === 'unknown' || trimmed === 'N/A' ? null : trimmed;
}

/** ffprobe writes most numbers as strings ("2.020000", "448000"); "N/A" and junk are null. */
function number(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

const positive = (value: unknown): number | null => {
  const n = number(value);
  return n !== null && n > 0 ? n : null;
};

/** "24000/1001" → 23.976…; "0/0" → null. */
function rational(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const [num, den] = value.split('/').map(Number);
  if (den === undefined) return positive(num);
  if (!Number.isFinite(num) || !Number.isFinite(den) || den === 0 || num! <= 0) return null;
  return num! / den;
}

/** Matroska's `00:00:02.006000000` (the DURATION tag muxers write per stream) in seconds. */
function clockSeconds(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
}

/** Tag names differ in case between containers (`language`, `LANGUAGE`, `title`, `TITLE`). */
function tag(stream: Json, name: string): string | null {
  const tags = isObject(stream.tags) ? stream.tags : {};
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(tags)) if (key.toLowerCase() === lower) return text(value);
  return null;
}

const flag = (stream: Json, name: string) => isObject(stream.disposition) && stream.disposition[name] === 1;

/** The stream's bit rate, or the Matroska statistics tag (`BPS`, `BPS-eng`) muxers write instead. */
function bitRate(stream: Json): number | null {
  return positive(stream.bit_rate) ?? positive(tag(stream, 'BPS')) ?? positive(tag(stream, 'BPS-eng'));
}

/** ISO 639-2 as the file says it, lower-cased; `und` when absent. */
function language(stream: Json): string {
  const value = tag(stream, 'language')?.toLowerCase();
  return value && /^[a-z]{2,3}(?:-[a-z0-9]{2,8})*$/.test(value) ? value : 'und';
}

/** From bits_per_raw_sample, else the pixel format (`yuv420p10le`, `p010le`, `yuv444p12le`); 8 when unknown. */
function bitDepth(stream: Json, pixelFormat: string | null): number {
  const raw = positive(stream.bits_per_raw_sample);
  if (raw !== null && raw >= 8 && raw <= 16) return raw;
  const match = pixelFormat ? /(\d+)(?:le|be)$/.exec(pixelFormat) : null;
  const bits = match ? Number(match[1]) : Number.NaN;
  return bits >= 9 && bits <= 16 ? bits : 8;
}

function dynamicRange(stream: Json): VideoStreamInfo['dynamicRange'] {
  const sideData = objects(stream.side_data_list);
  const codecTag = text(stream.codec_tag_string)?.toLowerCase() ?? '';
  if (
    sideData.some((s) => /dovi|dolby vision/i.test(String(s.side_data_type ?? ''))) ||
    ['dvh1', 'dvhe', 'dva1', 'dvav', 'dav1'].includes(codecTag)
  )
    return 'dolby-vision';
  switch (text(stream.color_transfer)) {
    case 'smpte2084':
      return 'hdr10';
    case 'arib-std-b67':
      return 'hlg';
    default:
      return 'sdr';
  }
}

/**
 * Image "videos" that are not the picture of a film: cover art attached to the file (MKV attachments,
 * MP4 `covr`), thumbnails, and files that are a single image (png_pipe, image2, …).
 */
function isPicture(stream: Json, formatName: string): boolean {
  return (
    flag(stream, 'attached_pic') ||
    flag(stream, 'timed_thumbnails') ||
    flag(stream, 'still_image') ||
    /(?:^|,)(?:image2|[a-z0-9]+_pipe|tty)(?:,|$)/.test(formatName)
  );
}

function videoStream(stream: Json): VideoStreamInfo | null {
  const width = positive(stream.width);
  const height = positive(stream.height);
  const index = number(stream.index);
  if (width === null || height === null || index === null) return null;
  const pixelFormat = text(stream.pix_fmt);
  const level = number(stream.level);
  return {
    index,
    codec: text(stream.codec_name) ?? 'unknown',
    profile: text(stream.profile),
    // ffprobe reports -99 when the codec has no level.
    level: level !== null && level > 0 ? level : null,
    pixelFormat,
    bitDepth: bitDepth(stream, pixelFormat),
    width,
    height,
    frameRate: rational(stream.avg_frame_rate) ?? rational(stream.r_frame_rate),
    dynamicRange: dynamicRange(stream),
    bitRate: bitRate(stream),
  };
}

function audioStream(stream: Json, index: number): AudioStreamInfo {
  return {
    index,
    codec: text(stream.codec_name) ?? 'unknown',
    profile: text(stream.profile),
    channels: positive(stream.channels) ?? 0,
    channelLayout: text(stream.channel_layout),
    sampleRate: positive(stream.sample_rate),
    language: language(stream),
    title: tag(stream, 'title'),
    isDefault: flag(stream, 'default'),
    bitRate: bitRate(stream),
  };
}

/**
 * Subtitle flags from the disposition, or from the track's name where muxers wrote only that
 * ("English (Forced)", "English SDH"), as Jellyfin reads them.
 */
function subtitleStream(stream: Json, index: number): SubtitleStreamInfo {
  const codec = text(stream.codec_name) ?? 'unknown';
  const title = tag(stream, 'title');
  return {
    index,
    codec,
    kind: IMAGE_SUBTITLE_CODECS.has(codec) ? 'image' : 'text',
    language: language(stream),
    title,
    isDefault: flag(stream, 'default'),
    isForced: flag(stream, 'forced') || /\bforced\b/i.test(title ?? ''),
    isHearingImpaired: flag(stream, 'hearing_impaired') || /\b(?:sdh|cc)\b/i.test(title ?? ''),
  };
}

function chapter(entry: Json): ChapterInfo | null {
  const start = number(entry.start_time);
  const end = number(entry.end_time);
  if (start === null || end === null) return null;
  return { start, end, title: tag(entry, 'title') };
}

/**
 * Maps the JSON of `ffprobe -show_format -show_streams -show_chapters -of json` to MediaInfo. Null when
 * it names no format (ffprobe could not read the file). `video` is the first real video stream: cover
 * art and single images are not a film's picture.
 */
export function mediaInfoFromProbe(json: unknown): MediaInfo | null {
  if (!isObject(json) || !isObject(json.format)) return null;
  const format = json.format;
  const formatName = text(format.format_name);
  if (formatName === null) return null;
  const streams = objects(json.streams);
  let video: VideoStreamInfo | null = null;
  const audio: AudioStreamInfo[] = [];
  const subtitles: SubtitleStreamInfo[] = [];
  for (const stream of streams) {
    const index = number(stream.index);
    if (index === null) continue;
    switch (stream.codec_type) {
      case 'video':
        if (video === null && !isPicture(stream, formatName)) video = videoStream(stream);
        break;
      case 'audio':
        audio.push(audioStream(stream, index));
        break;
      case 'subtitle':
        subtitles.push(subtitleStream(stream, index));
        break;
    }
  }
  const streamDurations = streams
    .map((s) => positive(s.duration) ?? clockSeconds(tag(s, 'DURATION')))
    .filter((d): d is number => d !== null && d > 0);
  return {
    formatName,
    duration: positive(format.duration) ?? (streamDurations.length ? Math.max(...streamDurations) : null),
    bitRate: positive(format.bit_rate),
    video,
    audio,
    subtitles,
    chapters: objects(json.chapters)
      .map(chapter)
      .filter((c): c is ChapterInfo => c !== null),
  };
}
