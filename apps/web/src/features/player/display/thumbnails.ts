import type { PlayerSource } from '../core/types.ts';
import { HLS_BUFFER_CONFIG, loadHlsEngine } from './hls-adapter.ts';

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
