import { isStreamQuality, selectQuality, sortQualities, type StreamQuality } from '../core/quality.ts';
import type { PlayerSource } from '../core/types.ts';
import {
  ElementListeners,
  type AdapterContext,
  type AdapterLoader,
  type PlaybackAdapter,
} from './adapter.ts';

type FileSource = Extract<PlayerSource, { type: 'file' }>;

const mimeOf = (type: 'mp4' | 'webm') => (type === 'mp4' ? 'video/mp4' : 'video/webm');

/**
 * Plays files by quality through the element itself; a quality change reloads at the same time.
 * Before start() the element has its file but preload="none" (set by the display): nothing loads.
 */
class FileAdapter implements PlaybackAdapter {
  private source: FileSource | null = null;
  private url: string | null = null;
  private startAt = 0;
  private started = false;
  private readonly listeners: ElementListeners;

  constructor(private readonly ctx: AdapterContext) {
    this.listeners = new ElementListeners(ctx.video);
  }

  private available(): StreamQuality[] {
    const qualities = this.source?.qualities ?? {};
    return sortQualities(
      Object.keys(qualities)
        .filter(isStreamQuality)
        .filter((q) => qualities[q]?.url),
    );
  }

  private play(quality: StreamQuality, startAt: number, resume: boolean) {
    const file = this.source?.qualities[quality];
    if (!file) return;
    const { video } = this.ctx;
    this.url = file.url;
    this.startAt = startAt;
    // Read when the metadata arrives: a seek before Play (start) may have moved the start since.
    const seek = () => {
      if (this.startAt > 0) video.currentTime = this.startAt;
      if (resume) void video.play().catch(() => undefined);
    };
    this.listeners.clear();
    this.listeners.once('loadedmetadata', seek);
    video.src = file.url;
    video.load();
    this.ctx.onQualities(this.available(), quality);
  }

  load(source: PlayerSource, startAt: number) {
    if (source.type !== 'file') return;
    this.source = source;
    let quality: StreamQuality;
    try {
      quality = selectQuality(this.available(), this.ctx.qualityPreference());
    } catch (error) {
      this.ctx.onError({ source: 'video', code: 'notSupported', message: (error as Error).message });
      return;
    }
    this.play(quality, startAt, false);
  }

  start(at: number) {
    if (this.started) return;
    this.started = true;
    this.startAt = at;
    this.ctx.video.preload = 'auto';
  }

  setQuality(quality: StreamQuality | null) {
    const available = this.available();
    if (available.length === 0) return;
    const target =
      quality === null
        ? selectQuality(available, { automaticQuality: true, lastChosenQuality: null })
        : selectQuality(available, { automaticQuality: false, lastChosenQuality: quality });
    const { video } = this.ctx;
    this.play(target, this.started ? video.currentTime : this.startAt, this.started && !video.paused);
  }

  currentUrl() {
    return this.url;
  }

  destroy() {
    this.listeners.clear();
    const { video } = this.ctx;
    video.removeAttribute('src');
    video.load();
    this.source = null;
  }
}

export const fileLoader: AdapterLoader = {
  name: 'file',
  canPlay: (source, video) =>
    source.type === 'file' &&
    Object.values(source.qualities).some(
      (f) => f && (video.canPlayType(mimeOf(f.type)) !== '' || f.type === 'mp4'),
    ),
  create: async (ctx) => new FileAdapter(ctx),
};
