import { describe, expect, it } from 'vitest';
import { createPlayerStore } from '../core/player-store.ts';
import { createDisplay } from './display.ts';

describe("the display's volume, mute and speed requests", () => {
  it('reach the store at once, so a second key press toggles from the first one (M then M, < then <)', () => {
    const store = createPlayerStore();
    const video = document.createElement('video');
    const destroy = createDisplay({
      video,
      container: document.createElement('div'),
      store,
      qualityPreference: () => ({ automaticQuality: true, lastChosenQuality: null }),
      loaders: [],
    });
    const display = store.getState().display!;
    display.setMuted(true);
    expect(store.getState().playback.muted).toBe(true);
    display.setVolume(0.4);
    expect(store.getState().playback).toMatchObject({ volume: 0.4, muted: false });
    display.setPlaybackRate(0.75);
    expect(store.getState().playback.playbackRate).toBe(0.75);
    destroy();
  });
});

describe("the display's pause request", () => {
  it('reaches the store at once, so Space right after K toggles back instead of asking to play again', () => {
    const store = createPlayerStore();
    const video = document.createElement('video');
    const destroy = createDisplay({
      video,
      container: document.createElement('div'),
      store,
      qualityPreference: () => ({ automaticQuality: true, lastChosenQuality: null }),
      loaders: [],
    });
    video.dispatchEvent(new Event('play'));
    expect(store.getState().playback.isPaused).toBe(false);
    store.getState().display!.pause();
    // No 'pause' event yet: the store already knows.
    expect(store.getState().playback).toMatchObject({ isPaused: true, isPlaying: false });
    destroy();
  });
});
