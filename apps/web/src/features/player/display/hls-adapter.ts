import { selectQuality, sortQualities, type StreamQuality } from '../core/quality.ts';
// hls.js's ES module build has no worker inside; its worker is its own file, served from this origin.
import hlsWorkerUrl from 'hls.js/dist/hls.worker.js?url';
import type { PlayerSource } from '../core/types.ts';
import {
  ElementListeners,
  type AdapterContext,
  type AdapterLoader,
  type PlaybackAdapter,
} from './adapter.ts';
import { hlsError } from './media-error.ts';

type HlsModule = typeof import('hls.js/light');
type HlsInstance = InstanceType<HlsModule['default']>;

/** hls.js levels map to qualities by height; other heights are not offered by name. */
export function qualityOfHeight(height: number): StreamQuality | null {
  if (height >= 2000) return '4k';
  if (height >= 1000) return '1080';
  if (height >= 700) return '720';
  if (height >= 460) return '480';
  if (height >= 340) return '360';
  return null;
}

/** The engine is loaded only when an HLS source shows up, and only once. */
let engine: Promise<HlsModule> | null = null;
export const loadHlsEngine = () => (engine ??= import('hls.js/light'));

/**
 * Buffer targets for phones: 30 s ahead, up to 60 s at a low bitrate, never more than 60 MB, and
 * 90 s kept behind the playhead (hls.js's defaults let a low-bitrate stream buffer 600 s / 500 MB).
 * Transmuxing runs in a worker (a same-origin file, so `worker-src 'self'`), not on the main thread.
 */
export const HLS_BUFFER_CONFIG = {
  maxBufferLength: 30,
  maxMaxBufferLength: 60,
  maxBufferSize: 60 * 1000 * 1000,
  backBufferLength: 90,
  enableWorker: true,
  workerPath: hlsWorkerUrl,
} as const;

/** HLS through hls.js (Media Source Extensions): qualities from the playlist's levels, automatic = ABR. */
class HlsJsAdapter implements PlaybackAdapter {
  private hls: HlsInstance | null = null;
  private url: string | null = null;
  private recoveredMedia = false;
  private started = false;
  private startAt = 0;
  /** A server conversion: automatic means the top rendition, not ABR (see PlayerSource). */
  private conversion = false;
  private readonly listeners: ElementListeners;

  constructor(
    private readonly ctx: AdapterContext,
    private readonly Hls: HlsModule['default'],
  ) {
    this.listeners = new ElementListeners(ctx.video);
  }

  private levelQualities(): (StreamQuality | null)[] {
    return (this.hls?.levels ?? []).map((l) => qualityOfHeight(l.height));
  }

  private report() {
    const hls = this.hls;
    if (!hls) return;
    const qualities = this.levelQualities();
    const available = sortQualities(qualities.filter((q): q is StreamQuality => q !== null));
    const level = hls.currentLevel >= 0 ? hls.currentLevel : hls.nextLoadLevel;
    this.ctx.onQualities(
      available.length ? available : ['unknown'],
      qualities[level] ?? (available.length ? null : 'unknown'),
    );
  }

  /**
   * Applies the viewer's quality. The first time (manifest just parsed) only the start level is set:
   * an immediate level switch then would flush the buffer and lose the resume position.
   */
  private applyPreference(preference = this.ctx.qualityPreference(), initial = false) {
    const hls = this.hls;
    if (!hls) return;
    const qualities = this.levelQualities();
    const available = qualities.filter((q): q is StreamQuality => q !== null);
    const automatic = preference.automaticQuality || !preference.lastChosenQuality || available.length === 0;
    const level = automatic ? this.automaticLevel() : qualities.indexOf(selectQuality(available, preference));
    if (initial) {
      // startLevel picks the first fragment's level; loadLevel keeps it (manual mode) without a flush.
      if (level >= 0) {
        hls.startLevel = level;
        hls.loadLevel = level;
      }
      return;
    }
    hls.currentLevel = level;
  }

  /** ABR (-1), or for a server conversion the level with the highest bitrate. */
  private automaticLevel(): number {
    const levels = this.hls?.levels ?? [];
    if (!this.conversion || levels.length === 0) return -1;
    return levels.reduce((best, level, i) => (level.bitrate > levels[best]!.bitrate ? i : best), 0);
  }

  load(source: PlayerSource, startAt: number) {
    if (source.type !== 'hls') return;
    this.conversion = source.conversion === true;
    const { Hls, ctx } = this;
    const hls = new Hls({
      ...HLS_BUFFER_CONFIG,
      // Playlists load now (qualities, duration); segments only from start(), when the viewer plays.
      autoStartLoad: false,
      startPosition: startAt > 0 ? startAt : -1,
      fragLoadPolicy: {
        default: {
          maxTimeToFirstByteMs: 30_000,
          maxLoadTimeMs: 30_000,
          timeoutRetry: { maxNumRetry: 3, retryDelayMs: 0, maxRetryDelayMs: 0 },
          errorRetry: { maxNumRetry: 2, retryDelayMs: 1000, maxRetryDelayMs: 8000 },
        },
      },
    });
    this.hls = hls;
    this.url = source.url;
    hls.on(Hls.Events.MANIFEST_PARSED, () => {
      this.applyPreference(undefined, true);
      this.report();
    });
    hls.on(Hls.Events.LEVEL_SWITCHED, () => this.report());
    hls.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      // A decode hiccup is worth one recovery; anything else ends playback with its code.
      if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !this.recoveredMedia) {
        this.recoveredMedia = true;
        hls.recoverMediaError();
        // Re-attaching does not restart loading by itself when autoStartLoad is off (at least at 0 s).
        if (this.started) {
          const at = ctx.video.currentTime > 0 ? ctx.video.currentTime : this.startAt;
          hls.startLoad(at > 0 ? at : -1);
        }
        return;
      }
      ctx.onError(hlsError(data));
    });
    this.startAt = startAt;
    // hls.js may leave the element at 0 while it applies startPosition; the first frame must be the
    // start position's. Checked again when it can first play, in case loading moved it back to 0.
    const applyStart = () => {
      const at = this.startAt;
      if (at > 0 && ctx.video.currentTime < 0.5 && Math.abs(ctx.video.currentTime - at) > 1)
        ctx.video.currentTime = at;
    };
    this.listeners.once('loadedmetadata', applyStart);
    this.listeners.once('canplay', applyStart);
    hls.attachMedia(ctx.video);
    hls.loadSource(source.url);
  }

  start(at: number) {
    if (this.started || !this.hls) return;
    this.started = true;
    this.startAt = at;
    this.hls.startLoad(at > 0 ? at : -1);
  }

  setQuality(quality: StreamQuality | null) {
    // Before start nothing is buffered: the choice only sets the level the first segment comes from.
    this.applyPreference({ automaticQuality: quality === null, lastChosenQuality: quality }, !this.started);
    this.report();
  }

  currentUrl() {
    return this.url;
  }

  destroy() {
    this.listeners.clear();
    this.hls?.destroy();
    this.hls = null;
    const { video } = this.ctx;
    video.removeAttribute('src');
    video.load();
  }
}

/** Browsers without Media Source Extensions (iOS) play HLS themselves: one "unknown" quality. */
class NativeHlsAdapter implements PlaybackAdapter {
  private url: string | null = null;
  private startAt = 0;
  private readonly listeners: ElementListeners;
  constructor(private readonly ctx: AdapterContext) {
    this.listeners = new ElementListeners(ctx.video);
  }
  load(source: PlayerSource, startAt: number) {
    if (source.type !== 'hls') return;
    const { video } = this.ctx;
    this.url = source.url;
    this.startAt = startAt;
    // Read when the metadata arrives, which preload="none" (set by the display) holds back until start().
    this.listeners.once('loadedmetadata', () => {
      if (this.startAt > 0) video.currentTime = this.startAt;
    });
    video.src = source.url;
    this.ctx.onQualities(['unknown'], 'unknown');
  }
  start(at: number) {
    this.startAt = at;
    this.ctx.video.preload = 'auto';
  }
  setQuality() {}
  currentUrl() {
    return this.url;
  }
  destroy() {
    this.listeners.clear();
    this.ctx.video.removeAttribute('src');
    this.ctx.video.load();
  }
}

const hasMse = () =>
  typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);

export const hlsLoader: AdapterLoader = {
  name: 'hls',
  canPlay: (source, video) =>
    source.type === 'hls' && (hasMse() || video.canPlayType('application/vnd.apple.mpegurl') !== ''),
  async create(ctx) {
    if (!hasMse()) return new NativeHlsAdapter(ctx);
    const { default: Hls } = await loadHlsEngine();
    return Hls.isSupported() ? new HlsJsAdapter(ctx, Hls) : new NativeHlsAdapter(ctx);
  },
};
