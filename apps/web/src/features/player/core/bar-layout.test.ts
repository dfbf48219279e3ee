import { describe, expect, it } from 'vitest';
import {
  barLayout,
  barPaddingPx,
  BUTTON_PX,
  GAP_PX,
  TIME_ELAPSED_PX,
  TIME_FULL_PX,
  VOLUME_SLIDER_PX,
  type BarFeatures,
  type BarLayout,
} from './bar-layout.ts';

const everything: BarFeatures = {
  isShow: true,
  canPictureInPicture: true,
  canAirplay: true,
  canCast: true,
  canChangeVolume: true,
};
const movieOnAPhone: BarFeatures = {
  isShow: false,
  canPictureInPicture: true,
  canAirplay: false,
  canCast: false,
  canChangeVolume: false,
};

/** The width the bar's CSS gives a layout: it must never exceed the player's. */
function barWidth(width: number, layout: BarLayout, f: BarFeatures) {
  const buttons = 4 + layout.bar.reduce((n, c) => n + (c === 'skip' ? 2 : 1), 0);
  const slider = layout.bar.includes('volume') && f.canChangeVolume ? VOLUME_SLIDER_PX : 0;
  const time = layout.time === 'full' ? TIME_FULL_PX : TIME_ELAPSED_PX;
  return barPaddingPx(width) + buttons * (BUTTON_PX + GAP_PX) + slider + time;
}

describe('the control bar at a width', () => {
  it.each([360, 390])(
    'a phone (%i px) keeps the essentials and the whole time; the rest goes to the menu',
    (w) => {
      const layout = barLayout(w, { ...everything, canChangeVolume: false });
      expect(layout.time).toBe('full');
      expect(layout.bar).toEqual([]);
      expect(layout.menu).toEqual(['volume', 'skip', 'episodes', 'pip', 'airplay', 'cast']);
    },
  );

  it('a film on a phone offers picture in picture from the menu, not off-screen', () => {
    expect(barLayout(390, movieOnAPhone)).toEqual({ bar: [], menu: ['volume', 'skip', 'pip'], time: 'full' });
  });

  it('the narrowest players show the elapsed time only', () => {
    expect(barLayout(320, movieOnAPhone).time).toBe('elapsed');
    expect(barLayout(359, movieOnAPhone).time).toBe('full');
  });

  it('a laptop shows every control in the bar', () => {
    expect(barLayout(1280, everything)).toEqual({
      bar: ['volume', 'skip', 'episodes', 'pip', 'airplay', 'cast'],
      menu: [],
      time: 'full',
    });
  });

  it('a landscape phone (844 px) fits everything a film offers', () => {
    expect(barLayout(844, movieOnAPhone)).toEqual({ bar: ['volume', 'skip', 'pip'], menu: [], time: 'full' });
  });

  it('controls join the bar in order: once one is in the menu, the later ones are too', () => {
    const layout = barLayout(560, everything);
    expect(layout.bar).toEqual(['volume']);
    expect(layout.menu).toEqual(['skip', 'episodes', 'pip', 'airplay', 'cast']);
  });

  it('unavailable controls are in neither place', () => {
    const layout = barLayout(1280, { ...movieOnAPhone, canPictureInPicture: false });
    expect([...layout.bar, ...layout.menu]).toEqual(['volume', 'skip']);
  });

  it('the bar never needs more room than the player has, from 280 px to 2000 px', () => {
    for (let w = 280; w <= 2000; w += 7) {
      for (const f of [everything, movieOnAPhone, { ...everything, canChangeVolume: false }]) {
        expect(barWidth(w, barLayout(w, f), f), `${w} px`).toBeLessThanOrEqual(w);
      }
    }
  });
});
