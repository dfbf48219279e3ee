import { useEffect, type RefObject } from 'react';
import { barLayout, type BarLayout } from '../core/bar-layout.ts';
import { usePlayer } from '../core/player-store.ts';
import { playerUi, usePlayerUi } from '../core/ui-store.ts';

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
