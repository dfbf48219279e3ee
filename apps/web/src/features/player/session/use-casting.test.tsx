import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createPlayerStore } from '../core/player-store.ts';
import { castUrl, useCasting } from './use-casting.ts';

describe('castUrl', () => {
  it('casts the HLS playlist, or the file of the quality that plays', () => {
    expect(castUrl({ source: null, currentQuality: null })).toBeNull();
    expect(castUrl({ source: { type: 'hls', url: 'h.m3u8' }, currentQuality: null })).toBe('h.m3u8');
    const file = {
      type: 'file' as const,
      qualities: { '720': { type: 'mp4' as const, url: '720.mp4' } },
    };
    expect(castUrl({ source: file, currentQuality: '720' })).toBe('720.mp4');
    expect(castUrl({ source: file, currentQuality: '1080' })).toBeNull();
    expect(castUrl({ source: file, currentQuality: null })).toBeNull();
  });
});

describe('useCasting', () => {
  it('loads the Cast sender only once Play was asked for, and stops it on unmount', async () => {
    const store = createPlayerStore();
    const stop = vi.fn();
    const setUp = vi.fn(async () => stop);
    const view = renderHook(() => useCasting({ setUp, store }));
    expect(setUp).not.toHaveBeenCalled();
    await act(async () => store.getState().requestPlay());
    expect(setUp).toHaveBeenCalledOnce();
    const [passedStore, currentUrl] = setUp.mock.calls[0] as unknown as [unknown, () => string | null];
    expect(passedStore).toBe(store);
    act(() => store.getState().setSource({ type: 'hls', url: 'h.m3u8' }, { sourceId: 's' }));
    expect(currentUrl()).toBe('h.m3u8');
    view.unmount();
    expect(stop).toHaveBeenCalledOnce();
  });

  it('stops a sender that finished loading after the player went away', async () => {
    const store = createPlayerStore();
    store.getState().setPlayRequested(true);
    const stop = vi.fn();
    let resolve: (stop: () => void) => void = () => undefined;
    const setUp = vi.fn(() => new Promise<() => void>((r) => (resolve = r)));
    const view = renderHook(() => useCasting({ setUp, store }));
    view.unmount();
    await act(async () => resolve(stop));
    expect(stop).toHaveBeenCalledOnce();
  });
});
