import type { QualityPreference, StreamQuality } from '../core/quality.ts';
import type { PlaybackError, PlayerSource } from '../core/types.ts';

/** What an adapter reports back (the display turns it into store updates). */
export interface AdapterContext {
  video: HTMLVideoElement;
  qualityPreference(): QualityPreference;
  onQualities(available: StreamQuality[], current: StreamQuality | null): void;
  onError(error: PlaybackError): void;
}

/**
 * One playback back-end (vidstack's provider): loads a source into the element and switches qualities.
 * Nothing but metadata (playlists) loads before `start`: no media bytes before the viewer presses Play.
 */
export interface PlaybackAdapter {
  /** Prepares the source to start at `startAt`: the element gets it, at most its metadata loads. */
  load(source: PlayerSource, startAt: number): void;
  /** Starts fetching media from `at` (seconds); the display then asks the element to play. Once only. */
  start(at: number): void;
  /** A quality, or null for automatic. */
  setQuality(quality: StreamQuality | null): void;
  /** The URL of what plays now (downloads, casting, thumbnails). */
  currentUrl(): string | null;
  destroy(): void;
}

/** Small and eager: answers canPlay; `create` may import the heavy engine lazily (hls.js). */
export interface AdapterLoader {
  readonly name: string;
  canPlay(source: PlayerSource, video: HTMLVideoElement): boolean;
  create(ctx: AdapterContext): Promise<PlaybackAdapter>;
}

/**
 * One-shot element listeners that an adapter drops when it is destroyed, so a listener of a source
 * that never loaded cannot act on the next source's events.
 */
export class ElementListeners {
  private readonly added: [string, EventListener][] = [];
  constructor(private readonly video: HTMLVideoElement) {}
  once(type: string, fn: () => void): void {
    const listener: EventListener = () => {
      this.remove(listener);
      fn();
    };
    this.added.push([type, listener]);
    this.video.addEventListener(type, listener, { once: true });
  }
  private remove(listener: EventListener) {
    const i = this.added.findIndex(([, l]) => l === listener);
    if (i >= 0) this.added.splice(i, 1);
  }
  clear(): void {
    for (const [type, l] of this.added.splice(0)) this.video.removeEventListener(type, l);
  }
}
