import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { renditionSize, TRANSCODE_BITRATE, type HlsPlan, type LadderHeight } from './playback-plan.ts';
import type { MediaInfo } from './media-info.ts';
import { TRANSCODE_SEGMENT_SECONDS } from './hls-segments.ts';

const run = promisify(execFile);

/** Where ffmpeg and ffprobe are (FFMPEG_PATH, FFPROBE_PATH) and whether they answer. */
export interface FfmpegTools {
  ffmpeg: string;
  ffprobe: string;
  /** ffmpeg's version line, or null when it does not run here. */
  version: string | null;
}

/** Runs `ffmpeg -version` once: a server without ffmpeg still plays direct-playable files. */
export async function detectFfmpeg(ffmpeg: string, ffprobe: string): Promise<FfmpegTools> {
  const version = await Promise.all([
    run(ffmpeg, ['-hide_banner', '-version'], { timeout: 10_000 }),
    run(ffprobe, ['-hide_banner', '-version'], { timeout: 10_000 }),
  ])
    .then(([out]) => out.stdout.split('\n')[0]?.trim() || 'ffmpeg')
    .catch(() => null);
  return { ffmpeg, ffprobe, version };
}

/**
 * How long before a conversion's start the burned subtitle is read from: a subtitle picture on screen at
 * the start began at most this long before (longer ones show from their next picture on).
 */
export const BURN_LOOKBACK_SECONDS = 30;

/** Hardware encoders an operator can choose (HWACCEL); software x264 by default. */
export type HardwareAcceleration = 'none' | 'vaapi' | 'qsv' | 'nvenc';

export interface ConversionArgsInput {
  input: string;
  info: MediaInfo;
  plan: HlsPlan;
  /** Seconds to start from (a keyframe of the file for a copy, a grid point for a transcode). */
  startAt: number;
  firstChunk: number;
  /** Folder the chunks, init segment and ffmpeg's own playlist are written to. */
  dir: string;
  run: string;
  hardware: HardwareAcceleration;
  /** VAAPI render node. */
  vaapiDevice?: string;
}

/**
 * HDR to SDR for the software encoder: to linear light (100 nits as white), BT.709 primaries, Hable's
 * curve, then BT.709's transfer and matrix in TV range (zimg's zscale, in Debian's ffmpeg).
 */
export const HDR_TO_SDR = [
  'zscale=t=linear:npl=100',
  'format=gbrpf32le',
  'zscale=p=bt709',
  'tonemap=tonemap=hable:desat=0',
  'zscale=t=bt709:m=bt709:r=tv',
];

/** Video encoder arguments for a transcode to `height` (forced keyframes on the segment grid). */
function videoEncoder(
  o: ConversionArgsInput,
  height: LadderHeight,
): { pre: string[]; filters: string[]; args: string[] } {
  const rate = TRANSCODE_BITRATE[height];
  const size = renditionSize(o.info.video!, height);
  const scale = `scale=${size.width}:${size.height}`;
  const fps = o.info.video?.frameRate ?? 30;
  // Keyframes only where segments start: x264's own (scene cuts, keyint) would cut extra chunks.
  const keyint = Math.ceil(fps * TRANSCODE_SEGMENT_SECONDS * 10);
  const forced = ['-force_key_frames', `expr:gte(t,n_forced*${TRANSCODE_SEGMENT_SECONDS})`];
  const limits = [
    '-b:v',
    String(Math.round(rate * 0.8)),
    '-maxrate',
    String(rate),
    '-bufsize',
    String(rate * 2),
  ];
  switch (o.hardware) {
    case 'vaapi':
      return {
        pre: ['-vaapi_device', o.vaapiDevice ?? '/dev/dri/renderD128'],
        filters: [scale, 'format=nv12', 'hwupload'],
        args: ['-c:v', 'h264_vaapi', '-g', String(keyint), ...forced, ...limits],
      };
    case 'qsv':
      return {
        pre: [],
        filters: [scale, 'format=nv12'],
        args: ['-c:v', 'h264_qsv', '-preset', 'veryfast', '-g', String(keyint), ...forced, ...limits],
      };
    case 'nvenc':
      return {
        pre: [],
        filters: [scale, 'format=yuv420p'],
        args: [
          '-c:v',
          'h264_nvenc',
          '-preset',
          'p4',
          '-forced-idr',
          '1',
          '-g',
          String(keyint),
          ...forced,
          ...limits,
        ],
      };
    case 'none':
      return {
        pre: [],
        // HDR (PQ or HLG) shown on an SDR screen: tone-mapped, or it comes out grey and washed out.
        filters: [scale, ...(o.info.video?.dynamicRange !== 'sdr' ? HDR_TO_SDR : []), 'format=yuv420p'],
        args: [
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-profile:v',
          'high',
          '-crf',
          '23',
          ...limits.slice(2),
          '-x264-params',
          `scenecut=0:open-gop=0:keyint=${keyint}:min-keyint=${keyint}`,
          ...forced,
        ],
      };
  }
}

/**
 * ffmpeg's arguments for one run of an HLS rendition: everything comes from the probe and the plan (which
 * the server checked against the probe), nothing from a request. Chunks are fMP4 fragments cut at every
 * keyframe, numbered from `firstChunk`, timestamps kept (`-copyts`, `frag_discont`) so every run of a
 * rendition places its fragments on the same timeline.
 */
export function conversionArgs(o: ConversionArgsInput): string[] {
  const { plan, info } = o;
  const video = info.video!;
  const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
  let filters: string[] = [];
  let videoArgs: string[];
  if (plan.video === 'copy') videoArgs = ['-c:v', 'copy'];
  else {
    const encoder = videoEncoder(o, plan.video);
    args.push(...encoder.pre);
    filters = encoder.filters;
    videoArgs = encoder.args;
  }
  // Seek on the input: a copy starts at the keyframe at `startAt` (a hair later, so rounding cannot pick
  // the one before); a transcode decodes from the keyframe before and drops frames up to `startAt`.
  if (o.startAt > 0) args.push('-ss', (o.startAt + (plan.video === 'copy' ? 0.001 : 0)).toFixed(6));
  args.push('-i', o.input);
  if (plan.burn !== null) {
    // The image subtitle is read from a second opening of the file that starts earlier: a picture shown
    // at `startAt` began before it, often before the keyframe the seek lands on, where the first opening
    // never reads it (docs/decisions/085-library-pipeline.md). Only its subtitle stream is decoded.
    const from = o.startAt - BURN_LOOKBACK_SECONDS;
    if (from > 0) args.push('-ss', from.toFixed(6));
    args.push('-i', o.input);
  }
  args.push('-copyts', '-map_metadata', '-1', '-map_chapters', '-1', '-sn', '-dn');
  if (plan.burn !== null) {
    const chain = filters.length ? `,${filters.join(',')}` : '';
    // The subtitle's canvas (PGS: often 1920×1080 over a cropped 1920×800 picture) fitted into the
    // picture and centred, so nothing drawn near its edges falls outside.
    args.push(
      '-filter_complex',
      `[1:${plan.burn}][0:${video.index}]scale2ref=w=iw:h=ih:force_original_aspect_ratio=decrease[sub][main];` +
        `[main][sub]overlay=x=(W-w)/2:y=(H-h)/2:eof_action=pass${chain}[v]`,
      '-map',
      '[v]',
    );
  } else {
    args.push('-map', `0:${video.index}`);
    if (filters.length) args.push('-vf', filters.join(','));
  }
  args.push(...videoArgs);
  if (plan.audio) {
    args.push('-map', `0:${plan.audio.index}`);
    // A copied sound starts where the picture does: by default ffmpeg copies it from the keyframe the
    // seek landed on, seconds early, and a player placing the first segment it loads by its earliest
    // sample then shows the whole title that much late (a picture subtitle chosen mid-film was off).
    if (plan.audio.mode === 'copy')
      args.push('-c:a', 'copy', ...(o.startAt > 0 ? ['-copypriorss:a', '0'] : []));
    else args.push('-c:a', 'aac', '-ac', '2', '-ar', '48000', '-b:a', '160k');
  } else args.push('-an');
  args.push(
    '-max_muxing_queue_size',
    '2048',
    '-f',
    'hls',
    '-hls_time',
    '0.1',
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    'temp_file',
    '-hls_list_size',
    '0',
    '-hls_segment_options',
    'movflags=+frag_discont',
    '-hls_fmp4_init_filename',
    `init-${o.run}.mp4`,
    '-hls_segment_filename',
    `${o.dir}/%d.m4s`,
    '-start_number',
    String(o.firstChunk),
    `${o.dir}/run-${o.run}.m3u8`,
  );
  return args;
}

/**
 * ffmpeg's arguments to write one text subtitle stream (or a whole subtitle file): as WebVTT for the
 * player's own captions, or as the ASS/SSA script it is, styles kept, in UTF-8 (ffmpeg reads UTF-16 and
 * other encodings it recognises; libass reads SSA too).
 */
export function subtitleArgs(
  input: string,
  streamIndex: number | null,
  output: string,
  as: 'vtt' | 'ass' = 'vtt',
): string[] {
  const codec = as === 'vtt' ? ['-c:s', 'webvtt', '-f', 'webvtt'] : ['-c:s', 'copy', '-f', 'ass'];
  return [
    ...['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', input],
    ...['-map', streamIndex === null ? '0:s:0' : `0:${streamIndex}`, ...codec, output],
  ];
}
