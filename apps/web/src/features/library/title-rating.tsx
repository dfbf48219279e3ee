import { useRef, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaDetails } from '@marquee/contract';
import { RATING_MAX, RATING_MIN } from '@marquee/contract/values';
import { numberFormat } from '../../lib/intl.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { libraryMetaOf } from './bookmark-toggle.tsx';
import { ratingOf } from '../../stores/library/ratings-view.ts';
import { isTvMode } from '../../lib/tv/tv-mode.ts';

/*
 * The viewer's rating of a movie or a show (decision 103): five stars in halves, 1–10 on the wire. One
 * control, a slider: a tap or click on a star's first half gives half a star, on its second half the
 * whole star; the arrows move half a star (mirrored right to left), Home/End the ends, Delete clears.
 */

const STARS = 5;
const STAR_PATH = 'M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z';

/** The rating a point on the stars names: which star, and which half of it (reading direction aside). */
export function ratingAt(offset: number, width: number, rtl: boolean): number {
  const share = Math.min(Math.max(offset / width, 0), 0.9999);
  const halves = Math.floor((rtl ? 1 - share : share) * STARS * 2) + 1;
  return Math.min(Math.max(halves, RATING_MIN), RATING_MAX);
}

/** The rating a key gives from `value` (0: none yet), or undefined for a key the control leaves alone. */
export function ratingForKey(
  key: string,
  value: number,
  rtl: boolean,
  { vertical = true }: { vertical?: boolean } = {},
): number | null | undefined {
  const up = rtl ? 'ArrowLeft' : 'ArrowRight';
  const down = rtl ? 'ArrowRight' : 'ArrowLeft';
  if (key === up || (vertical && key === 'ArrowUp'))
    return Math.min(Math.max(value + 1, RATING_MIN), RATING_MAX);
  if (key === down || (vertical && key === 'ArrowDown'))
    return value <= RATING_MIN ? value || null : value - 1;
  if (key === 'Home') return RATING_MIN;
  if (key === 'End') return RATING_MAX;
  if (key === 'Delete' || key === 'Backspace') return null;
  if (/^[1-5]$/.test(key)) return Number(key) * 2;
  return undefined;
}

function Star({ fill }: { fill: 0 | 0.5 | 1 }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-8 w-8 shrink-0 rtl:-scale-x-100">
      <path d={STAR_PATH} className="fill-surface-3 stroke-fg-muted" strokeWidth="1" />
      {fill > 0 && (
        <path
          d={STAR_PATH}
          className="fill-amber-400"
          style={fill === 0.5 ? { clipPath: 'inset(0 50% 0 0)' } : undefined}
        />
      )}
    </svg>
  );
}

export function TitleRating({
  media,
}: {
  media: Pick<MediaDetails, 'id' | 'type' | 'title' | 'year' | 'poster'>;
}) {
  const { t, i18n } = useTranslation(['history']);
  const meta = libraryMetaOf(media);
  const held = useLibraryStore((s) => (meta ? ratingOf(s, meta.type, meta.tmdbId) : undefined));
  const rate = useLibraryStore((s) => s.rate);
  const unrate = useLibraryStore((s) => s.unrate);
  const stars = useRef<HTMLDivElement>(null);
  if (!meta) return null;
  const value = held?.rating ?? 0;
  const rtl = () => getComputedStyle(stars.current ?? document.documentElement).direction === 'rtl';
  const set = (next: number | null) => {
    if (next === null) unrate(meta.type, meta.tmdbId);
    else if (next !== value) rate(meta, next);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    set(ratingAt(e.clientX - box.left, box.width, rtl()));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // A remote's Up and Down move on to the controls above and below (TV mode: lib/tv/).
    const next = ratingForKey(e.key, value, rtl(), { vertical: !isTvMode() });
    if (next === undefined) return;
    e.preventDefault();
    set(next);
  };
  const starsText = (rating: number) =>
    t('history.rating.value', {
      stars: numberFormat(i18n.language, { maximumFractionDigits: 1 }).format(rating / 2),
    });
  return (
    <div
      className="flex basis-full flex-wrap items-center gap-x-3 gap-y-1"
      data-testid="title-rating-control"
    >
      <span className="text-sm font-semibold text-fg" id={`rating-label-${meta.type}-${meta.tmdbId}`}>
        {t('history.rating.label')}
      </span>
      <div
        ref={stars}
        role="slider"
        tabIndex={0}
        aria-labelledby={`rating-label-${meta.type}-${meta.tmdbId}`}
        aria-valuemin={0}
        aria-valuemax={RATING_MAX}
        aria-valuenow={value}
        aria-valuetext={value ? starsText(value) : t('history.rating.none')}
        aria-orientation="horizontal"
        onPointerUp={onPointerUp}
        onKeyDown={onKeyDown}
        className="flex min-h-11 cursor-pointer touch-manipulation items-center rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        data-testid="title-rating-stars"
      >
        {Array.from({ length: STARS }, (_, i) => {
          const filled = value - i * 2;
          return <Star key={i} fill={filled >= 2 ? 1 : filled === 1 ? 0.5 : 0} />;
        })}
      </div>
      <span className="text-sm text-fg-muted" aria-hidden="true" data-testid="title-rating-value">
        {value ? starsText(value) : t('history.rating.none')}
      </span>
      {value > 0 && (
        <button
          type="button"
          onClick={() => set(null)}
          className="inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold text-fg-accent hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-accent"
          data-testid="title-rating-clear"
        >
          {t('history.rating.clear')}
        </button>
      )}
    </div>
  );
}
