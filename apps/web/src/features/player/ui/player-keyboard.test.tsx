import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import player from '../../../locales/en/player.json';
import { initStores } from '../../../stores/index.ts';
import { makePlayerMeta } from '../core/meta.ts';
import { playerStore } from '../core/player-store.ts';
import { playerUi } from '../core/ui-store.ts';
import { CONTROLS_HIDE_MS } from './hooks.ts';
import { PlayerView } from './player-view.tsx';

// The view's keyboard behaviour is under test, not scraping, the video element or casting: the
// session hooks that run those are stand-ins, and the store is put in the playing state directly.
vi.mock('../session/use-play-session.ts', () => ({
  usePlaySession: () => ({ problem: null, retry: () => undefined }),
  useCaptionsFollowSource: () => undefined,
}));
vi.mock('../session/use-casting.ts', () => ({ useCasting: () => undefined }));
vi.mock('../session/use-thumbnails.ts', () => ({ useThumbnails: () => undefined }));
vi.mock('../session/use-autoplay.ts', () => ({ useAutoplay: () => undefined }));
vi.mock('./video-surface.tsx', () => ({ VideoSurface: () => null }));
vi.mock('../display/display.ts', () => ({ testVolumeSupport: async () => true }));
vi.mock('../captions/caption-actions.ts', async (original) => ({
  ...(await original<object>()),
  selectCaption: async () => undefined,
}));

const movie = makePlayerMeta({
  type: 'movie',
  title: 'The Matrix',
  releaseYear: 1999,
  tmdbId: '603',
  imdbId: null,
  poster: null,
  mediaKey: 'tmdb-movie-603-the-matrix',
});

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  // Nothing here talks to a server (the library, the source list): requests never answer.
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  playerStore.getState().reset();
  playerStore.getState().setSourceId('src');
  playerStore
    .getState()
    .setCaptionList([
      { id: 'c1', language: 'en', url: 'u', type: 'srt', needsProxy: false, opensubtitles: false },
    ]);
  playerUi.getState().set({ controlsVisible: true, keyboardFocus: false, width: 1280 });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderPlayer() {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter initialEntries={['/media/tmdb-movie-603-the-matrix']}>
          <PlayerView meta={movie} backTo="/" startOnOpen={false} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

/** Playing, untouched for longer than the controls wait: they hide. */
function letControlsHide() {
  act(() => playerStore.getState().updatePlayback({ isPaused: false }));
  act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS + 100));
}

const isInert = (testId: string) => screen.getByTestId(testId).closest('[inert]') !== null;

describe('the player by keyboard', () => {
  it('hidden controls cannot be focused or pressed; Tab shows them again', () => {
    renderPlayer();
    letControlsHide();
    expect(playerUi.getState().controlsVisible).toBe(false);
    for (const id of ['play-pause', 'fullscreen', 'open-settings', 'progress-bar', 'player-back'])
      expect(isInert(id), id).toBe(true);
    fireEvent.keyDown(window, { key: 'Tab' });
    expect(isInert('play-pause')).toBe(false);
    expect(isInert('player-back')).toBe(false);
  });

  it('focus coming into the player shows the controls, and keyboard focus keeps them shown', () => {
    renderPlayer();
    letControlsHide();
    fireEvent.keyDown(window, { key: 'Tab' });
    act(() => screen.getByTestId('play-pause').focus());
    expect(isInert('play-pause')).toBe(false);
    act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS * 3));
    expect(isInert('play-pause')).toBe(false);
    // Focus leaves the player: they hide again.
    act(() => screen.getByTestId('play-pause').blur());
    act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS + 100));
    expect(isInert('play-pause')).toBe(true);
  });

  it('a pointer does not pin them: after a click they still hide', () => {
    renderPlayer();
    fireEvent.pointerDown(window);
    act(() => screen.getByTestId('play-pause').focus());
    letControlsHide();
    expect(isInert('play-pause')).toBe(true);
  });

  it('picking a caption language closes the menus and focus returns to the gear', async () => {
    renderPlayer();
    const gear = screen.getByTestId('open-settings');
    act(() => gear.focus());
    fireEvent.click(gear);
    expect(document.activeElement).toBe(screen.getByTestId('settings-menu'));
    fireEvent.click(screen.getByTestId('menu-captions'));
    await act(async () => fireEvent.click(screen.getByTestId('caption-option')));
    expect(screen.queryByTestId('captions-menu')).toBeNull();
    expect(screen.queryByTestId('settings-menu')).toBeNull();
    expect(document.activeElement).toBe(gear);
  });

  it('Escape in a menu, even in its search field, closes it and focus returns to its button', () => {
    renderPlayer();
    const subtitles = screen.getByTestId('open-captions');
    act(() => subtitles.focus());
    fireEvent.click(subtitles);
    const search = screen.getByRole('searchbox', { name: player.captions.search });
    act(() => search.focus());
    fireEvent.keyDown(search, { key: 'Escape' });
    expect(screen.queryByTestId('captions-menu')).toBeNull();
    expect(document.activeElement).toBe(subtitles);
  });

  it('Escape from a submenu of settings returns focus to the gear', () => {
    renderPlayer();
    const gear = screen.getByTestId('open-settings');
    act(() => gear.focus());
    fireEvent.click(gear);
    fireEvent.click(screen.getByTestId('menu-playback'));
    expect(screen.getByTestId('playback-menu')).toBeTruthy();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByTestId('playback-menu')).toBeNull();
    expect(document.activeElement).toBe(gear);
  });

  it('? lists the shortcuts, translated; Escape closes the list', () => {
    renderPlayer();
    fireEvent.keyDown(window, { key: '?' });
    const list = screen.getByRole('dialog', { name: player.shortcuts.title });
    expect(list.textContent).toContain(player.shortcuts.fullscreen);
    expect(list.textContent).toContain(player.shortcuts.help);
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('shortcuts-list')).toBeNull();
  });
});

describe('the player on a phone', () => {
  it('at 390 px the bar keeps the essentials and the settings menu offers the rest', () => {
    playerStore.getState().updateCapabilities({ canPictureInPicture: true });
    // The player is as wide as the phone's window (jsdom lays nothing out).
    vi.stubGlobal('innerWidth', 390);
    renderPlayer();
    for (const id of ['play-pause', 'time', 'open-captions', 'open-settings', 'fullscreen'])
      expect(screen.getByTestId(id)).toBeTruthy();
    for (const id of ['pip', 'mute', 'skip-back']) expect(screen.queryByTestId(id)).toBeNull();
    fireEvent.click(screen.getByTestId('open-settings'));
    expect(screen.getByTestId('menu-pip')).toBeTruthy();
    expect(screen.getByTestId('menu-mute')).toBeTruthy();
    expect(screen.getByTestId('menu-skip-back')).toBeTruthy();
  });

  it('on a laptop the bar has them and the settings menu does not repeat them', () => {
    playerStore.getState().updateCapabilities({ canPictureInPicture: true });
    renderPlayer();
    expect(screen.getByTestId('pip')).toBeTruthy();
    fireEvent.click(screen.getByTestId('open-settings'));
    expect(screen.queryByTestId('moved-controls')).toBeNull();
  });
});
