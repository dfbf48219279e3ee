// The ASS/SSA renderer (JASSUB: libass in WebAssembly, in a worker), loaded only when a caption with its
// own ASS script is chosen (styled-captions.ts). Everything it runs is part of this build, served from
// this origin: its worker, both WebAssembly builds and its default font. It asks no one for fonts
// (queryFonts: false), so nothing is fetched from elsewhere and the browser asks no permission.
import JASSUB from 'jassub';
import defaultFontUrl from 'jassub/dist/default.woff2?url';
import wasmUrl from 'jassub/dist/wasm/jassub-worker.wasm?url';
import modernWasmUrl from 'jassub/dist/wasm/jassub-worker-modern.wasm?url';
import workerUrl from 'jassub/dist/worker/worker.js?worker&url';

/** An ASS script drawn over the video, in step with it. */
export interface AssRenderer {
  /** The viewer's caption delay in seconds (later when positive), as the text captions apply it. */
  setDelay(seconds: number): void;
  destroy(): Promise<void>;
}

/** The font JASSUB falls back to for every font the script names that it does not have. */
const DEFAULT_FONT = 'liberation sans';

/**
 * Starts drawing the ASS script at `url` over `video`; resolves once the script is parsed and the
 * renderer runs, rejects (and cleans up) when the worker or WebAssembly cannot start.
 */
export async function startAssRenderer(o: {
  video: HTMLVideoElement;
  url: string;
  delay: number;
}): Promise<AssRenderer> {
  // JASSUB draws on each video frame (requestVideoFrameCallback; its polyfill is not bundled: rvfc-native.ts).
  if (!('requestVideoFrameCallback' in HTMLVideoElement.prototype))
    throw new Error('this browser has no requestVideoFrameCallback');
  const instance = new JASSUB({
    video: o.video,
    subUrl: o.url,
    workerUrl,
    wasmUrl,
    modernWasmUrl,
    // Loaded before the script is read, so the first frame (also a paused one) has its letters.
    fonts: [defaultFontUrl],
    defaultFont: DEFAULT_FONT,
    queryFonts: false,
  });
  instance.timeOffset = -o.delay;
  try {
    const failed = new Promise<never>((_, reject) =>
      instance._worker.addEventListener('error', (e) => reject(new Error(e.message || 'worker failed')), {
        once: true,
      }),
    );
    // A worker error after the start is the renderer's own affair (it stops drawing), not ours.
    failed.catch(() => undefined);
    await Promise.race([instance.ready, failed]);
    // The worker answers after its own start, which reports failures only to its console: a renderer
    // whose WebAssembly did not start has no script to list.
    const styles = await Promise.race([instance.renderer.getStyles(), failed]);
    if (!Array.isArray(styles) || styles.length === 0) throw new Error('the ASS renderer did not start');
    // The frame on screen now, also when paused (JASSUB otherwise waits for the next frame to show).
    if (o.video.videoWidth > 0)
      await instance.manualRender({
        mediaTime: o.video.currentTime,
        width: o.video.videoWidth,
        height: o.video.videoHeight,
        expectedDisplayTime: performance.now(),
      });
  } catch (error) {
    await instance.destroy().catch(() => undefined);
    throw error;
  }
  return {
    setDelay: (seconds) => {
      instance.timeOffset = -seconds;
    },
    destroy: () => instance.destroy(),
  };
}
