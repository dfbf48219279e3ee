import { LRUCache } from 'lru-cache';
import { readdir, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { ConversionPeers } from './conversion-peers.ts';
import type { FfmpegTools, HardwareAcceleration } from './ffmpeg.ts';
import {
  HlsConversions,
  type ConversionLimits,
  type ConvertibleFile,
  type HlsConversionsOptions,
} from './hls-conversions.ts';
import { readKeyframes } from './keyframes.ts';
import { SubtitleTracks } from './subtitle-tracks.ts';

export interface MediaPipelineOptions {
  tools: FfmpegTools;
  /** Where conversions and converted subtitles are written (`<DATA_DIR>/transcodes`). */
  workDir: string;
  limits: ConversionLimits;
  hardware: HardwareAcceleration;
  vaapiDevice?: string | undefined;
  /** The other servers behind the same balancer (Redis): one conversion serves them all. */
  peers?: ConversionPeers | undefined;
  /** A library file and plan by their ids (what a peer asks this process to convert). */
  resolve?: HlsConversionsOptions['resolve'];
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
      // One folder per process: processes sharing the folder never touch each other's conversions,
      // and read each other's through it (decision 087).
      workDir: path.join(o.workDir, processFolder(hostname(), process.pid)),
      sharedDir: o.workDir,
      ...(o.peers ? { peers: o.peers } : {}),
      ...(o.resolve ? { resolve: o.resolve } : {}),
      limits: o.limits,
      hardware: o.hardware,
      ...(o.vaapiDevice ? { vaapiDevice: o.vaapiDevice } : {}),
      ...(o.log ? { log: o.log } : {}),
    });
    this.subtitles = new SubtitleTracks({ ffmpeg: o.tools.ffmpeg, workDir: o.workDir });
    // Folders of servers that stopped without cleaning up (another machine sharing the folder).
    this.cleaner = setInterval(
      () => void MediaPipeline.removeStale(o.workDir, { keepOwn: true }),
      10 * 60_000,
    );
    this.cleaner.unref();
  }

  private readonly cleaner: NodeJS.Timeout;

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

  async close(): Promise<void> {
    clearInterval(this.cleaner);
    await this.conversions.close();
    await this.o.peers?.close();
  }

  /**
   * Removes the conversions of processes that are gone (a crash, a restart): they restart on demand.
   * On this machine a process is gone when its pid is; a folder of another machine sharing the folder is
   * gone when its process stopped touching it (every few seconds while it runs) ten minutes ago.
   */
  static async removeStale(workDir: string, o: { keepOwn?: boolean; nowMs?: number } = {}): Promise<void> {
    const nowMs = o.nowMs ?? Date.now();
    const names = await readdir(workDir).catch(() => [] as string[]);
    const host = hostname();
    for (const name of names) {
      const match = /^hls-(?:(.+)-)?(\d+)$/.exec(name);
      if (!match) continue;
      const pid = Number(match[2]);
      const here = match[1] === undefined || match[1] === safeHost(host);
      if (here && pid === process.pid) {
        // At start-up, a folder of this pid is a previous process's (pids are reused).
        if (o.keepOwn) continue;
      } else if (here && isAlive(pid)) continue;
      if (!here) {
        const touched = await stat(path.join(workDir, name)).then(
          (s) => s.mtimeMs,
          () => 0,
        );
        if (nowMs - touched < 10 * 60_000) continue;
      }
      await rm(path.join(workDir, name), { recursive: true, force: true });
    }
  }
}

const safeHost = (host: string) => host.replace(/[^A-Za-z0-9.-]/g, '_') || 'host';

/** The folder of one process's conversions: its machine and pid. */
export const processFolder = (host: string, pid: number) => `hls-${safeHost(host)}-${pid}`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
