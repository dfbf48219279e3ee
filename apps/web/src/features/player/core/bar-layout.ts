/**
 * Which controls the player's bottom bar shows at a given width, and which move into the settings menu.
 *
 * Play, the time, subtitles, settings and fullscreen always stay in the bar; the others join it in the
 * order of `OPTIONAL` while they fit, and the rest are offered in the settings menu. Every button is a
 * 44 px touch target; the widths below are what the bar's CSS gives them (player-bars.tsx), so the bar
 * can never be wider than the player.
 */
export type OptionalControl = 'volume' | 'skip' | 'episodes' | 'pip' | 'airplay' | 'cast';

/** In the order they earn a place in the bar. */
export const OPTIONAL: readonly OptionalControl[] = ['volume', 'skip', 'episodes', 'pip', 'airplay', 'cast'];

export const BUTTON_PX = 44;
export const GAP_PX = 4;
/** The bar's inline padding on both sides together (px-2 under 480 px, px-4 above). */
export const barPaddingPx = (width: number) => (width < 480 ? 16 : 32);
/** "1:05:00 / 2:16:00" in 14 px tabular figures, with its own padding; elapsed only takes "2:16:00". */
export const TIME_FULL_PX = 136;
export const TIME_ELAPSED_PX = 72;
/** The volume slider beside the mute button (shown on hover and focus). */
export const VOLUME_SLIDER_PX = 96;

export interface BarFeatures {
  isShow: boolean;
  canPictureInPicture: boolean;
  canAirplay: boolean;
  canCast: boolean;
  /** False where the page cannot set the volume (iOS): then only mute is offered, without a slider. */
  canChangeVolume: boolean;
}

export interface BarLayout {
  /** The optional controls shown in the bar, in `OPTIONAL` order. */
  bar: OptionalControl[];
  /** The available optional controls that did not fit: the settings menu offers them. */
  menu: OptionalControl[];
  /** The whole time ("1:05 / 2:16:00") or, on the narrowest players, the elapsed time only. */
  time: 'full' | 'elapsed';
}

const widthOf = (control: OptionalControl, f: BarFeatures) =>
  control === 'skip'
    ? 2 * (BUTTON_PX + GAP_PX)
    : control === 'volume' && f.canChangeVolume
      ? BUTTON_PX + GAP_PX + VOLUME_SLIDER_PX
      : BUTTON_PX + GAP_PX;

const available = (control: OptionalControl, f: BarFeatures) =>
  control === 'episodes'
    ? f.isShow
    : control === 'pip'
      ? f.canPictureInPicture
      : control === 'airplay'
        ? f.canAirplay
        : control === 'cast'
          ? f.canCast
          : true;

export function barLayout(width: number, features: BarFeatures): BarLayout {
  // Play, subtitles, settings and fullscreen, and the gaps between the five items with the time.
  const fixed = barPaddingPx(width) + 4 * BUTTON_PX + 4 * GAP_PX;
  const time = width - fixed >= TIME_FULL_PX ? 'full' : 'elapsed';
  let room = width - fixed - (time === 'full' ? TIME_FULL_PX : TIME_ELAPSED_PX);
  const bar: OptionalControl[] = [];
  const menu: OptionalControl[] = [];
  for (const control of OPTIONAL) {
    if (!available(control, features)) continue;
    const needs = widthOf(control, features);
    // Once one control moves to the menu, the later ones do too: the bar keeps a stable order.
    if (menu.length === 0 && needs <= room) {
      bar.push(control);
      room -= needs;
    } else menu.push(control);
  }
  return { bar, menu, time };
}
