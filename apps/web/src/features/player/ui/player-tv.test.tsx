import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { RuntimeConfig } from '@marquee/contract';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../lib/i18n.ts';
import { paths } from '../../../lib/paths.ts';
import { setRuntimeConfig } from '../../../lib/runtime-config.ts';
import { formatTime } from '../../../lib/timestamp.ts';
import { memoryStorage, setAppStorage } from '../../../lib/storage.ts';
import { initStores } from '../../../stores/index.ts';
import { observeRequests, playerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { playerUi } from '../core/ui-store.ts';
import { PlayerDepsProvider, type PlayerDeps } from '../session/player-deps.tsx';
import { inertPlayerDeps } from '../session/test-deps.ts';
import { episode, movie } from '../session/test-meta.ts';
import { CONTROLS_HIDE_MS } from './controls-visibility.ts';
import { MEDIA_ECHO_MS } from './media-keys.ts';
import { PlayerView } from './player-view.tsx';
import { SCRUB_FAST_AFTER_MS, SCRUB_IDLE_MS } from './tv-keys.ts';
import { setTvModeSetting } from '../../../lib/tv/tv-mode.ts';

// The player on a TV (issue 30 item 4) and the media keys (item 2): the real view with fake deps (no
// video attaches: a seek moves the store's time at once) and fake timers, Date among them (a held key's
// speed and a media key's echo are told by the time).

let i18next: i18n;
let asked: [string, ...unknown[]][];
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  setRuntimeConfig({ captcha: { provider: 'none', siteKey: null } } as unknown as RuntimeConfig);
  vi.stubGlobal('fetch', () => new Promise(() => undefined));
  playerStore.getState().reset();
  playerUi.getState().set({ controlsVisible: true, keyboardFocus: false, width: 1280, scrubTo: null });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  asked = [];
  observeRequests((name, args) => asked.push([name, ...args]));
});
afterEach(() => {
  observeRequests(null);
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** TV mode as the app hands it down (app.tsx → lib/tv/tv-mode.ts). */
const tvMode = (on: boolean) => setTvModeSetting(on ? 'on' : 'off');

function Location() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** The player of `meta`, playing from `time` in a video of `duration` seconds once its source is found. */
function renderPlayer(o: { meta?: PlayerMeta; time?: number; duration?: number } = {}) {
  const runSession: PlayerDeps['runSession'] = async (store) => {
    store.getState().setSourceId('src');
    store.getState().updatePlayback({
      time: o.time ?? 100,
      duration: o.duration ?? 600,
      isPaused: false,
      hasPlayedOnce: true,
    });
    return null;
  };
  const meta = o.meta ?? movie;
  const view = render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter initialEntries={['/media/x']}>
          <PlayerDepsProvider value={inertPlayerDeps({ runSession })}>
            <PlayerView meta={meta} backTo="/" startOnOpen={false} />
            <Location />
          </PlayerDepsProvider>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  asked.length = 0;
  return view;
}

/** Untouched for longer than the controls wait: they hide. */
const letControlsHide = () => act(() => vi.advanceTimersByTime(CONTROLS_HIDE_MS + 100));
const controlsShown = () => playerUi.getState().controlsVisible;
const time = () => playerStore.getState().playback.time;
const seeks = () => asked.filter(([name]) => name === 'seek').map(([, at]) => at);
const named = (name: string) => asked.filter(([n]) => n === name).length;
const player = () => screen.getByTestId('player');
/** A key pressed where focus is (the window when nothing has it); false when the player prevented it. */
const press = (key: string, init: { repeat?: boolean; keyCode?: number } = {}) =>
  fireEvent.keyDown(document.activeElement ?? window, { key, ...init });
const release = (key: string) => fireEvent.keyUp(document.activeElement ?? window, { key });

describe('TV mode: the controls', () => {
  beforeEach(() => tvMode(true));

  it('any key shows them: arrows, OK, Back and keys the player does not use', () => {
    renderPlayer();
    for (const key of ['ArrowLeft', 'ArrowUp', 'Enter', 'Escape', 'Backspace', 'x', 'F5']) {
      letControlsHide();
      expect(controlsShown(), key).toBe(false);
      act(() => void press(key));
      release(key);
      expect(controlsShown(), key).toBe(true);
    }
  });

  it('the player takes focus as it opens, from the episode chosen below it too', () => {
    const episodeLink = document.createElement('a');
    episodeLink.href = '/media/x/1/2';
    document.body.append(episodeLink);
    episodeLink.focus();
    renderPlayer();
    expect(document.activeElement).toBe(player());
    episodeLink.remove();
  });

  it('hide 3 s after the last key even with focus in them, and focus moves to the player (never lost)', () => {
    renderPlayer();
    letControlsHide();
    act(() => void press('ArrowDown'));
    expect(document.activeElement).toBe(screen.getByTestId('play-pause'));
    letControlsHide();
    expect(controlsShown()).toBe(false);
    expect(document.activeElement).toBe(player());
    expect(screen.getByTestId('play-pause').closest('[inert]')).not.toBeNull();
  });
});

describe('TV mode: keys while the bars are hidden', () => {
  beforeEach(() => tvMode(true));

  it('Left/Right seek 10 s, each press at once, and are kept from the page', () => {
    renderPlayer({ time: 100 });
    letControlsHide();
    expect(press('ArrowRight')).toBe(false);
    release('ArrowRight');
    expect(seeks()).toEqual([110]);
    expect(press('ArrowLeft')).toBe(false);
    release('ArrowLeft');
    expect(press('ArrowLeft')).toBe(false);
    release('ArrowLeft');
    expect(seeks()).toEqual([110, 100, 90]);
    expect(time()).toBe(90);
    // Older TV browsers name the arrows without "Arrow", or not at all (then only a code).
    press('Right');
    release('Right');
    press('Unidentified', { keyCode: 37 });
    release('Unidentified');
    expect(seeks()).toEqual([110, 100, 90, 100, 90]);
  });

  it('held, Right scrubs faster the longer it is held, previews the target with its thumbnail and seeks once, at release', () => {
    renderPlayer({ time: 100, duration: 3_600 });
    for (let at = 0; at <= 3_600; at += 10) playerStore.getState().addThumbnail({ at, data: `thumb-${at}` });
    letControlsHide();
    press('ArrowRight');
    expect(seeks()).toEqual([110]);
    const previews: { to: number; held: number }[] = [];
    // A remote repeats the key every 50 ms while it is held.
    for (let held = 50; held <= 3_000; held += 50) {
      act(() => vi.advanceTimersByTime(50));
      act(() => void press('ArrowRight', { repeat: true }));
      const to = playerUi.getState().scrubTo;
      if (to !== null && to !== previews.at(-1)?.to) previews.push({ to, held });
    }
    const steps = previews.map(({ to, held }, i) => ({ by: to - (previews[i - 1]?.to ?? 110), held }));
    // 10 s steps until held SCRUB_FAST_AFTER_MS, 30 s steps from then on, a few of each.
    const slow = steps.filter((s) => s.held < SCRUB_FAST_AFTER_MS);
    const fast = steps.filter((s) => s.held >= SCRUB_FAST_AFTER_MS);
    expect(slow.map((s) => s.by)).toEqual(slow.map(() => 10));
    expect(fast.map((s) => s.by)).toEqual(fast.map(() => 30));
    expect(slow.length).toBeGreaterThan(3);
    expect(fast.length).toBeGreaterThan(3);
    // No seek while held: the seek bar shows where it will land, with the thumbnail of that place.
    expect(seeks()).toEqual([110]);
    const target = previews.at(-1)!.to;
    expect(screen.getByTestId('seek-preview').textContent).toBe(formatTime(target));
    expect(screen.getByTestId('seek-thumbnail').getAttribute('src')).toBe(`thumb-${target}`);
    act(() => void release('ArrowRight'));
    expect(seeks()).toEqual([110, target]);
    expect(playerUi.getState().scrubTo).toBeNull();
    expect(screen.queryByTestId('seek-preview')).toBeNull();
  });

  it('a held key stops at the end of the video; with no key-up the hold ends after a pause in the repeats', () => {
    renderPlayer({ time: 560, duration: 600 });
    letControlsHide();
    press('ArrowRight');
    for (let i = 0; i < 20; i++) {
      act(() => vi.advanceTimersByTime(150));
      act(() => void press('ArrowRight', { repeat: true }));
    }
    expect(playerUi.getState().scrubTo).toBe(600);
    expect(seeks()).toEqual([570]);
    act(() => vi.advanceTimersByTime(SCRUB_IDLE_MS));
    expect(seeks()).toEqual([570, 600]);
    expect(playerUi.getState().scrubTo).toBeNull();
  });

  it('a key down again with no key-up between is held, where a browser does not mark repeats', () => {
    renderPlayer({ time: 100 });
    letControlsHide();
    press('ArrowLeft');
    for (let i = 0; i < 2; i++) {
      act(() => vi.advanceTimersByTime(150));
      act(() => void press('ArrowLeft'));
    }
    expect(seeks()).toEqual([90]);
    expect(playerUi.getState().scrubTo).toBe(70);
    act(() => void release('ArrowLeft'));
    expect(seeks()).toEqual([90, 70]);
  });

  it('Up/Down show the bars with focus on play/pause, and leave the volume alone', () => {
    renderPlayer();
    for (const key of ['ArrowUp', 'ArrowDown']) {
      letControlsHide();
      act(() => player().focus());
      expect(press(key)).toBe(false);
      expect(controlsShown()).toBe(true);
      expect(document.activeElement).toBe(screen.getByTestId('play-pause'));
    }
    expect(named('setVolume')).toBe(0);
    expect(playerUi.getState().volumePopoutAt).toBe(0);
  });

  it('OK plays or pauses', () => {
    renderPlayer();
    letControlsHide();
    expect(press('Enter')).toBe(false);
    expect(named('pause')).toBe(1);
    act(() => playerStore.getState().updatePlayback({ isPaused: true }));
    press('Enter');
    expect(named('play')).toBe(1);
  });

  it('an open menu keeps its arrows: nothing seeks behind it', () => {
    renderPlayer({ time: 100 });
    fireEvent.click(screen.getByTestId('open-settings'));
    press('ArrowLeft');
    press('ArrowRight');
    expect(seeks()).toEqual([]);
  });
});

describe('TV mode: keys while focus is in the shown bars', () => {
  beforeEach(() => tvMode(true));

  it('arrows are left to the page’s navigation (not prevented), and run no shortcut', () => {
    renderPlayer({ time: 100 });
    const settings = screen.getByTestId('open-settings');
    act(() => settings.focus());
    for (const key of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) expect(press(key), key).toBe(true);
    expect(asked).toEqual([]);
    expect(playerUi.getState().volumePopoutAt).toBe(0);
    // OK is the focused button's own (the browser presses it): the player does not toggle play.
    expect(press('Enter')).toBe(true);
    expect(named('pause')).toBe(0);
  });

  it('the seek bar keeps Left/Right for seeking (10 s); Up/Down leave it; OK plays or pauses', () => {
    renderPlayer({ time: 100 });
    const bar = screen.getByTestId('progress-bar');
    act(() => bar.focus());
    expect(press('ArrowRight')).toBe(false);
    release('ArrowRight');
    expect(press('ArrowLeft')).toBe(false);
    release('ArrowLeft');
    expect(seeks()).toEqual([110, 100]);
    expect(press('ArrowUp')).toBe(true);
    expect(press('ArrowDown')).toBe(true);
    expect(playerUi.getState().volumePopoutAt).toBe(0);
    expect(press('Enter')).toBe(false);
    expect(named('pause')).toBe(1);
  });
});

/** Segments of the library file playing: an intro from 0 to 60 s. */
const withIntro = () =>
  act(() =>
    playerStore.getState().setSegments({
      access: 'a',
      fileId: 'f',
      duration: 600,
      detection: 'done',
      segments: [{ type: 'intro', start: 0, end: 60, source: 'file' }],
      mine: [],
    }),
  );

describe('TV mode: Skip intro and Next episode take focus', () => {
  beforeEach(() => tvMode(true));

  it('Skip intro takes focus as it appears (the bars stay hidden); OK presses it; focus returns to the player', () => {
    renderPlayer({ time: 10 });
    letControlsHide();
    withIntro();
    const skip = screen.getByTestId('skip-segment');
    expect(document.activeElement).toBe(skip);
    expect(controlsShown()).toBe(false);
    // OK on it is the button's (the browser presses it), not play/pause.
    expect(press('Enter')).toBe(true);
    expect(named('pause')).toBe(0);
    act(() => skip.click());
    expect(seeks()).toEqual([60]);
    expect(screen.queryByTestId('skip-segment')).toBeNull();
    expect(document.activeElement).toBe(player());
  });

  it('does not take focus from the bars the viewer is moving in', () => {
    renderPlayer({ time: 10 });
    const settings = screen.getByTestId('open-settings');
    act(() => settings.focus());
    withIntro();
    expect(screen.getByTestId('skip-segment')).toBeTruthy();
    expect(document.activeElement).toBe(settings);
  });

  it('Next episode takes focus near the end; OK on it goes to the next episode', () => {
    renderPlayer({ meta: episode(1), time: 590, duration: 600 });
    const next = screen.getByTestId('next-episode-button');
    expect(document.activeElement).toBe(next);
    act(() => next.click());
    expect(screen.getByTestId('location').textContent).toBe(paths.media('tmdb-tv-1-show', 's1', 'e2'));
  });

  it('outside TV mode neither takes focus', () => {
    tvMode(false);
    renderPlayer({ meta: episode(1), time: 10, duration: 600 });
    withIntro();
    expect(screen.getByTestId('skip-segment')).toBeTruthy();
    expect(document.activeElement).toBe(document.body);
    act(() => playerStore.getState().updatePlayback({ time: 590 }));
    expect(screen.getByTestId('next-episode-button')).toBeTruthy();
    expect(document.activeElement).toBe(document.body);
  });
});

describe('outside TV mode nothing changes', () => {
  beforeEach(() => tvMode(false));

  it('Left/Right seek 5 s, Up/Down change the volume, OK does nothing, and keys do not pin focus-free controls', () => {
    renderPlayer({ time: 100 });
    letControlsHide();
    press('ArrowRight');
    press('ArrowLeft');
    press('ArrowLeft');
    expect(seeks()).toEqual([105, 100, 95]);
    press('ArrowUp');
    press('ArrowDown');
    expect(named('setVolume')).toBe(2);
    expect(document.activeElement).toBe(document.body);
    expect(press('Enter')).toBe(true);
    expect(named('pause') + named('play')).toBe(0);
    // A key the player does not use does not show the controls.
    letControlsHide();
    press('x');
    expect(controlsShown()).toBe(false);
  });
});

describe.each([false, true])('media keys (TV mode %s)', (tv) => {
  beforeEach(() => tvMode(tv));

  it('play/pause, play, pause, stop (a pause), rewind and fast-forward 10 s, each kept from the page', () => {
    renderPlayer({ time: 100 });
    const order: string[] = [];
    for (const key of ['MediaPlayPause', 'MediaPlay', 'MediaPause', 'MediaStop']) {
      expect(press(key), key).toBe(false);
      order.push(asked.at(-1)![0]);
    }
    expect(order).toEqual(['pause', 'play', 'pause', 'pause']);
    press('MediaRewind');
    press('MediaFastForward');
    press('MediaFastForward');
    expect(seeks()).toEqual([90, 100, 110]);
  });

  it('next goes to the next episode; previous restarts one under way, and at its start goes back one', () => {
    renderPlayer({ meta: episode(2), time: 100 });
    const location = () => screen.getByTestId('location').textContent;
    const before = location();
    press('MediaTrackNext');
    expect(location()).toBe(before);
    press('MediaTrackPrevious');
    expect(seeks()).toEqual([0]);
    expect(location()).toBe(before);
    press('MediaTrackPrevious');
    expect(location()).toBe(paths.media('tmdb-tv-1-show', 's1', 'e1'));
  });
});

describe('media keys', () => {
  it('next on an episode with one after it goes there; a film restarts on previous', () => {
    const view = renderPlayer({ meta: episode(1), time: 100 });
    press('MediaTrackNext');
    expect(screen.getByTestId('location').textContent).toBe(paths.media('tmdb-tv-1-show', 's1', 'e2'));
    view.unmount();
    renderPlayer({ meta: movie, time: 100 });
    press('MediaTrackPrevious');
    expect(seeks()).toEqual([0]);
  });

  it('TV remotes that name no key are read by their codes; a named key is never taken for a code', () => {
    renderPlayer();
    press('Unidentified', { keyCode: 415 });
    press('Unidentified', { keyCode: 19 });
    press('', { keyCode: 417 });
    expect(asked.map(([name]) => name)).toEqual(['play', 'pause', 'seek']);
    // The Pause/Break key of a PC keyboard has the code 19 and a name of its own.
    expect(press('Pause', { keyCode: 19 })).toBe(true);
    expect(asked).toHaveLength(3);
  });

  it('held, rewind goes on seeking; play/pause acts once', () => {
    renderPlayer({ time: 100 });
    press('MediaRewind');
    press('MediaRewind', { repeat: true });
    press('MediaPlayPause');
    press('MediaPlayPause', { repeat: true });
    expect(seeks()).toEqual([90, 80]);
    expect(named('pause') + named('play')).toBe(1);
  });
});

describe('media keys and the Media Session', () => {
  const handlers = new Map<string, MediaSessionActionHandler | null>();
  beforeEach(() => {
    handlers.clear();
    const session = {
      metadata: null,
      playbackState: 'none',
      setActionHandler: (action: string, handler: MediaSessionActionHandler | null) =>
        handlers.set(action, handler),
      setPositionState: () => undefined,
    };
    Object.defineProperty(navigator, 'mediaSession', { value: session, configurable: true });
    vi.stubGlobal(
      'MediaMetadata',
      class {
        constructor(readonly init: unknown) {}
      },
    );
  });
  afterEach(() => {
    delete (navigator as { mediaSession?: unknown }).mediaSession;
  });
  const action = (name: MediaSessionAction, details: Partial<MediaSessionActionDetails> = {}) =>
    act(() => handlers.get(name)!({ action: name, ...details }));

  it('one press heard as a key and as the session’s action runs once; apart, each runs', () => {
    renderPlayer({ time: 100 });
    press('MediaFastForward');
    action('seekforward');
    expect(seeks()).toEqual([110]);
    // The other way round, for play/pause: the session says "pause", the key "play/pause".
    action('pause');
    press('MediaPlayPause');
    expect(named('pause') + named('play')).toBe(1);
    // Apart, each runs; pressed twice the same way, both run.
    act(() => vi.advanceTimersByTime(MEDIA_ECHO_MS));
    action('seekforward', { seekOffset: 30 });
    act(() => vi.advanceTimersByTime(MEDIA_ECHO_MS));
    press('MediaFastForward');
    press('MediaFastForward');
    expect(seeks()).toEqual([110, 140, 150, 160]);
  });

  it('stop pauses, and previous is there for a film (it restarts it); next only with a next episode', () => {
    renderPlayer({ time: 100 });
    action('stop');
    expect(named('pause')).toBe(1);
    action('previoustrack');
    expect(seeks()).toEqual([0]);
    expect(handlers.get('nexttrack')).toBeNull();
  });
});
