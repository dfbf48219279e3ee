import { fetchExternalText } from '../../../lib/api/index.ts';
import type { PlayerSource } from '../core/types.ts';
import { HLS_BUFFER_CONFIG, loadHlsEngine } from './hls-adapter.ts';
import { cuesByImage, parseThumbnailTrack } from './thumbnail-track.ts';

export const THUMBNAIL_COUNT = 65;

/** 0, 1, ½, ¼, ¾, ⅛, ⅜ … : the bar gets coarse coverage first, then finer. */
export function bisectionOrder(count = THUMBNAIL_COUNT): number[] {
  const out: number[] = [0, 1];
  for (let denominator = 2; out.length < count; denominator *= 2) {
    for (let n = 1; n < denominator && out.length < count; n += 2) out.push(n / denominator);
  }
  return out.slice(0, count);
}

const seekTo = (video: HTMLVideoElement, time: number) =>
  new Promise<void>((resolve, reject) => {
    const done = () => {
      video.removeEventListener('seeked', done);
      video.removeEventListener('error', fail);
      resolve();
    };
    const fail = () => reject(new Error('thumbnail seek failed'));
    video.addEventListener('seeked', done);
    video.addEventListener('error', fail);
    video.currentTime = time;
  });

/**
 * Seek-bar thumbnails (when the viewer enables them, once playback has started): a hidden muted video
 * of the lowest quality is seeked to 65 positions and each frame drawn small. Stops when `signal`
 * aborts. It fetches only what each seek needs: metadata first, a few seconds around each position.
 */
export async function generateThumbnails(
  source: PlayerSource,
  onThumbnail: (at: number, data: string) => void,
  signal: AbortSignal,
): Promise<void> {
  const video = document.createElement('video');
  video.muted = true;
  video.crossOrigin = 'anonymous';
  video.preload = 'metadata';
  let cleanup = () => undefined as void;
  if (source.type === 'file') {
    const order = ['360', '480', '720', '1080', '4k', 'unknown'] as const;
    const file = order.map((q) => source.qualities[q]).find((f) => f?.url);
    if (!file) return;
    video.src = file.url;
  } else {
    const { default: Hls } = await loadHlsEngine();
    if (!Hls.isSupported()) return;
    const hls = new Hls({
      ...HLS_BUFFER_CONFIG,
      autoStartLoad: true,
      capLevelToPlayerSize: false,
      startLevel: 0,
      maxBufferLength: 4,
      maxMaxBufferLength: 8,
      maxBufferSize: 8 * 1000 * 1000,
      backBufferLength: 0,
    });
    hls.attachMedia(video);
    hls.loadSource(source.url);
    hls.on(Hls.Events.MANIFEST_PARSED, () => {
      hls.currentLevel = 0;
    });
    cleanup = () => hls.destroy();
  }
  try {
    await new Promise<void>((resolve, reject) => {
      video.addEventListener('loadedmetadata', () => resolve(), { once: true });
      video.addEventListener('error', () => reject(new Error('thumbnail load failed')), { once: true });
      signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
    const canvas = document.createElement('canvas');
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    if (duration <= 0) return;
    for (const fraction of bisectionOrder()) {
      if (signal.aborted) return;
      const at = Math.min(duration - 0.1, fraction * duration);
      await seekTo(video, at);
      const width = 160;
      const height = Math.round((video.videoHeight / Math.max(1, video.videoWidth)) * width) || 90;
      canvas.width = width;
      canvas.height = height;
      canvas.getContext('2d')?.drawImage(video, 0, 0, width, height);
      onThumbnail(at, canvas.toDataURL('image/jpeg', 0.6));
    }
  } catch {
    // Thumbnails are a nicety: a host without CORS or a failed seek just leaves the bar without them.
  } finally {
    cleanup();
    video.removeAttribute('src');
    video.load();
  }
}

/** Tiles are drawn at most this wide (the bar shows them 96 px tall): memory stays small on long films. */
const SPRITE_THUMBNAIL_WIDTH = 240;

const loadImage = (url: string, signal: AbortSignal) =>
  new Promise<HTMLImageElement>((resolve, reject) => {
    const image = new Image();
    // The sprites come with `Access-Control-Allow-Origin: *`: the canvas stays readable.
    image.crossOrigin = 'anonymous';
    const stop = () => {
      image.src = '';
      reject(new Error('aborted'));
    };
    image.onload = () => {
      signal.removeEventListener('abort', stop);
      resolve(image);
    };
    image.onerror = () => {
      signal.removeEventListener('abort', stop);
      reject(new Error('thumbnail sprite failed to load'));
    };
    signal.addEventListener('abort', stop, { once: true });
    image.src = url;
  });

/** Lets the page paint between batches of tiles. */
const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Seek-bar thumbnails the server made (a library title's `thumbnails` track, decision 086): the WebVTT
 * is read, each sprite loaded once, and each cue's tile cut out into a small image, at the middle of
 * its cue (the bar shows the thumbnail nearest the hovered time). Rejects when the track cannot be used,
 * so the caller can grab frames in the browser instead.
 */
export async function loadSpriteThumbnails(
  trackUrl: string,
  onThumbnail: (at: number, data: string) => void,
  signal: AbortSignal,
  fetchText: (url: string, signal: AbortSignal) => Promise<string> = fetchExternalText,
): Promise<void> {
  const cues = parseThumbnailTrack(await fetchText(trackUrl, signal), trackUrl);
  if (!cues.length) throw new Error('thumbnail track: no cues');
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) throw new Error('thumbnail track: no canvas');
  let drawn = 0;
  for (const [url, imageCues] of cuesByImage(cues)) {
    if (signal.aborted) return;
    const image = await loadImage(url, signal);
    for (const cue of imageCues) {
      if (signal.aborted) return;
      const tile = cue.tile ?? { x: 0, y: 0, width: image.naturalWidth, height: image.naturalHeight };
      if (tile.width <= 0 || tile.height <= 0) continue;
      const width = Math.min(SPRITE_THUMBNAIL_WIDTH, tile.width);
      canvas.width = width;
      canvas.height = Math.max(1, Math.round((tile.height / tile.width) * width));
      context.drawImage(image, tile.x, tile.y, tile.width, tile.height, 0, 0, canvas.width, canvas.height);
      onThumbnail((cue.start + cue.end) / 2, canvas.toDataURL('image/jpeg', 0.7));
      if (++drawn % 20 === 0) await yieldToPage();
    }
  }
}
