import type { QualityPreference, StreamQuality } from '@marquee/contract';
import type { PlaybackError, PlayerSource } from '../core/types.ts';

/** What an adapter reports back (the display turns it into store updates). */
export interface AdapterContext {
  video: HTMLVideoElement;
  qualityPreference(): QualityPreference;
  onQualities(available: StreamQuality[], current: StreamQuality | null): void;
  onError(error: PlaybackError): void;
}

/** One playback back-end (vidstack's provider): loads a source into the element and switches qualities. */
export interface PlaybackAdapter {
  load(source: PlayerSource, startAt: number): void;
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
