import { useEffect } from 'react';
import { useStore } from 'zustand';
import { playerStore, type PlayerState, type PlayerStore } from '../core/player-store.ts';
import type { setUpCasting } from '../display/cast.ts';
import { usePlayerDeps } from './player-deps.tsx';

/** What a cast session gets: the HLS playlist, or the file of the quality that plays. */
export function castUrl(state: Pick<PlayerState, 'source' | 'currentQuality'>): string | null {
  const s = state.source;
  if (!s) return null;
  if (s.type === 'hls') return s.url;
  const q = state.currentQuality;
  return (q && s.qualities[q]?.url) || null;
}

export interface CastingOptions {
  setUp?: typeof setUpCasting;
  store?: PlayerStore;
}

/** Chromecast: Google's sender script (a third party) loads once the viewer wants to watch, not on open. */
export function useCasting({ setUp: given, store = playerStore }: CastingOptions = {}) {
  const deps = usePlayerDeps();
  const setUp = given ?? deps.setUpCasting;
  const playRequested = useStore(store, (s) => s.playRequested);
  useEffect(() => {
    if (!playRequested) return undefined;
    let stopCast: () => void = () => undefined;
    let live = true;
    void setUp(store, () => castUrl(store.getState())).then((stop) => {
      if (live) stopCast = stop;
      else stop();
    });
    return () => {
      live = false;
      stopCast();
    };
  }, [playRequested, setUp, store]);
}
