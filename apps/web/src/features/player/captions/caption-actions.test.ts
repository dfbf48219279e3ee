import { beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores, useSubtitlesStore } from '../../../stores/index.ts';
import { playerStore } from '../core/player-store.ts';
import type { ImageSubtitleItem, PlayerSource } from '../core/types.ts';
import { autoSelectCaption, disableCaptions, toggleCaptions } from './caption-actions.ts';

// A picture subtitle burned in (decision 085) counts as subtitles on: Off and the C key take it away,
// and a text caption does not come back on its own over it.

const file: PlayerSource = { type: 'file', qualities: { '1080': { type: 'webm', url: '/lib/toy.mkv' } } };
const burned: PlayerSource = { type: 'hls', url: '/lib/hls/v1080.a1c.b3/master.m3u8', conversion: true };
const pgs: ImageSubtitleItem = {
  id: 'pgs',
  language: 'en',
  label: null,
  forced: false,
  sources: { default: burned },
};
const english = {
  id: 'srt',
  language: 'en',
  url: '/lib/subtitles/2.vtt',
  type: 'vtt' as const,
  needsProxy: false,
  opensubtitles: false,
};

beforeEach(async () => {
  setAppStorage(memoryStorage());
  await initStores();
  playerStore.getState().reset();
  playerStore.getState().setSource(file, {
    sourceId: 'library',
    captions: [english],
    imageSubtitles: { items: [pgs], activeId: null, plain: file },
  });
  playerStore.getState().updatePlayback({ time: 30, hasPlayedOnce: true, isPlaying: true, isPaused: false });
  playerStore.getState().chooseImageSubtitle('pgs');
  useSubtitlesStore.getState().setSubtitles({ enabled: true, lastSelectedLanguage: 'en' });
});

describe('a picture subtitle burned in', () => {
  it('goes with Off: the title plays on without it, subtitles off', () => {
    disableCaptions();
    expect(playerStore.getState()).toMatchObject({ source: file, imageSubtitleId: null, caption: null });
    expect(useSubtitlesStore.getState().enabled).toBe(false);
  });

  it('goes with the C key (subtitles on → off)', async () => {
    await toggleCaptions();
    expect(playerStore.getState()).toMatchObject({ source: file, imageSubtitleId: null });
  });

  it('keeps a text caption from coming back on its own when its source loads', async () => {
    await autoSelectCaption();
    expect(playerStore.getState().caption).toBeNull();
    expect(playerStore.getState().imageSubtitleId).toBe('pgs');
  });
});
