import { useEffect } from 'react';
import { usePlayerPrefsStore } from '../../../stores/index.ts';
import { playerStore, requests } from '../core/player-store.ts';
import { playerUi } from '../core/ui-store.ts';
import { usePlayerDeps, type PlayerDeps } from '../session/player-deps.tsx';

/** The volume by `delta` (0 mutes), shown in the volume popout. */
export function changeVolume(delta: number) {
  const { volume, muted } = playerStore.getState().playback;
  const next = Math.round(Math.max(0, Math.min(1, (muted ? 0 : volume) + delta)) * 100) / 100;
  requests.setVolume(next);
  if (next === 0) requests.setMuted(true);
  playerUi.getState().set({ volumePopoutAt: Date.now() });
}

let lastVolume = 1;
export function toggleMute() {
  const { volume, muted } = playerStore.getState().playback;
  if (muted || volume === 0) {
    requests.setMuted(false);
    requests.setVolume(lastVolume > 0 ? lastVolume : 1);
  } else {
    lastVolume = volume;
    requests.setMuted(true);
  }
}

/** Volume, mute and speed are remembered on this device (the older clients' __MW::volume). */
export function useRememberVolume() {
  useEffect(
    () =>
      playerStore.subscribe((state, prev) => {
        const { volume, muted } = state.playback;
        if (volume === prev.playback.volume && muted === prev.playback.muted) return;
        usePlayerPrefsStore.getState().setPlayerPrefs({ volume: muted ? 0 : volume });
      }),
    [],
  );
}

/** The 1 s volume test runs once per page (iOS lets no page change the volume); a fake gets its own run. */
const volumeSupport = new WeakMap<PlayerDeps['testVolumeSupport'], Promise<boolean>>();

export function useVolumeSupport() {
  const { testVolumeSupport } = usePlayerDeps();
  useEffect(() => {
    let support = volumeSupport.get(testVolumeSupport);
    if (!support) {
      support = testVolumeSupport(1_000);
      volumeSupport.set(testVolumeSupport, support);
    }
    let live = true;
    void support.then((ok) => live && playerStore.getState().updateCapabilities({ canChangeVolume: ok }));
    return () => {
      live = false;
    };
  }, [testVolumeSupport]);
}
