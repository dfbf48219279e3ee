import { act, renderHook, waitFor } from '@testing-library/react';
import type { RuntimeConfig } from '@marquee/contract';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores, usePlayerPrefsStore } from '../../../stores/index.ts';
import { createPlayerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import type { runSession, SessionProblem } from '../scrape/session.ts';
import { episode, hlsSource, movie } from './test-meta.ts';
import { useCaptionsFollowSource, usePlaySession } from './use-play-session.ts';

type Run = typeof runSession;

beforeEach(() => {
  setRuntimeConfig({ captcha: { provider: 'none', siteKey: null } } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
});

const at = (entry: string | { pathname: string; search?: string; state?: unknown }) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[entry]}>{children}</MemoryRouter>;
  };

/** A runner that records its calls and answers with `answer` (or waits until the test resolves it). */
function fakeRun(answer: SessionProblem | null = null) {
  const calls: { meta: PlayerMeta; startAt: number; signal: AbortSignal }[] = [];
  const run = vi.fn<Run>(async (_store, meta, env, signal) => {
    calls.push({ meta, startAt: env.startAt(meta, null), signal });
    return answer;
  });
  return { run, calls };
}

describe('usePlaySession', () => {
  it('gives the store the last volume and whether to play before the first render', () => {
    usePlayerPrefsStore.getState().setPlayerPrefs({ volume: 0 });
    const store = createPlayerStore();
    const { run } = fakeRun();
    renderHook(() => usePlaySession(movie, { startOnOpen: true, run, store }), { wrapper: at('/media/x') });
    expect(store.getState().playback).toMatchObject({ volume: 1, muted: true });
    expect(store.getState().playRequested).toBe(true);
  });

  it('starts the session for the title (at ?t=) and shows its problem', async () => {
    const store = createPlayerStore();
    const { run, calls } = fakeRun({ kind: 'captcha' });
    const { result } = renderHook(() => usePlaySession(movie, { startOnOpen: false, run, store }), {
      wrapper: at('/media/x?t=1:30'),
    });
    await waitFor(() => expect(result.current.problem).toEqual({ kind: 'captcha' }));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.startAt).toBe(90);
    expect(store.getState().meta).toBe(movie);
    expect(store.getState().playRequested).toBe(false);
  });

  it('"from the start" (Next episode) starts at 0; retry and a new title start over', async () => {
    const store = createPlayerStore();
    const { run, calls } = fakeRun();
    const { result, rerender } = renderHook(
      ({ meta }) => usePlaySession(meta, { startOnOpen: true, run, store }),
      {
        wrapper: at({ pathname: '/media/x', state: { fromStart: true } }),
        initialProps: { meta: episode(1) },
      },
    );
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.startAt).toBe(0);
    act(() => result.current.retry());
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]!.signal.aborted).toBe(true);
    rerender({ meta: episode(2) });
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[1]!.signal.aborted).toBe(true);
    expect(calls[2]!.meta).toEqual(episode(2));
    expect(store.getState().meta).toEqual(episode(2));
  });

  it('ignores the answer of a session that was replaced', async () => {
    const store = createPlayerStore();
    let answerFirst: (p: SessionProblem | null) => void = () => undefined;
    const run = vi
      .fn<Run>()
      .mockImplementationOnce(() => new Promise((r) => (answerFirst = r)))
      .mockResolvedValue(null);
    const { result, rerender } = renderHook(
      ({ meta }) => usePlaySession(meta, { startOnOpen: true, run, store }),
      { wrapper: at('/media/x'), initialProps: { meta: episode(1) } },
    );
    rerender({ meta: episode(2) });
    await act(async () => answerFirst({ kind: 'removed' }));
    expect(result.current.problem).toBeNull();
  });
});

describe('useCaptionsFollowSource', () => {
  it('brings captions back on each new source, not when the player resets', () => {
    const store = createPlayerStore();
    const select = vi.fn(async () => undefined);
    renderHook(() => useCaptionsFollowSource(select, store));
    act(() => store.getState().setSource(hlsSource, { sourceId: 'a' }));
    act(() => store.getState().setSource(hlsSource, { sourceId: 'b' }));
    act(() => store.getState().reset());
    act(() => store.getState().updatePlayback({ time: 3 }));
    expect(select).toHaveBeenCalledTimes(2);
  });
});
