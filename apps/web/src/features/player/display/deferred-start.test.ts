import { describe, expect, it, vi } from 'vitest';
import { createPlayerStore } from '../core/player-store.ts';
import type { PlayerSource } from '../core/types.ts';
import type { AdapterLoader, PlaybackAdapter } from './adapter.ts';
import { createDisplay } from './display.ts';

/** A display over a fake adapter that records what it was asked; the element's play() is a stub. */
function setUp(playRequested: boolean) {
  const calls: string[] = [];
  const adapter: PlaybackAdapter = {
    load: (source, startAt) => calls.push(`load ${source.type} ${startAt}`),
    start: (at) => calls.push(`start ${at}`),
    setQuality: () => undefined,
    currentUrl: () => null,
    destroy: () => calls.push('destroy'),
  };
  const loader: AdapterLoader = { name: 'fake', canPlay: () => true, create: async () => adapter };
  const video = document.createElement('video');
  const play = vi.fn(() => {
    calls.push('play');
    return Promise.resolve();
  });
  video.play = play;
  const store = createPlayerStore();
  store.getState().setPlayRequested(playRequested);
  const destroy = createDisplay({
    video,
    container: document.createElement('div'),
    store,
    qualityPreference: () => ({ automaticQuality: true, lastChosenQuality: null }),
    loaders: [loader],
  });
  const setSource = async (startAt: number) => {
    const source: PlayerSource = { type: 'hls', url: 'https://media.test/master.m3u8' };
    store.getState().setSource(source, { sourceId: 'sample', startAt });
    await vi.waitFor(() => expect(calls.some((c) => c.startsWith('load'))).toBe(true));
  };
  return { calls, store, video, destroy, setSource };
}

describe('nothing but metadata before Play', () => {
  it('a title opened as such loads its source without starting it, then starts on Play from the resume position', async () => {
    const { calls, store, video, setSource } = setUp(false);
    expect(video.preload).toBe('none');
    await setSource(95);
    expect(calls).toEqual(['load hls 95']);
    // The big play button shows: not loading, paused, never played.
    expect(store.getState().playback).toMatchObject({
      isLoading: false,
      isPaused: true,
      hasPlayedOnce: false,
    });
    store.getState().display!.play();
    expect(calls).toEqual(['load hls 95', 'start 95', 'play']);
    expect(store.getState().playRequested).toBe(true);
    // A second press only plays.
    store.getState().display!.play();
    expect(calls.filter((c) => c.startsWith('start'))).toHaveLength(1);
  });

  it('a seek before Play moves where it starts', async () => {
    const { calls, store, setSource } = setUp(false);
    await setSource(0);
    store.getState().display!.seek(42);
    expect(store.getState().playback.time).toBe(42);
    store.getState().display!.play();
    expect(calls).toContain('start 42');
  });

  it('a deep link (or a viewer who already pressed Play) starts as soon as the source is there', async () => {
    const { calls, setSource } = setUp(true);
    await setSource(30);
    await vi.waitFor(() => expect(calls).toEqual(['load hls 30', 'start 30', 'play']));
  });

  it('Play pressed while the source is on its way starts it when it arrives; a new source keeps playing', async () => {
    const { calls, store, setSource } = setUp(false);
    store.getState().display!.play();
    expect(calls).toEqual([]);
    await setSource(0);
    await vi.waitFor(() => expect(calls).toEqual(['load hls 0', 'start 0', 'play']));
    calls.length = 0;
    await setSource(12);
    await vi.waitFor(() => expect(calls).toEqual(['destroy', 'load hls 12', 'start 12', 'play']));
  });

  it('another audio track chosen while paused loads where the viewer was and stays paused', async () => {
    const { calls, store } = setUp(true);
    const file: PlayerSource = { type: 'file', qualities: { '1080': { type: 'mp4', url: '/f.mkv' } } };
    const fr: PlayerSource = { type: 'hls', url: '/fr/master.m3u8' };
    const tracks = [
      { id: 'en', language: 'en', label: null, channels: 2, isDefault: true, source: file },
      { id: 'fr', language: 'fr', label: null, channels: 2, isDefault: false, source: fr },
    ];
    store.getState().setSource(file, { sourceId: 'library', audioTracks: { tracks, activeId: 'en' } });
    await vi.waitFor(() => expect(calls).toEqual(['load file 0', 'start 0', 'play']));
    calls.length = 0;
    store.getState().updatePlayback({ hasPlayedOnce: true, isPlaying: false, isPaused: true, time: 600 });
    store.getState().chooseAudioTrack('fr');
    await vi.waitFor(() => expect(calls).toEqual(['destroy', 'load hls 600', 'start 600']));
    expect(store.getState().playback.isPaused).toBe(true);
    // Play goes on from there; while playing, the next switch keeps playing.
    store.getState().display!.play();
    expect(calls.at(-1)).toBe('play');
    calls.length = 0;
    store.getState().updatePlayback({ isPlaying: true, isPaused: false, time: 610 });
    store.getState().chooseAudioTrack('en');
    await vi.waitFor(() => expect(calls).toEqual(['destroy', 'load file 610', 'start 610', 'play']));
  });
});
