import { LRUCache } from 'lru-cache';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FfmpegTools, HardwareAcceleration } from './ffmpeg.ts';
import { HlsConversions, type ConversionLimits, type ConvertibleFile } from './hls-conversions.ts';
import { readKeyframes } from './keyframes.ts';
import { SubtitleTracks } from './subtitle-tracks.ts';

export interface MediaPipelineOptions {
  tools: FfmpegTools;
  /** Where conversions and converted subtitles are written (`<DATA_DIR>/transcodes`). */
  workDir: string;
  limits: ConversionLimits;
  hardware: HardwareAcceleration;
  vaapiDevice?: string | undefined;
  log?: (level: 'info' | 'warn', message: string, details: Record<string, unknown>) => void;
}

/**
 * What the server converts with ffmpeg for the library (docs/decisions/085-library-pipeline.md): HLS
 * renditions made on demand and text subtitles as WebVTT. Absent when ffmpeg is not found: the library
 * then offers only what plays as it is.
 */
export class MediaPipeline {
  readonly conversions: HlsConversions;
  readonly subtitles: SubtitleTracks;
  /** Keyframe times by file (path, size, time): read once per file and process. */
  private readonly keyframes = new LRUCache<string, Promise<number[]>>({ max: 200 });

  constructor(readonly o: MediaPipelineOptions) {
    this.conversions = new HlsConversions({
      ffmpeg: o.tools.ffmpeg,
      keyframes: (file) => this.keyframesOf(file),
      // One folder per process: processes sharing DATA_DIR never touch each other's conversions.
      workDir: path.join(o.workDir, `hls-${process.pid}`),
      limits: o.limits,
      hardware: o.hardware,
      ...(o.vaapiDevice ? { vaapiDevice: o.vaapiDevice } : {}),
      ...(o.log ? { log: o.log } : {}),
    });
    this.subtitles = new SubtitleTracks({ ffmpeg: o.tools.ffmpeg, workDir: o.workDir });
  }

  private keyframesOf(file: ConvertibleFile & { size?: number; mtimeMs?: number }): Promise<number[]> {
    const key = `${file.path}:${file.size ?? ''}:${file.mtimeMs ?? ''}`;
    let found = this.keyframes.get(key);
    if (!found) {
      found = readKeyframes(this.o.tools.ffprobe, file.path);
      found.catch(() => this.keyframes.delete(key));
      this.keyframes.set(key, found);
    }
    return found;
  }

  /** Whether video may be transcoded here (TRANSCODE_MAX > 0); remuxes need no transcode slot. */
  get canTranscode(): boolean {
    return this.o.limits.maxTranscodes > 0;
  }

  close(): Promise<void> {
    return this.conversions.close();
  }

  /**
   * Removes the conversions of processes that are gone (a crash, a restart): they restart on demand.
   * A folder of a process that still runs (another server on this DATA_DIR) is left alone.
   */
  static async removeStale(workDir: string): Promise<void> {
    const names = await readdir(workDir).catch(() => [] as string[]);
    for (const name of names) {
      const pid = /^hls-(\d+)$/.exec(name)?.[1];
      if (pid === undefined) continue;
      if (Number(pid) !== process.pid && isAlive(Number(pid))) continue;
      await rm(path.join(workDir, name), { recursive: true, force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
