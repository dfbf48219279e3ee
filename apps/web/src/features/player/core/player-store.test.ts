import { describe, expect, it, vi } from 'vitest';
import { reloadSource } from '../scrape/switch-source.ts';
import { createPlayerStore, requestsTo, type DisplayRequests } from './player-store.ts';
import type { AudioTrackItem, ImageSubtitleItem, PlayerSource } from './types.ts';

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

describe('picture subtitles of a library title (burned in when chosen)', () => {
  const file: PlayerSource = {
    type: 'file',
    qualities: { '1080': { type: 'mp4', url: 'https://lib.test/f.mkv' } },
  };
  const fr: PlayerSource = { type: 'hls', url: 'https://lib.test/fr/master.m3u8' };
  const tracks: AudioTrackItem[] = [
    { id: 'en', language: 'en', label: null, channels: 6, isDefault: true, source: file },
    { id: 'fr', language: 'fr', label: null, channels: 2, isDefault: false, source: fr },
  ];
  const burned = (track: string): PlayerSource => ({
    type: 'hls',
    url: `https://lib.test/${track}.b4/master.m3u8`,
    conversion: true,
  });
  const pgs: ImageSubtitleItem = {
    id: 'pgs',
    language: 'en',
    label: null,
    forced: false,
    sources: { en: burned('en'), fr: burned('fr') },
  };
  const caption = { id: 'c', language: 'en', cues: [], srtData: '' };

  const playing = () => {
    const store = createPlayerStore();
    store.getState().setSource(file, {
      sourceId: 'library',
      audioTracks: { tracks, activeId: 'en' },
      imageSubtitles: { items: [pgs], activeId: null, plain: file },
    });
    store.getState().updatePlayback({ time: 300, hasPlayedOnce: true, isPaused: false, isPlaying: true });
    return store;
  };

  it('choosing one loads its playlist for the playing track from where the viewer is, and Off goes back', () => {
    const store = playing();
    store.getState().setCaption(caption);
    const version = store.getState().sourceVersion;
    store.getState().chooseImageSubtitle('pgs');
    let s = store.getState();
    expect(s.source).toEqual(burned('en'));
    expect(s.sourceVersion).toBe(version + 1);
    expect(s).toMatchObject({ startAt: 300, startPaused: false, imageSubtitleId: 'pgs', audioTrackId: 'en' });
    expect(s.plainSource).toBe(file);
    // The picture carries it: a text caption goes.
    expect(s.caption).toBeNull();

    store.getState().updatePlayback({ time: 320 });
    store.getState().chooseImageSubtitle(null);
    s = store.getState();
    expect(s.source).toBe(file);
    expect(s).toMatchObject({ startAt: 320, imageSubtitleId: null, audioTrackId: 'en' });
    expect(s.imageSubtitles).toEqual([pgs]);
  });

  it('another audio track keeps the subtitle on (its playlist for that track); Off then plays that track', () => {
    const store = playing();
    store.getState().chooseImageSubtitle('pgs');
    store.getState().chooseAudioTrack('fr');
    let s = store.getState();
    expect(s.source).toEqual(burned('fr'));
    expect(s).toMatchObject({ imageSubtitleId: 'pgs', audioTrackId: 'fr', startAt: 300 });
    store.getState().chooseImageSubtitle(null);
    s = store.getState();
    expect(s.source).toBe(fr);
    expect(s.audioTrackId).toBe('fr');
    // And a track change without one plays the track's own source.
    store.getState().chooseAudioTrack('en');
    expect(store.getState().source).toBe(file);
  });

  it('a paused viewer stays paused; a source without audio tracks uses its `default` playlist', () => {
    const store = createPlayerStore();
    const single: ImageSubtitleItem = { ...pgs, sources: { default: burned('default') } };
    store.getState().setSource(file, {
      sourceId: 'library',
      imageSubtitles: { items: [single], activeId: null, plain: file },
    });
    store.getState().updatePlayback({ time: 42, hasPlayedOnce: true, isPaused: true });
    store.getState().chooseImageSubtitle('pgs');
    expect(store.getState()).toMatchObject({
      source: burned('default'),
      startAt: 42,
      startPaused: true,
      imageSubtitleId: 'pgs',
    });
  });

  it('the subtitle on, an unknown one or no source change nothing', () => {
    const empty = createPlayerStore();
    empty.getState().chooseImageSubtitle('pgs');
    expect(empty.getState().sourceVersion).toBe(0);
    const store = playing();
    const version = store.getState().sourceVersion;
    store.getState().chooseImageSubtitle(null);
    store.getState().chooseImageSubtitle('nope');
    expect(store.getState().sourceVersion).toBe(version);
    store.getState().chooseImageSubtitle('pgs');
    store.getState().chooseImageSubtitle('pgs');
    expect(store.getState().sourceVersion).toBe(version + 1);
  });

  it('Retry after an error reloads the burned source and keeps the choice; another source has none', () => {
    const store = playing();
    store.getState().chooseImageSubtitle('pgs');
    store.getState().displayError({ source: 'hls', code: 'network', message: 'x' });
    reloadSource(store);
    let s = store.getState();
    expect(s.source).toEqual(burned('en'));
    expect(s).toMatchObject({ status: 'playing', imageSubtitleId: 'pgs' });
    store.getState().chooseImageSubtitle(null);
    expect(store.getState().source).toBe(file);

    store.getState().setSource(fr, { sourceId: 'links' });
    s = store.getState();
    expect(s.imageSubtitles).toEqual([]);
    expect(s.imageSubtitleId).toBeNull();
    expect(s.plainSource).toBe(fr);
  });
});
