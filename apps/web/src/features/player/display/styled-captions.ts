import type { PlayerStore } from '../core/player-store.ts';
import type { AssRenderer } from './ass-renderer.ts';

/** How long the ASS renderer may take to start before the text captions stay instead. */
export const ASS_START_TIMEOUT_MS = 20_000;

export interface StyledCaptionsOptions {
  video: HTMLVideoElement;
  store: PlayerStore;
  /** The viewer's caption delay in seconds, and a way to follow it (returns the unsubscribe). */
  delay(): number;
  onDelay(listener: (seconds: number) => void): () => void;
  /** Starts the renderer; by default the lazily loaded JASSUB chunk (tests pass their own). */
  start?: (o: { video: HTMLVideoElement; url: string; delay: number }) => Promise<AssRenderer>;
  startTimeoutMs?: number;
}

const startJassub: NonNullable<StyledCaptionsOptions['start']> = async (o) =>
  (await import('./ass-renderer.ts')).startAssRenderer(o);

/**
 * A chosen caption that has its own ASS script (a library ASS/SSA track, decision 085) is drawn with
 * its styling by JASSUB over the video; the store says whether it draws (`assRenderer`), and the text
 * captions stand in until it does, or for good when it cannot start. Returns the teardown.
 */
export function attachStyledCaptions(o: StyledCaptionsOptions): () => void {
  const { store } = o;
  const start = o.start ?? startJassub;
  let url: string | null = null;
  let renderer: AssRenderer | null = null;
  let attempt = 0;
  const set = (state: 'off' | 'starting' | 'drawing' | 'failed') => store.getState().setAssRenderer(state);

  const stop = () => {
    attempt++;
    void renderer?.destroy().catch(() => undefined);
    renderer = null;
  };

  const follow = (next: string | null) => {
    if (next === url) return;
    stop();
    url = next;
    if (!next) {
      set('off');
      return;
    }
    const mine = attempt;
    set('starting');
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('the ASS renderer took too long')),
        o.startTimeoutMs ?? ASS_START_TIMEOUT_MS,
      );
    });
    const starting = start({ video: o.video, url: next, delay: o.delay() });
    Promise.race([starting, timeout]).then(
      (started) => {
        clearTimeout(timer);
        if (mine !== attempt) {
          void started.destroy().catch(() => undefined);
          return;
        }
        renderer = started;
        set('drawing');
      },
      () => {
        clearTimeout(timer);
        // Late starts are torn down too.
        void starting.then((late) => late.destroy()).catch(() => undefined);
        if (mine === attempt) set('failed');
      },
    );
  };

  follow(store.getState().caption?.assUrl ?? null);
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.caption !== prev.caption) follow(s.caption?.assUrl ?? null);
  });
  const stopDelay = o.onDelay((seconds) => renderer?.setDelay(seconds));
  return () => {
    unsubscribe();
    stopDelay();
    stop();
    url = null;
    if (store.getState().assRenderer !== 'off') set('off');
  };
}
