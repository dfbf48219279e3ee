import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RuntimeConfig } from '@marquee/contract';
import { PLAYER_SHORTCUT_ACTIONS } from '@marquee/contract/values';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../lib/i18n.ts';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import player from '../../../locales/en/player.json';
import { initStores, usePlayerPrefsStore, usePreferencesStore } from '../../../stores/index.ts';
import { makePlayerMeta } from '../core/meta.ts';
import { playerStore, type DisplayRequests, type PlayerStore } from '../core/player-store.ts';
import { playerUi } from '../core/ui-store.ts';
import { PlayerDepsProvider, type PlayerDeps } from '../session/player-deps.tsx';
import { inertPlayerDeps } from '../session/test-deps.ts';
import { CONTROLS_HIDE_MS } from './controls-visibility.ts';
import { SHORTCUTS_HOLD_MS } from './keyboard-shortcuts.ts';
import { PlayerView } from './player-view.tsx';

// The view's keyboard behaviour is under test, not scraping, the video element or casting: the view's
// deps are fakes (no video attaches, choosing a caption succeeds at once) and its session finds a
// source at once.

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
  setRuntimeConfig({ captcha: { provider: 'none', siteKey: null } } as unknown as RuntimeConfig);
  // Nothing here talks to a server (the library, the source list): requests never answer.
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  playerStore.getState().reset();
  playerUi.getState().set({ controlsVisible: true, keyboardFocus: false, width: 1280 });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/**
 * The player of a title whose session finds the source `src` with one English caption at once (the store
 * plays; no video loads); `found` adds to what it found.
 */
function renderPlayer(found?: (store: PlayerStore) => void) {
  const runSession: PlayerDeps['runSession'] = async (store) => {
    store.getState().setSourceId('src');
    store
      .getState()
      .setCaptionList([
        { id: 'c1', language: 'en', url: 'u', type: 'srt', needsProxy: false, opensubtitles: false },
      ]);
    found?.(store);
    return null;
  };
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter initialEntries={['/media/tmdb-movie-603-the-matrix']}>
          <PlayerDepsProvider value={inertPlayerDeps({ runSession })}>
            <PlayerView meta={movie} backTo="/" startOnOpen={false} />
          </PlayerDepsProvider>
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
    expect(document.activeElement).toBe(screen.getByTestId('menu-quality'));
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

  it('Escape in a submenu of settings goes back to its row; Escape again returns focus to the gear', () => {
    renderPlayer();
    const gear = screen.getByTestId('open-settings');
    act(() => gear.focus());
    fireEvent.click(gear);
    fireEvent.click(screen.getByTestId('menu-playback'));
    expect(screen.getByTestId('playback-menu')).toBeTruthy();
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByTestId('playback-menu')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('menu-playback'));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByTestId('settings-menu')).toBeNull();
    expect(document.activeElement).toBe(gear);
  });

  it('a tap of ? lists the shortcuts, translated; Escape closes the list', () => {
    renderPlayer();
    fireEvent.keyDown(window, { key: '?', code: 'Slash' });
    act(() => vi.advanceTimersByTime(SHORTCUTS_HOLD_MS / 4));
    fireEvent.keyUp(window, { key: '?', code: 'Slash' });
    const list = screen.getByRole('dialog', { name: player.shortcuts.title });
    expect(list.textContent).toContain(player.shortcuts.fullscreen);
    expect(list.textContent).toContain(player.shortcuts.help);
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('shortcuts-list')).toBeNull();
  });
});

/** A display that records what the player asks of it. */
function recordRequests() {
  const asked: string[] = [];
  const display = new Proxy({} as DisplayRequests, {
    get: (_, name) => () => asked.push(String(name)),
  });
  act(() => playerStore.getState().attachDisplay(display));
  return asked;
}

describe('holding the help key', () => {
  it('shows every action and its keys over the video until released; nothing opens', () => {
    renderPlayer();
    fireEvent.keyDown(window, { key: '?', code: 'Slash' });
    act(() => vi.advanceTimersByTime(SHORTCUTS_HOLD_MS - 1));
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    // A labelled region, announced politely (not a dialog: nothing in it takes focus).
    const overlay = screen.getByRole('region', { name: player.shortcuts.title });
    expect(overlay.closest('[aria-live="polite"]')).not.toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    for (const action of PLAYER_SHORTCUT_ACTIONS)
      expect(overlay.textContent).toContain(player.shortcuts[action]);
    expect(within(overlay).getByTestId('held-keys-playPause').textContent).toBe('SpaceK');
    expect(within(overlay).getByTestId('held-keys-seekForward5').textContent).toBe('→');
    // The key repeats while held: it stays.
    fireEvent.keyDown(window, { key: '?', code: 'Slash', repeat: true });
    act(() => vi.advanceTimersByTime(SHORTCUTS_HOLD_MS * 3));
    expect(screen.getByTestId('shortcuts-overlay')).toBeTruthy();
    // Shift let go first: the key comes up as "/" (the same physical key).
    fireEvent.keyUp(window, { key: '/', code: 'Slash' });
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
    expect(screen.queryByTestId('shortcuts-list')).toBeNull();
  });

  it('goes away when the window loses focus while held, and opens nothing', () => {
    renderPlayer();
    fireEvent.keyDown(window, { key: '?', code: 'Slash' });
    act(() => vi.advanceTimersByTime(SHORTCUTS_HOLD_MS));
    expect(screen.getByTestId('shortcuts-overlay')).toBeTruthy();
    fireEvent.blur(window);
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
    fireEvent.keyUp(window, { key: '?', code: 'Slash' });
    expect(screen.queryByTestId('shortcuts-list')).toBeNull();
  });

  it('is the help action’s key: remapped, the new key holds and taps, and ? does nothing', () => {
    usePreferencesStore.getState().setPreferences({ playerShortcuts: { help: ['h'] } });
    renderPlayer();
    fireEvent.keyDown(window, { key: '?', code: 'Slash' });
    act(() => vi.advanceTimersByTime(SHORTCUTS_HOLD_MS));
    fireEvent.keyUp(window, { key: '?', code: 'Slash' });
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
    expect(screen.queryByTestId('shortcuts-list')).toBeNull();
    fireEvent.keyDown(window, { key: 'H', code: 'KeyH' });
    act(() => vi.advanceTimersByTime(SHORTCUTS_HOLD_MS));
    expect(screen.getByTestId('held-keys-help').textContent).toBe('H');
    fireEvent.keyUp(window, { key: 'h', code: 'KeyH' });
    fireEvent.keyDown(window, { key: 'h', code: 'KeyH' });
    fireEvent.keyUp(window, { key: 'h', code: 'KeyH' });
    expect(screen.getByTestId('shortcuts-list')).toBeTruthy();
  });
});

describe('remapped keys', () => {
  it('a changed key acts at once, and the key it replaced no longer does', () => {
    renderPlayer();
    const asked = recordRequests();
    fireEvent.keyDown(window, { key: 'm' });
    expect(asked).toEqual(['setMuted']);
    // Changed (here, from another device's sync): no reload.
    act(() => usePreferencesStore.getState().setPreferences({ playerShortcuts: { mute: ['x'] } }));
    asked.length = 0;
    fireEvent.keyDown(window, { key: 'm' });
    expect(asked).toEqual([]);
    fireEvent.keyDown(window, { key: 'X' });
    expect(asked).toEqual(['setMuted']);
  });

  it('a key taken from another action runs the new one only', () => {
    usePreferencesStore
      .getState()
      .setPreferences({ playerShortcuts: { fullscreen: ['k'], playPause: [' '] } });
    renderPlayer();
    const asked = recordRequests();
    fireEvent.keyDown(window, { key: 'k' });
    expect(asked).toEqual(['toggleFullscreen']);
    asked.length = 0;
    fireEvent.keyDown(window, { key: 'f' });
    expect(asked).toEqual([]);
  });

  it('Space on a focused button stays the button’s, and chords are ignored, whatever the keys do', () => {
    usePreferencesStore.getState().setPreferences({ playerShortcuts: { mute: [' ', 'x'] } });
    renderPlayer();
    const asked = recordRequests();
    const button = screen.getByTestId('play-pause');
    act(() => button.focus());
    expect(fireEvent.keyDown(button, { key: ' ' })).toBe(true);
    fireEvent.keyDown(window, { key: 'x', ctrlKey: true });
    fireEvent.keyDown(window, { key: 'x', altKey: true });
    fireEvent.keyDown(window, { key: 'x', metaKey: true });
    expect(asked).toEqual([]);
    fireEvent.keyDown(window, { key: ' ' });
    expect(asked).toEqual(['setMuted']);
  });

  it('changed in the panel, the key being waited for never reaches the player', () => {
    renderPlayer();
    const asked = recordRequests();
    fireEvent.keyDown(window, { key: '?' });
    fireEvent.keyUp(window, { key: '?' });
    const change = screen.getByTestId('change-fullscreen');
    act(() => change.focus());
    fireEvent.click(change);
    // ? is the help key: the player would close the panel (a tap) or show the overlay (a hold).
    fireEvent.keyDown(change, { key: '?', code: 'Slash' });
    act(() => vi.advanceTimersByTime(SHORTCUTS_HOLD_MS));
    fireEvent.keyUp(change, { key: '?', code: 'Slash' });
    expect(screen.getByTestId('shortcuts-list')).toBeTruthy();
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
    expect(screen.getByTestId('shortcut-keys-fullscreen').textContent).toBe('?');
    // Escape while waiting cancels the wait; it does not close the panel.
    fireEvent.click(change);
    fireEvent.keyDown(change, { key: 'Escape' });
    expect(screen.getByTestId('shortcuts-list')).toBeTruthy();
    // Closed, the new key acts and the old one does not.
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('shortcuts-list')).toBeNull();
    fireEvent.keyDown(window, { key: 'f' });
    expect(asked).toEqual([]);
    fireEvent.keyDown(window, { key: '?' });
    expect(asked).toEqual(['toggleFullscreen']);
  });
});

/** The keyboard of a user (user-event waits on real timers between keys). */
const typing = () => {
  vi.useRealTimers();
  return userEvent.setup();
};
const focused = () => document.activeElement;

describe('the player menus by keyboard (WAI-ARIA menu pattern)', () => {
  it('Enter on the gear opens the settings on their first item; the arrows walk and wrap, Home/End jump', async () => {
    const keys = typing();
    renderPlayer();
    act(() => screen.getByTestId('open-settings').focus());
    await keys.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: player.settings.title });
    expect(focused()).toBe(screen.getByTestId('menu-quality'));
    await keys.keyboard('{ArrowDown}');
    expect(focused()).toBe(screen.getByTestId('menu-source'));
    // Up past the first item reaches the back row, then wraps to the last item.
    await keys.keyboard('{ArrowUp}{ArrowUp}');
    expect(focused()).toBe(screen.getByRole('button', { name: player.menu.close }));
    await keys.keyboard('{ArrowUp}');
    expect(focused()).toBe(screen.getByTestId('menu-shortcuts'));
    await keys.keyboard('{ArrowDown}');
    expect(focused()).toBe(screen.getByRole('button', { name: player.menu.close }));
    await keys.keyboard('{End}');
    expect(focused()).toBe(screen.getByTestId('menu-shortcuts'));
    await keys.keyboard('{Home}');
    expect(focused()).toBe(screen.getByRole('button', { name: player.menu.close }));
    // Navigation rows are menu items; the subtitles switch is a checkbox item.
    expect(menu.contains(screen.getByRole('menuitem', { name: new RegExp(player.settings.quality) }))).toBe(
      true,
    );
    expect(
      screen
        .getByRole('menuitemcheckbox', { name: player.settings.enableSubtitles })
        .getAttribute('aria-checked'),
    ).toBe('false');
  });

  it('the items keep one Tab stop (roving tabindex), and arrows in a menu neither seek nor change the volume', async () => {
    const keys = typing();
    playerUi.getState().set({ volumePopoutAt: 0 });
    renderPlayer((store) => store.getState().updatePlayback({ time: 30, duration: 100 }));
    act(() => screen.getByTestId('open-settings').focus());
    await keys.keyboard('{Enter}{ArrowDown}');
    const stops = () =>
      ['menuitem', 'menuitemcheckbox', 'menuitemradio']
        .flatMap((role) => screen.queryAllByRole(role))
        .filter((item) => item.tabIndex === 0);
    expect(stops()).toEqual([screen.getByTestId('menu-source')]);
    // ArrowLeft in a top-level menu has nowhere to go back to: it does nothing (it does not seek).
    await keys.keyboard('{ArrowLeft}{ArrowDown}');
    expect(stops()).toEqual([screen.getByTestId('toggle-subtitles')]);
    expect(playerStore.getState().playback.time).toBe(30);
    // The volume shortcut shows its popout: it never ran.
    expect(playerUi.getState().volumePopoutAt).toBeFalsy();
  });

  it('while a menu is open, letter shortcuts do not act on the video behind it', async () => {
    const keys = typing();
    renderPlayer();
    // A display that records what it is asked to do.
    const asked: string[] = [];
    const display = new Proxy({} as DisplayRequests, {
      get: (_, name) => () => asked.push(String(name)),
    });
    act(() => playerStore.getState().attachDisplay(display));
    act(() => screen.getByTestId('open-settings').focus());
    await keys.keyboard('{Enter}');
    expect(screen.queryByTestId('settings-menu')).not.toBeNull();
    await keys.keyboard('mf');
    expect(asked.filter((n) => n === 'setMuted' || n === 'toggleFullscreen')).toEqual([]);
    await keys.keyboard('{Escape}');
    expect(screen.queryByTestId('settings-menu')).toBeNull();
    await keys.keyboard('m');
    expect(asked).toContain('setMuted');
  });

  it('a sub-menu opens on its checked item (a radio); ArrowLeft goes back to the row that opened it; Escape closes to the gear', async () => {
    const keys = typing();
    usePlayerPrefsStore.getState().setPlayerPrefs({ automaticQuality: false });
    renderPlayer((store) => store.getState().setQualities(['1080', '720', '480', '360'], '720'));
    const gear = screen.getByTestId('open-settings');
    act(() => gear.focus());
    await keys.keyboard('{Enter}{Enter}');
    expect(screen.getByRole('menu', { name: player.settings.quality })).toBeTruthy();
    const radios = screen.getAllByRole('menuitemradio');
    expect(radios.map((r) => [r.textContent, r.getAttribute('aria-checked')])).toEqual([
      ['1080p', 'false'],
      ['720p', 'true'],
      ['480p', 'false'],
      ['360p', 'false'],
    ]);
    expect(focused()).toBe(screen.getByTestId('quality-720'));
    await keys.keyboard('{ArrowLeft}');
    expect(screen.queryByTestId('quality-menu')).toBeNull();
    expect(focused()).toBe(screen.getByTestId('menu-quality'));
    await keys.keyboard('{Escape}');
    expect(screen.queryByTestId('settings-menu')).toBeNull();
    expect(focused()).toBe(gear);
  });

  it('the back row goes back to the parent too, with focus on the row that opened the sub-menu', async () => {
    const keys = typing();
    renderPlayer();
    act(() => screen.getByTestId('open-settings').focus());
    await keys.keyboard('{Enter}{End}{ArrowUp}{Enter}');
    expect(focused()).toBe(screen.getByTestId('speed-1'));
    expect(screen.getByTestId('speed-1').getAttribute('aria-checked')).toBe('true');
    await keys.keyboard('{Home}');
    expect(focused()).toBe(screen.getByRole('button', { name: player.menu.back }));
    await keys.keyboard('{Enter}');
    expect(focused()).toBe(screen.getByTestId('menu-playback'));
  });

  it('right to left, ArrowLeft opens the sub-menu of a row and ArrowRight goes back', async () => {
    const keys = typing();
    vi.spyOn(i18next, 'dir').mockReturnValue('rtl');
    renderPlayer();
    act(() => screen.getByTestId('open-settings').focus());
    await keys.keyboard('{Enter}{End}{ArrowUp}{ArrowLeft}');
    expect(screen.getByTestId('playback-menu')).toBeTruthy();
    await keys.keyboard('{ArrowLeft}');
    expect(screen.getByTestId('playback-menu')).toBeTruthy();
    await keys.keyboard('{ArrowRight}');
    expect(screen.queryByTestId('playback-menu')).toBeNull();
    expect(focused()).toBe(screen.getByTestId('menu-playback'));
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
