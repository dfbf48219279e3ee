import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores, usePlayerPrefsStore } from '../../../stores/index.ts';
import { observeRequests, playerStore, requests } from '../core/player-store.ts';
import { useAutomaticSkips } from './use-segments.ts';

// An automatic skip carries out the viewer's own choice: a watch party hears it as theirs and sends it to
// the room, as it does a pressed Skip (decision 111), instead of pulling the viewer back into the intro.

let heard: { name: string; args: readonly unknown[]; viewersChoice: boolean }[];
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  playerStore.getState().reset();
  heard = [];
  observeRequests((name, args, how) => heard.push({ name, args, viewersChoice: how.viewersChoice }));
  playerStore.getState().setSegments({
    access: 'token',
    fileId: 'file-1',
    duration: 600,
    segments: [{ type: 'intro', start: 5, end: 40, source: 'chapters' }],
    detection: 'done',
    mine: [],
  });
  playerStore.getState().updatePlayback({ duration: 600, isPaused: false });
});
afterEach(() => observeRequests(null));

const playTo = (time: number) => playerStore.getState().updatePlayback({ time });

describe('automatic skips', () => {
  it('seek past the intro once, as the viewer’s own choice', () => {
    usePlayerPrefsStore.getState().setPlayerPrefs({
      segmentSkips: { intro: 'skip', recap: 'ask', credits: 'ask', preview: 'ask' },
    });
    renderHook(() => useAutomaticSkips(null));
    playTo(1);
    playTo(6);
    expect(heard).toEqual([{ name: 'seek', args: [40], viewersChoice: true }]);
    // Seeking back into it plays it: no second skip.
    playTo(7);
    expect(heard).toHaveLength(1);
    // A seek made otherwise is not the viewer's choice.
    requests.seek(100);
    expect(heard[1]).toEqual({ name: 'seek', args: [100], viewersChoice: false });
  });

  it('leave the intro alone when the viewer chose to be asked', () => {
    renderHook(() => useAutomaticSkips(null));
    playTo(1);
    playTo(6);
    expect(heard).toEqual([]);
  });
});
