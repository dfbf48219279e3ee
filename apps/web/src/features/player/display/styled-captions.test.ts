import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPlayerStore, type PlayerStore } from '../core/player-store.ts';
import type { AssRenderer } from './ass-renderer.ts';
import { attachStyledCaptions } from './styled-captions.ts';

// A caption with its own ASS script is drawn by the ASS renderer; the text cues stand in until it draws,
// and for good when it cannot start (decision 085).

const caption = (id: string, assUrl?: string) => ({
  id,
  language: 'fr',
  cues: [{ start: 1, end: 2, text: 'Bonjour' }],
  srtData: '',
  ...(assUrl ? { assUrl } : {}),
});

function fakeRenderer() {
  const renderer = { setDelay: vi.fn(), destroy: vi.fn(async () => undefined) };
  return renderer satisfies AssRenderer;
}

let store: PlayerStore;
let delayListeners: ((seconds: number) => void)[];
const video = {} as HTMLVideoElement;

beforeEach(() => {
  vi.useFakeTimers();
  store = createPlayerStore();
  delayListeners = [];
});
afterEach(() => vi.useRealTimers());

const attach = (start: (o: { url: string; delay: number }) => Promise<AssRenderer>, delay = 0) =>
  attachStyledCaptions({
    video,
    store,
    delay: () => delay,
    onDelay: (listener) => {
      delayListeners.push(listener);
      return () => undefined;
    },
    start,
    startTimeoutMs: 5_000,
  });

describe('styled captions', () => {
  it('draw a caption that has an ASS script, follow the delay, and stop when it goes', async () => {
    const renderer = fakeRenderer();
    const start = vi.fn(async () => renderer);
    const detach = attach(start, 0.5);
    store.getState().setCaption(caption('plain'));
    expect(start).not.toHaveBeenCalled();
    expect(store.getState().assRenderer).toBe('off');

    store.getState().setCaption(caption('styled', '/subtitles/2.ass'));
    expect(store.getState().assRenderer).toBe('starting');
    expect(start).toHaveBeenCalledWith({ video, url: '/subtitles/2.ass', delay: 0.5 });
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().assRenderer).toBe('drawing');
    for (const listener of delayListeners) listener(-1.2);
    expect(renderer.setDelay).toHaveBeenCalledWith(-1.2);

    // The same script again (a new source of the same title) keeps it; Off removes it.
    store.getState().setCaption(caption('styled', '/subtitles/2.ass'));
    expect(start).toHaveBeenCalledOnce();
    store.getState().setCaption(null);
    expect(renderer.destroy).toHaveBeenCalledOnce();
    expect(store.getState().assRenderer).toBe('off');
    detach();
  });

  it('leave the text captions when the renderer cannot start', async () => {
    attach(async () => {
      throw new Error('no WebAssembly');
    });
    store.getState().setCaption(caption('styled', '/subtitles/2.ass'));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().assRenderer).toBe('failed');
  });

  it('leave them when it takes too long, and tear it down if it starts after all', async () => {
    const late = fakeRenderer();
    let resolve: (r: AssRenderer) => void = () => undefined;
    attach(() => new Promise<AssRenderer>((r) => (resolve = r)));
    store.getState().setCaption(caption('styled', '/subtitles/3.ass'));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(store.getState().assRenderer).toBe('starting');
    await vi.advanceTimersByTimeAsync(1);
    expect(store.getState().assRenderer).toBe('failed');
    resolve(late);
    await vi.advanceTimersByTimeAsync(0);
    expect(late.destroy).toHaveBeenCalledOnce();
    expect(store.getState().assRenderer).toBe('failed');
  });

  it('tear down a renderer that starts after the caption changed', async () => {
    const first = fakeRenderer();
    const second = fakeRenderer();
    let resolveFirst: (r: AssRenderer) => void = () => undefined;
    const start = vi
      .fn<(o: { url: string }) => Promise<AssRenderer>>()
      .mockImplementationOnce(() => new Promise((r) => (resolveFirst = r)))
      .mockImplementationOnce(async () => second);
    const detach = attach(start);
    store.getState().setCaption(caption('a', '/subtitles/2.ass'));
    store.getState().setCaption(caption('b', '/subtitles/3.ass'));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.getState().assRenderer).toBe('drawing');
    resolveFirst(first);
    await vi.advanceTimersByTimeAsync(0);
    expect(first.destroy).toHaveBeenCalledOnce();
    expect(store.getState().assRenderer).toBe('drawing');
    detach();
    expect(second.destroy).toHaveBeenCalledOnce();
    expect(store.getState().assRenderer).toBe('off');
  });
});
