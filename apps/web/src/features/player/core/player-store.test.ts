import { describe, expect, it, vi } from 'vitest';
import { createPlayerStore, requestsTo, type DisplayRequests } from './player-store.ts';

/** A display that records what it was asked, in order. */
function fakeDisplay() {
  const calls: [string, ...unknown[]][] = [];
  const record =
    (name: keyof DisplayRequests) =>
    (...args: unknown[]) =>
      calls.push([name, ...args]);
  const display: DisplayRequests = {
    play: record('play'),
    pause: record('pause'),
    seek: record('seek'),
    setVolume: record('setVolume'),
    setMuted: record('setMuted'),
    setPlaybackRate: record('setPlaybackRate'),
    setQuality: record('setQuality'),
    toggleFullscreen: record('toggleFullscreen'),
    togglePictureInPicture: record('togglePictureInPicture'),
    startAirplay: record('startAirplay'),
  };
  return { display, calls };
}

describe('UI requests before the display attaches', () => {
  it('go straight to an attached display', () => {
    const store = createPlayerStore();
    const requests = requestsTo(store);
    const { display, calls } = fakeDisplay();
    store.getState().attachDisplay(display);
    requests.setVolume(0.5);
    requests.play();
    requests.toggleFullscreen();
    expect(calls).toEqual([['setVolume', 0.5], ['play'], ['toggleFullscreen']]);
  });

  it('wait for it, the latest of each kind in order, and run once when it attaches', () => {
    const store = createPlayerStore();
    const requests = requestsTo(store);
    requests.setVolume(0.3);
    requests.play();
    requests.setQuality('720');
    requests.setVolume(0.6);
    requests.setPlaybackRate(1.5);
    requests.pause(); // play and pause: the last word wins
    requests.setQuality(null);
    const { display, calls } = fakeDisplay();
    store.getState().attachDisplay(display);
    expect(calls).toEqual([['setVolume', 0.6], ['setPlaybackRate', 1.5], ['pause'], ['setQuality', null]]);

    // Flushed once: attaching again (or another display) replays nothing.
    store.getState().attachDisplay(null);
    const second = fakeDisplay();
    store.getState().attachDisplay(second.display);
    expect(second.calls).toEqual([]);
  });

  it('a seek moves where the source starts, which the display reads when it attaches', () => {
    const store = createPlayerStore();
    const requests = requestsTo(store);
    requests.seek(42);
    expect(store.getState().startAt).toBe(42);
    expect(store.getState().playback.time).toBe(42);
    requests.seek(-3);
    expect(store.getState().startAt).toBe(0);
    const { display, calls } = fakeDisplay();
    store.getState().attachDisplay(display);
    expect(calls).toEqual([]);
  });

  it('does not keep requests that need the viewer’s gesture', () => {
    const store = createPlayerStore();
    const requests = requestsTo(store);
    requests.toggleFullscreen();
    requests.togglePictureInPicture();
    requests.startAirplay();
    requests.setMuted(true);
    const { display, calls } = fakeDisplay();
    store.getState().attachDisplay(display);
    expect(calls).toEqual([['setMuted', true]]);
  });

  it('a detached display gets nothing more; the next one gets what waited', () => {
    const store = createPlayerStore();
    const requests = requestsTo(store);
    const first = fakeDisplay();
    store.getState().attachDisplay(first.display);
    store.getState().attachDisplay(null);
    requests.play();
    expect(first.calls).toEqual([]);
    const play = vi.fn();
    store.getState().attachDisplay({ ...fakeDisplay().display, play });
    expect(play).toHaveBeenCalledOnce();
  });
});
