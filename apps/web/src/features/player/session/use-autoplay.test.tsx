import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createPlayerStore, type PlayerStore } from '../core/player-store.ts';
import { episode, hlsSource } from './test-meta.ts';
import { useAutoplay } from './use-autoplay.ts';

/** A store playing a source that has played, at `time` of 100 s. */
function playingAt(store: PlayerStore, time: number) {
  act(() => {
    if (store.getState().status !== 'playing') store.getState().setSource(hlsSource, { sourceId: 's' });
    store.getState().updatePlayback({ hasPlayedOnce: true, duration: 100, time });
  });
}

describe('useAutoplay (next episode in the last 1 %)', () => {
  it('goes to the next episode once, when allowed, in the last 1 %', () => {
    const store = createPlayerStore();
    const goNext = vi.fn();
    const isAllowed = vi.fn(() => true);
    renderHook(() => useAutoplay(episode(1), goNext, { store, isAllowed }));
    playingAt(store, 50);
    playingAt(store, 98.9);
    expect(goNext).not.toHaveBeenCalled();
    playingAt(store, 99);
    playingAt(store, 99.5);
    expect(goNext).toHaveBeenCalledOnce();
    expect(isAllowed).toHaveBeenCalledWith('show');
  });

  it('stays when not allowed, when there is no next episode, or before the first frame', () => {
    const store = createPlayerStore();
    const goNext = vi.fn();
    const view = renderHook(
      ({ allowed, next }) => useAutoplay(episode(1), next, { store, isAllowed: () => allowed }),
      {
        initialProps: { allowed: false, next: goNext as (() => void) | null },
      },
    );
    playingAt(store, 99.5);
    view.rerender({ allowed: true, next: null });
    playingAt(store, 99.6);
    expect(goNext).not.toHaveBeenCalled();

    const fresh = createPlayerStore();
    renderHook(() => useAutoplay(episode(1), goNext, { store: fresh, isAllowed: () => true }));
    act(() => {
      fresh.getState().setSource(hlsSource, { sourceId: 's' });
      fresh.getState().updatePlayback({ duration: 100, time: 99.5 });
    });
    expect(goNext).not.toHaveBeenCalled();
  });

  it('runs the latest goNext, and again for the next title', () => {
    const store = createPlayerStore();
    const first = vi.fn();
    const second = vi.fn();
    const view = renderHook(({ meta, next }) => useAutoplay(meta, next, { store, isAllowed: () => true }), {
      initialProps: { meta: episode(1), next: first },
    });
    view.rerender({ meta: episode(1), next: second });
    playingAt(store, 99.5);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledOnce();
    view.rerender({ meta: episode(2), next: second });
    playingAt(store, 99.8);
    expect(second).toHaveBeenCalledTimes(2);
  });
});
