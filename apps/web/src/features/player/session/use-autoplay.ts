import { useEffect, useRef } from 'react';
import { isInAutoplayZone } from '../core/autoplay.ts';
import { playerStore, type PlayerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { usePlayerDeps } from './player-deps.tsx';

export interface AutoplayOptions {
  isAllowed?: (mediaType: PlayerMeta['type']) => boolean;
  store?: PlayerStore;
}

/**
 * Autoplay of the next episode: once the playing source enters its last 1 %, `goNext` runs (once per
 * title) when allowed. `goNext` null: there is no next episode.
 */
export function useAutoplay(
  meta: PlayerMeta,
  goNext: (() => void) | null,
  { isAllowed: given, store = playerStore }: AutoplayOptions = {},
) {
  const deps = usePlayerDeps();
  const isAllowed = given ?? deps.autoplayAllowed;
  const nextRef = useRef(goNext);
  const allowedRef = useRef(isAllowed);
  useEffect(() => {
    nextRef.current = goNext;
    allowedRef.current = isAllowed;
  });
  const hasNext = goNext !== null;
  useEffect(() => {
    let done = false;
    return store.subscribe((s) => {
      if (done || !hasNext || s.status !== 'playing' || !s.playback.hasPlayedOnce) return;
      if (allowedRef.current(meta.type) && isInAutoplayZone(s.playback.time, s.playback.duration)) {
        done = true;
        nextRef.current?.();
      }
    });
  }, [meta, hasNext, store]);
}
