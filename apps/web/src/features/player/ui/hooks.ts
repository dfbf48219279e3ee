import { useEffect, useRef, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { useLibraryStore, usePlayerPrefsStore } from '../../../stores/index.ts';
import { toggleCaptions } from '../captions/caption-actions.ts';
import { barLayout, type BarLayout } from '../core/bar-layout.ts';
import { playerStore, requests, seekBy, togglePlay, usePlayer } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { playerUi, usePlayerUi } from '../core/ui-store.ts';
import { testVolumeSupport } from '../display/display.ts';

export const SPEEDS = [0.25, 0.5, 1, 1.5, 2] as const;
export const CONTROLS_HIDE_MS = 3_000;

const isTyping = (target: EventTarget | null) => {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return (
    el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable
  );
};

export function showControls() {
  playerUi.getState().set({ controlsVisible: true });
}

/** Whether the last input was a key (focus then comes from the keyboard) or a pointer. */
let lastInput: 'keyboard' | 'pointer' = 'pointer';
export const lastInputWasKeyboard = () => lastInput === 'keyboard';

/** The user asked for less motion (the roll and the fades then stay still). */
export const prefersReducedMotion = () =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The bar's controls at the player's width (the rest are in the settings menu). */
export function useBarLayout(isShow: boolean): BarLayout {
  const width = usePlayerUi((s) => s.width);
  const caps = usePlayer((s) => s.capabilities);
  return barLayout(width, {
    isShow,
    canPictureInPicture: caps.canPictureInPicture,
    canAirplay: caps.canAirplay,
    canCast: caps.canCast,
    canChangeVolume: caps.canChangeVolume !== false,
  });
}

/** Keeps `width` in the ui store up to date with the player's own width. */
export function usePlayerWidth(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = ref.current;
    const update = (width: number) => {
      if (width > 0 && width !== playerUi.getState().width) playerUi.getState().set({ width });
    };
    update(el?.clientWidth || window.innerWidth);
    if (!el || typeof ResizeObserver === 'undefined') {
      const onResize = () => update(el?.clientWidth || window.innerWidth);
      window.addEventListener('resize', onResize);
      return () => window.removeEventListener('resize', onResize);
    }
    const observer = new ResizeObserver(([entry]) => entry && update(entry.contentRect.width));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
}

function changeVolume(delta: number) {
  const { volume, muted } = playerStore.getState().playback;
  const next = Math.round(Math.max(0, Math.min(1, (muted ? 0 : volume) + delta)) * 100) / 100;
  requests.setVolume(next);
  if (next === 0) requests.setMuted(true);
  playerUi.getState().set({ volumePopoutAt: Date.now() });
}

let lastVolume = 1;
export function toggleMute() {
  const { volume, muted } = playerStore.getState().playback;
  if (muted || volume === 0) {
    requests.setMuted(false);
    requests.setVolume(lastVolume > 0 ? lastVolume : 1);
  } else {
    lastVolume = volume;
    requests.setMuted(true);
  }
}

export function changeSpeed(step: 1 | -1) {
  const rate = playerStore.getState().playback.playbackRate;
  const index = SPEEDS.findIndex((s) => s === rate);
  const next = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (index < 0 ? 2 : index) + step))]!;
  requests.setPlaybackRate(next);
}

/**
 * The shortcut set of the app family's client behaviour (letters in either case; ignored while typing):
 * ↑/↓ volume ±0.15, M mute, →/← ±5 s, L/J ±10 s, ./, ±1 s while paused, >/< speed, F fullscreen,
 * Space/K play-pause, C captions, Escape closes a menu, R rolls the player, ? lists the shortcuts.
 */
export function useKeyboardShortcuts(o: { menuOpen: boolean; closeMenu(): void; openShortcuts(): void }) {
  const ref = useRef(o);
  useEffect(() => {
    ref.current = o;
  });
  useEffect(() => {
    const onPointer = () => {
      lastInput = 'pointer';
      if (playerUi.getState().keyboardFocus) playerUi.getState().set({ keyboardFocus: false });
    };
    const onKey = (event: KeyboardEvent) => {
      lastInput = 'keyboard';
      // Escape closes a menu even from its search field.
      if (event.key === 'Escape') {
        if (ref.current.menuOpen) {
          event.preventDefault();
          ref.current.closeMenu();
        }
        return;
      }
      // Hidden controls are inert: Tab shows them before the browser moves focus, so it lands on one.
      if (event.key === 'Tab') {
        if (!playerUi.getState().controlsVisible) flushSync(showControls);
        return;
      }
      if (isTyping(event.target) || event.altKey) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const { status, playback } = playerStore.getState();
      const ctrl = event.ctrlKey || event.metaKey;
      if (ctrl) return;
      if (key === '?') {
        ref.current.openShortcuts();
        return;
      }
      // An open menu holds the keyboard (its rows answer arrows, Enter and Space): no letter acts on the
      // video behind it.
      if (ref.current.menuOpen) return;
      if (status !== 'playing') return;
      let handled = true;
      switch (key) {
        case 'ArrowUp':
          changeVolume(0.15);
          break;
        case 'ArrowDown':
          changeVolume(-0.15);
          break;
        case 'm':
          toggleMute();
          break;
        case 'ArrowRight':
          seekBy(5);
          break;
        case 'ArrowLeft':
          seekBy(-5);
          break;
        case 'l':
          seekBy(10);
          break;
        case 'j':
          seekBy(-10);
          break;
        case '.':
          if (playback.isPaused) seekBy(1);
          break;
        case ',':
          if (playback.isPaused) seekBy(-1);
          break;
        case '>':
          changeSpeed(1);
          break;
        case '<':
          changeSpeed(-1);
          break;
        case 'f':
          requests.toggleFullscreen();
          break;
        case ' ':
          // A focused button takes Space itself (pressing it).
          if ((event.target as HTMLElement | null)?.tagName === 'BUTTON') {
            handled = false;
            break;
          }
          togglePlay();
          break;
        case 'k':
          togglePlay();
          break;
        case 'c':
          void toggleCaptions();
          break;
        case 'r':
          if (prefersReducedMotion()) break;
          playerUi.getState().set({ rolling: true });
          setTimeout(() => playerUi.getState().set({ rolling: false }), 1_000);
          break;
        default:
          handled = false;
      }
      if (handled) {
        event.preventDefault();
        showControls();
      }
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);
}

/** Library metadata of what plays (year unknown stays null). */
const libraryMeta = (meta: PlayerMeta) => ({
  tmdbId: meta.tmdbId,
  type: meta.type,
  title: meta.title,
  year: meta.releaseYear,
  poster: meta.poster,
});

export const PROGRESS_SAVE_MS = 3_000;

/**
 * Progress goes into the library every 3 s while playing, and on pause, after a seek, when the page is
 * hidden or left and when another title or episode starts, once the video has played and only when time
 * or duration changed. Saves while playing are held back for the account (one write per 15 s,
 * decision 079); the others, and whatever is held, are sent at once — the final position is never lost.
 */
export function useProgressSaver(meta: PlayerMeta) {
  useEffect(() => {
    let last = { time: -1, duration: -1 };
    const save = (hold: boolean) => {
      const library = useLibraryStore.getState();
      const { status, playback } = playerStore.getState();
      const playable = status === 'playing' && playback.hasPlayedOnce && playback.duration > 0;
      const watched = Math.floor(playback.time);
      const duration = Math.floor(playback.duration);
      if (playable && (watched !== last.time || duration !== last.duration)) {
        last = { time: watched, duration };
        library.saveProgress(
          {
            meta: libraryMeta(meta),
            watched,
            duration,
            ...(meta.type === 'show' && meta.season && meta.episode
              ? {
                  season: { id: meta.season.id, number: meta.season.number, title: meta.season.title },
                  episode: { id: meta.episode.id, number: meta.episode.number, title: meta.episode.title },
                }
              : {}),
          },
          { hold },
        );
      }
      if (!hold) library.sendHeldNow();
    };
    const timer = setInterval(() => save(true), PROGRESS_SAVE_MS);
    const unsubscribe = playerStore.subscribe((state, prev) => {
      const p = state.playback;
      const q = prev.playback;
      if ((p.isPaused && !q.isPaused) || (!p.isSeeking && q.isSeeking)) save(false);
    });
    const onHide = () => save(false);
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      save(false);
      clearInterval(timer);
      unsubscribe();
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
    };
  }, [meta]);
}

/** Volume, mute and speed are remembered on this device (the older clients' __MW::volume). */
export function useRememberVolume() {
  useEffect(
    () =>
      playerStore.subscribe((state, prev) => {
        const { volume, muted } = state.playback;
        if (volume === prev.playback.volume && muted === prev.playback.muted) return;
        usePlayerPrefsStore.getState().setPlayerPrefs({ volume: muted ? 0 : volume });
      }),
    [],
  );
}

/** Media Session: title, show and artwork, and the keyboard/headset keys. */
export function useMediaSession(
  meta: PlayerMeta,
  o: { next(): void; previous(): void; hasNext: boolean; hasPrevious: boolean },
) {
  const actions = useRef(o);
  useEffect(() => {
    actions.current = o;
  });
  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    const title =
      meta.type === 'show' && meta.season && meta.episode
        ? `S${meta.season.number} E${meta.episode.number}: ${meta.episode.title}`
        : meta.title;
    try {
      session.metadata = new MediaMetadata({
        title,
        ...(meta.type === 'show' ? { artist: meta.title } : {}),
        artwork: meta.poster ? [{ src: meta.poster, sizes: '342x513', type: 'image/png' }] : [],
      });
    } catch {
      // Some browsers refuse artwork they cannot read; the keys still work.
    }
    const handlers: [MediaSessionAction, MediaSessionActionHandler | null][] = [
      ['play', () => requests.play()],
      ['pause', () => requests.pause()],
      ['seekto', (d) => d.seekTime !== undefined && requests.seek(d.seekTime)],
      ['seekbackward', (d) => seekBy(-(d.seekOffset ?? 10))],
      ['seekforward', (d) => seekBy(d.seekOffset ?? 10)],
      ['previoustrack', o.hasPrevious ? () => actions.current.previous() : null],
      ['nexttrack', o.hasNext ? () => actions.current.next() : null],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // Not every browser knows every action.
      }
    }
    let lastSent = -10;
    const unsubscribe = playerStore.subscribe((state) => {
      const { time, duration, playbackRate, isPaused } = state.playback;
      session.playbackState = isPaused ? 'paused' : 'playing';
      if (duration > 0 && Math.abs(time - lastSent) >= 1 && session.setPositionState) {
        lastSent = time;
        try {
          session.setPositionState({ duration, position: Math.min(time, duration), playbackRate });
        } catch {
          // Position out of range while a new source loads.
        }
      }
    });
    return () => {
      unsubscribe();
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // ignore
        }
      }
      session.metadata = null;
    };
  }, [meta, o.hasNext, o.hasPrevious]);
}

/** Runs the 1 s volume test once per page (iOS lets no page change the volume). */
let volumeSupport: Promise<boolean> | null = null;
export function useVolumeSupport() {
  useEffect(() => {
    volumeSupport ??= testVolumeSupport(1_000);
    let live = true;
    void volumeSupport.then(
      (ok) => live && playerStore.getState().updateCapabilities({ canChangeVolume: ok }),
    );
    return () => {
      live = false;
    };
  }, []);
}

/**
 * Controls show on movement and hide after 3 s, but stay while paused (mouse), while a menu is open or
 * while the pointer is on the bars or keyboard focus is inside the player. A tap toggles them on touch
 * screens.
 */
export function useControlsAutoHide(o: { menuOpen: boolean; hoveringBars: boolean }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const state = useRef(o);
  useEffect(() => {
    state.current = o;
    if (o.menuOpen || o.hoveringBars) showControls();
  });
  useEffect(() => {
    const schedule = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const { playback } = playerStore.getState();
        const { hovering, keyboardFocus } = playerUi.getState();
        const keep =
          keyboardFocus ||
          state.current.menuOpen ||
          state.current.hoveringBars ||
          (playback.isPaused && hovering !== 'mobile');
        if (!keep) playerUi.getState().set({ controlsVisible: false });
      }, CONTROLS_HIDE_MS);
    };
    const unsubscribe = playerUi.subscribe((s, prev) => {
      if (s.controlsVisible && (!prev.controlsVisible || s !== prev)) schedule();
    });
    const unsubscribePlayback = playerStore.subscribe((s, prev) => {
      if (s.playback.isPaused !== prev.playback.isPaused) {
        if (s.playback.isPaused) showControls();
        else schedule();
      }
    });
    schedule();
    return () => {
      clearTimeout(timer.current);
      unsubscribe();
      unsubscribePlayback();
    };
  }, []);
}
