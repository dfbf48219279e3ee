import { describe, expect, it, vi } from 'vitest';
import { reloadSource } from '../scrape/switch-source.ts';
import { createPlayerStore, requestsTo, type DisplayRequests } from './player-store.ts';
import type { AudioTrackItem, PlayerSource } from './types.ts';

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

describe('audio tracks of a library title', () => {
  const file: PlayerSource = {
    type: 'file',
    qualities: { '1080': { type: 'mp4', url: 'https://lib.test/f.mkv' } },
  };
  const fr: PlayerSource = { type: 'hls', url: 'https://lib.test/fr/master.m3u8' };
  const tracks: AudioTrackItem[] = [
    { id: 'en', language: 'en', label: null, channels: 6, isDefault: true, source: file },
    { id: 'fr', language: 'fr', label: 'VFF', channels: 2, isDefault: false, source: fr },
  ];
  const caption = {
    id: 'c',
    language: 'en',
    url: 'u',
    type: 'vtt' as const,
    needsProxy: false,
    opensubtitles: false,
  };

  it('choosing one loads its source from where the viewer is; the list stays, and back again', () => {
    const store = createPlayerStore();
    store.getState().setSource(file, {
      sourceId: 'library',
      captions: [caption],
      audioTracks: { tracks, activeId: 'en' },
    });
    store.getState().updatePlayback({ time: 1234.5, hasPlayedOnce: true });
    const version = store.getState().sourceVersion;

    store.getState().chooseAudioTrack('fr');
    let s = store.getState();
    expect(s.source).toEqual(fr);
    expect(s.sourceVersion).toBe(version + 1);
    expect(s.startAt).toBe(1234.5);
    expect(s.playback.time).toBe(1234.5);
    expect(s.sourceId).toBe('library');
    expect(s.audioTracks).toBe(tracks);
    expect(s.audioTrackId).toBe('fr');
    expect(s.captionList).toEqual([caption]);

    store.getState().updatePlayback({ time: 1300 });
    store.getState().chooseAudioTrack('en');
    s = store.getState();
    // The track the stream played first plays the stream as it was found (the file itself).
    expect(s.source).toBe(file);
    expect(s.startAt).toBe(1300);
    expect(s.audioTrackId).toBe('en');
  });

  it('the playing track, an unknown one or no source change nothing', () => {
    const store = createPlayerStore();
    store.getState().chooseAudioTrack('fr');
    expect(store.getState().sourceVersion).toBe(0);
    store.getState().setSource(file, { sourceId: 'library', audioTracks: { tracks, activeId: 'en' } });
    const version = store.getState().sourceVersion;
    store.getState().chooseAudioTrack('en');
    store.getState().chooseAudioTrack('nope');
    expect(store.getState().sourceVersion).toBe(version);
  });

  it('a source without tracks (another source, chosen in the menu) has none', () => {
    const store = createPlayerStore();
    store.getState().setSource(file, { sourceId: 'library', audioTracks: { tracks, activeId: 'en' } });
    store.getState().setSource(fr, { sourceId: 'links' });
    expect(store.getState().audioTracks).toEqual([]);
    expect(store.getState().audioTrackId).toBeNull();
  });

  it("Retry after an error reloads the chosen track's source and keeps the list", () => {
    const store = createPlayerStore();
    store.getState().setSource(file, { sourceId: 'library', audioTracks: { tracks, activeId: 'en' } });
    store.getState().chooseAudioTrack('fr');
    store.getState().updatePlayback({ time: 50 });
    store
      .getState()
      .displayError({ source: 'hls', code: 'network', message: 'x', serverCode: 'server_busy' });
    reloadSource(store);
    const s = store.getState();
    expect(s.status).toBe('playing');
    expect(s.source).toEqual(fr);
    expect(s.startAt).toBe(50);
    expect(s.audioTrackId).toBe('fr');
    expect(s.audioTracks).toEqual(tracks);
  });
});
