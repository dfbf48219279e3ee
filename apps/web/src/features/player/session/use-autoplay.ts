import { useEffect, useRef } from 'react';
import { extensionClient } from '../../../lib/extension/messaging.ts';
import { customProxyUrls } from '../../../lib/proxy-transport.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useAccountStore, usePreferencesStore } from '../../../stores/index.ts';
import { canAutoplay, isInAutoplayZone } from '../core/autoplay.ts';
import { playerStore, type PlayerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';

/** Whether this viewer may autoplay the next episode now (their preference, the instance, their setup). */
export function autoplayAllowed(mediaType: PlayerMeta['type']): boolean {
  return canAutoplay({
    enableAutoplay: usePreferencesStore.getState().enableAutoplay,
    mediaType,
    instanceAllows: runtimeConfig().allowAutoplay,
    extensionActive: extensionClient().isActive(),
    hasCustomProxy: customProxyUrls(useAccountStore.getState().proxyUrls).length > 0,
  });
}

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
  { isAllowed = autoplayAllowed, store = playerStore }: AutoplayOptions = {},
) {
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
