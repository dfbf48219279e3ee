import { clock } from '../../../lib/clock.ts';
import { isTvMode } from '../../../lib/tv/tv-mode.ts';
import { playerStore, requests, togglePlay } from '../core/player-store.ts';
import { playerUi } from '../core/ui-store.ts';
import { showControls } from './controls-visibility.ts';
import { focusIsOnPrompt, focusIsOnSeekBar, focusPlayButton, playerHasTheKeys } from './tv-focus.ts';

/*
 * The player's keys on a TV (issue 30 item 4; README "On a TV"): a remote has arrows, OK and Back.
 * Taken in the capture phase on the window, before the page's spatial navigation, which skips what was
 * `preventDefault`ed: a key the player acts on is prevented; an arrow left to the navigation is not,
 * but is kept from the viewer's bindings (↑/↓ volume, ←/→ 5 s) all the same.
 */

/** One step of ←/→: a tap, and a held key's first steps. */
export const SCRUB_STEP_S = 10;
/** A held key's steps once it has been held `SCRUB_FAST_AFTER_MS`. */
export const SCRUB_FAST_STEP_S = 30;
export const SCRUB_FAST_AFTER_MS = 1_500;
/** A held key moves the target at most this often, however fast the device repeats keys. */
export const SCRUB_STEP_EVERY_MS = 120;
/** No key-up after this long without a repeat (some TV browsers send none): the key counts as let go. */
export const SCRUB_IDLE_MS = 1_000;

/** The events this module took or left to the page's navigation: the bindings do not run for them. */
const taken = new WeakSet<Event>();
export const takenByTvKeys = (event: Event) => taken.has(event);

const clampToVideo = (time: number) => {
  const { duration } = playerStore.getState().playback;
  return Math.max(0, duration > 0 ? Math.min(duration, time) : time);
};

/**
 * ←/→ seek: a press seeks ±10 s at once; held, the key repeats and the target moves on (10 s steps, 30 s
 * once held 1.5 s, within the video) while the seek bar previews it (`scrubTo`, with its thumbnail), and
 * the video seeks there once, when the key is let go. One seek, not one per step: each seek of a stream
 * drops what was buffered and loads from the new place, and the steps pass over places nobody watches.
 */
function scrubber() {
  let held: {
    key: string;
    since: number;
    lastStep: number;
    target: number;
    moved: boolean;
    idle: ReturnType<typeof setTimeout>;
  } | null = null;
  const letGo = () => {
    if (!held) return;
    clearTimeout(held.idle);
    const { moved, target } = held;
    held = null;
    playerUi.getState().set({ scrubTo: null });
    if (moved) requests.seek(target);
  };
  return {
    press(event: KeyboardEvent, direction: 1 | -1) {
      const now = clock.now().getTime();
      // Held: the key came down again with no key-up between (not every TV browser sets `repeat`).
      if (held?.key !== event.key) {
        letGo();
        const target = clampToVideo(playerStore.getState().playback.time + direction * SCRUB_STEP_S);
        requests.seek(target);
        held = {
          key: event.key,
          since: now,
          lastStep: now,
          target,
          moved: false,
          idle: setTimeout(letGo, SCRUB_IDLE_MS),
        };
        return;
      }
      clearTimeout(held.idle);
      held.idle = setTimeout(letGo, SCRUB_IDLE_MS);
      if (now - held.lastStep < SCRUB_STEP_EVERY_MS) return;
      const step = now - held.since >= SCRUB_FAST_AFTER_MS ? SCRUB_FAST_STEP_S : SCRUB_STEP_S;
      held.target = clampToVideo(held.target + direction * step);
      held.lastStep = now;
      held.moved = true;
      playerUi.getState().set({ scrubTo: held.target });
    },
    release(event: KeyboardEvent) {
      if (held?.key === event.key) letGo();
    },
    letGo,
  };
}

/** A remote's key by its name; older TV browsers' names, and codes where a set names no key. */
const REMOTE_KEYS: Readonly<Record<string, 'left' | 'right' | 'up' | 'down' | 'ok'>> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  Left: 'left',
  Right: 'right',
  Up: 'up',
  Down: 'down',
  Enter: 'ok',
};
const REMOTE_CODES = { 37: 'left', 38: 'up', 39: 'right', 40: 'down', 13: 'ok' } as const;
function remoteKey(event: KeyboardEvent) {
  const named = REMOTE_KEYS[event.key];
  if (named || (event.key && event.key !== 'Unidentified')) return named ?? null;
  return REMOTE_CODES[event.keyCode as keyof typeof REMOTE_CODES] ?? null;
}

/**
 * TV mode: every key shows the controls. With the player's keys (playerHasTheKeys: the bars hidden, or
 * focus on nothing, the player or a prompt) ←/→ seek and scrub, ↑/↓ show the bars with focus on play,
 * OK plays or pauses (a prompt's OK presses the prompt). With focus in the shown bars the arrows are the
 * page's navigation, except ←/→ on the seek bar, which seek as above (OK there plays or pauses). Menus
 * keep their keys. `down` runs first for every key down, `up` for every key up, `letGo` on blur.
 */
export function tvKeys(o: { container(): HTMLElement | null; menuOpen(): boolean }) {
  const scrub = scrubber();
  const take = (event: KeyboardEvent) => {
    taken.add(event);
    event.preventDefault();
  };
  return {
    down(event: KeyboardEvent): void {
      if (!isTvMode()) return;
      showControls();
      if (o.menuOpen() || event.altKey || event.ctrlKey || event.metaKey) return;
      if (playerStore.getState().status !== 'playing') return;
      const own = playerHasTheKeys(o.container());
      const key = remoteKey(event);
      if (key === 'left' || key === 'right') {
        if (own || focusIsOnSeekBar()) {
          take(event);
          scrub.press(event, key === 'left' ? -1 : 1);
        } else taken.add(event);
      } else if (key === 'up' || key === 'down') {
        if (!own) return void taken.add(event);
        take(event);
        if (!event.repeat) focusPlayButton(o.container());
      } else if (key === 'ok' && ((own && !focusIsOnPrompt()) || focusIsOnSeekBar())) {
        take(event);
        if (!event.repeat) togglePlay();
      }
    },
    up: (event: KeyboardEvent) => scrub.release(event),
    letGo: () => scrub.letGo(),
  };
}
