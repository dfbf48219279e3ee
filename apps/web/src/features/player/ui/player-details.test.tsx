import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { RuntimeConfig } from '@marquee/contract';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../lib/i18n.ts';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores, useLibraryStore, usePreferencesStore } from '../../../stores/index.ts';
import { makePlayerMeta } from '../core/meta.ts';
import { playerStore, requests } from '../core/player-store.ts';
import { answered, stillWatchingStore } from '../core/still-watching.ts';
import { playerUi } from '../core/ui-store.ts';
import { PlayerDepsProvider, type PlayerDeps } from '../session/player-deps.tsx';
import { inertPlayerDeps } from '../session/test-deps.ts';
import { PAUSE_OVERLAY_DELAY_MS, remainingText } from './pause-overlay.tsx';
import { PlayerView } from './player-view.tsx';

// The view and its hooks are real; the session finds a source at once and no video attaches (the deps
// are fakes), so the test moves the playback facts the display would report.

const episode = makePlayerMeta({
  type: 'show',
  title: 'Breaking Bad',
  releaseYear: 2008,
  tmdbId: '1396',
  imdbId: null,
  poster: null,
  mediaKey: 'tmdb-tv-1396-breaking-bad',
  season: { id: 's1', number: 1, title: 'Season 1' },
  episode: {
    id: 'e2',
    number: 2,
    title: 'Cat’s in the Bag...',
    airDate: '2008-01-27',
    overview: 'Walt and Jesse attempt to tie up loose ends.',
  },
  episodes: [],
  seasons: [],
});

let i18next: i18n;
let now = 0;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  setRuntimeConfig({ captcha: { provider: 'none', siteKey: null } } as unknown as RuntimeConfig);
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  playerStore.getState().reset();
  playerUi.getState().set({ controlsVisible: true, keyboardFocus: false, width: 1280 });
  answered();
  now = 0;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

function renderPlayer() {
  const runSession: PlayerDeps['runSession'] = async (store) => {
    store.getState().setSourceId('src');
    return null;
  };
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter initialEntries={['/media/tmdb-tv-1396-breaking-bad/s1/e2']}>
          <Routes>
            <Route
              path="/media/*"
              element={
                <PlayerDepsProvider value={inertPlayerDeps({ runSession })}>
                  <PlayerView meta={episode} backTo="/browse" startOnOpen={false} />
                </PlayerDepsProvider>
              }
            />
            <Route path="/browse" element={<p data-testid="browse-page" />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** Playing at `time` of a 20-minute episode, then paused there. */
function playThenPause(time: number) {
  act(() =>
    playerStore.getState().updatePlayback({ duration: 1200, time, hasPlayedOnce: true, isPaused: false }),
  );
  act(() => playerStore.getState().updatePlayback({ isPaused: true }));
}

describe('the pause overlay (decision 112)', () => {
  it('shows what is playing and how much is left once paused and untouched for a while', () => {
    renderPlayer();
    playThenPause(300);
    act(() => vi.advanceTimersByTime(PAUSE_OVERLAY_DELAY_MS - 100));
    expect(screen.queryByTestId('pause-overlay')).toBeNull();
    act(() => vi.advanceTimersByTime(200));
    const overlay = screen.getByTestId('pause-overlay');
    expect(overlay.textContent).toContain('You’re watching');
    expect(overlay.textContent).toContain('Breaking Bad');
    expect(screen.getByTestId('pause-overlay-episode').textContent).toContain('S1 E2');
    expect(screen.getByTestId('pause-overlay-episode').textContent).toContain('Cat’s in the Bag...');
    expect(overlay.textContent).toContain('Walt and Jesse attempt to tie up loose ends.');
    expect(screen.getByTestId('pause-overlay-time').textContent).toMatch(/^15 minutes left · Ends at /);
    // The controls make way for it; a movement brings them back and it goes.
    expect(playerUi.getState().controlsVisible).toBe(false);
    fireEvent.pointerMove(screen.getByTestId('player'), { pointerType: 'mouse' });
    expect(screen.queryByTestId('pause-overlay')).toBeNull();
    expect(playerUi.getState().controlsVisible).toBe(true);
    // Untouched again: it comes back.
    act(() => vi.advanceTimersByTime(PAUSE_OVERLAY_DELAY_MS + 100));
    expect(screen.getByTestId('pause-overlay')).not.toBeNull();
    // Playing hides it.
    act(() => playerStore.getState().updatePlayback({ isPaused: false }));
    expect(screen.queryByTestId('pause-overlay')).toBeNull();
  });

  it('never shows when turned off', () => {
    usePreferencesStore.getState().setPreferences({ enablePauseOverlay: false });
    renderPlayer();
    playThenPause(300);
    act(() => vi.advanceTimersByTime(PAUSE_OVERLAY_DELAY_MS * 3));
    expect(screen.queryByTestId('pause-overlay')).toBeNull();
  });

  it('tells nothing of what an episode not watched yet is about while spoilers are hidden (decision 115)', () => {
    usePreferencesStore.getState().setPreferences({ hideSpoilers: true });
    renderPlayer();
    playThenPause(300);
    act(() => vi.advanceTimersByTime(PAUSE_OVERLAY_DELAY_MS + 100));
    const overlay = screen.getByTestId('pause-overlay');
    expect(screen.getByTestId('pause-overlay-episode').textContent).toContain('Cat’s in the Bag...');
    expect(overlay.textContent).not.toContain('Walt and Jesse');
    // Watched before (a rewatch): nothing left to spoil.
    act(() =>
      useLibraryStore.getState().recordPlay({
        type: 'show',
        tmdbId: '1396',
        title: 'Breaking Bad',
        year: 2008,
        poster: null,
        season: { id: 's1', number: 1, title: 'Season 1' },
        episode: { id: 'e2', number: 2, title: 'Cat’s in the Bag...' },
        watchedAt: 1,
        watched: 1200,
        duration: 1200,
        completed: true,
      }),
    );
    expect(screen.getByTestId('pause-overlay').textContent).toContain('Walt and Jesse');
  });

  it('says the time left in hours and minutes in the viewer’s language', () => {
    expect(remainingText('en', 72 * 60)).toBe('1 hour, 12 minutes');
    expect(remainingText('en', 7200)).toBe('2 hours');
    expect(remainingText('en', 10)).toBe('1 minute');
    expect(remainingText('fr', 45 * 60)).toBe('45 minutes');
  });
});

describe('"Are you still watching?" (decision 112)', () => {
  /** Plays on for `ms`, the display reporting every 250 ms. */
  function playFor(ms: number) {
    for (let t = 0; t < ms; t += 250) {
      now += 250;
      act(() => playerStore.getState().updatePlayback({ time: 300 + (now - 0) / 1000 }));
    }
  }

  /** The episode's player, asking after a minute played without input, playing from 5:00. */
  function playingWithAMinuteLimit() {
    usePreferencesStore.getState().setPreferences({ stillWatching: { episodes: 0, minutes: 1 } });
    renderPlayer();
    act(() =>
      playerStore
        .getState()
        .updatePlayback({ duration: 1200, time: 300, hasPlayedOnce: true, isPaused: false }),
    );
  }

  it('after the time played without input: pauses, asks, and Continue watching plays on', () => {
    const pause = vi.spyOn(requests, 'pause');
    const play = vi.spyOn(requests, 'play');
    playingWithAMinuteLimit();
    playFor(50_000);
    expect(screen.queryByTestId('still-watching')).toBeNull();
    expect(pause).not.toHaveBeenCalled();
    playFor(11_000);
    expect(pause).toHaveBeenCalled();
    const dialog = screen.getByRole('alertdialog', { name: 'Are you still watching?' });
    expect(dialog.textContent).toContain('Breaking Bad');
    expect(document.activeElement).toBe(screen.getByTestId('still-watching-continue'));
    // Keys stay in the dialog: Tab moves to its other button, a player key does nothing behind it.
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByTestId('still-watching-stop'));
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(document.activeElement).toBe(screen.getByTestId('still-watching-continue'));
    // The display reports the pause; K behind the dialog would play again.
    act(() => playerStore.getState().updatePlayback({ isPaused: true }));
    fireEvent.keyDown(document.activeElement!, { key: 'k' });
    expect(play).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('still-watching-continue'));
    expect(play).toHaveBeenCalled();
    expect(screen.queryByTestId('still-watching')).toBeNull();
    expect(stillWatchingStore.getState()).toEqual({ asking: null, episodes: 0, playedMs: 0 });
  });

  it('input while playing starts the count again', () => {
    playingWithAMinuteLimit();
    playFor(50_000);
    fireEvent.keyDown(window, { key: 'Shift' });
    playFor(50_000);
    expect(screen.queryByTestId('still-watching')).toBeNull();
  });

  it('Stop for now goes back where the viewer came from', () => {
    playingWithAMinuteLimit();
    playFor(61_000);
    fireEvent.click(screen.getByTestId('still-watching-stop'));
    expect(screen.getByTestId('browse-page')).not.toBeNull();
    expect(stillWatchingStore.getState().asking).toBeNull();
  });

  it("a remote's arrows move between the answers (drawn side by side), and Back answers as Stop", () => {
    playingWithAMinuteLimit();
    playFor(61_000);
    const cont = screen.getByTestId('still-watching-continue');
    const stop = screen.getByTestId('still-watching-stop');
    // Drawn as on a TV: Stop for now left of Continue watching (the row is reversed).
    vi.spyOn(stop, 'getBoundingClientRect').mockReturnValue(new DOMRect(700, 500, 200, 44));
    vi.spyOn(cont, 'getBoundingClientRect').mockReturnValue(new DOMRect(920, 500, 200, 44));
    expect(document.activeElement).toBe(cont);
    fireEvent.keyDown(cont, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(cont);
    fireEvent.keyDown(cont, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(stop);
    fireEvent.keyDown(stop, { key: 'ArrowRight' });
    expect(document.activeElement).toBe(cont);
    // webOS's Back key has no name, only its code.
    fireEvent.keyDown(cont, { key: 'Unidentified', keyCode: 461 });
    expect(screen.getByTestId('browse-page')).not.toBeNull();
    expect(stillWatchingStore.getState().asking).toBeNull();
  });
});
