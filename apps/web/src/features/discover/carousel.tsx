import { useDeferredValue, useEffect, useRef, useState, type Ref, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { type MediaSummary } from '@marquee/contract';
import { cardWidth, truncateTitle } from './discover-rules.ts';
import {
  FITS,
  UNMEASURED,
  pageOffset,
  readRowScroll,
  rowArrows,
  sameArrows,
  type RowArrows,
} from './carousel-scroll.ts';
import { MediaCard, MediaCardSkeleton, type PosterLoading } from '../../components/media-card.tsx';
import { isRtl } from '../../lib/i18n.ts';
import { useTvMode } from '../../lib/tv/tv-mode.ts';
import { useViewportWidth } from '../../lib/use-viewport-width.ts';

/** Wheel paging is throttled so one flick of the wheel is one page. */
const WHEEL_THROTTLE_MS = 345;
/** Space between cards (Tailwind gap-4). */
const GAP_PX = 16;
/**
 * A row's box: the placeholder and the list share it, so both are equally high (a thin scrollbar included).
 * In TV mode (docs/decisions/114-tv-mode.md) it keeps room around the cards for the focus ring, and a card
 * the arrow keys scroll into view stops 2rem from the row's ends: the next one peeks in.
 */
const ROW = 'flex gap-4 pb-2 [scrollbar-width:thin] tv:-mx-2 tv:px-2 tv:pt-2 tv:scroll-px-8';

/** How many cards of a row are on screen at once (the rest of the row is scrolled to). */
export function cardsInView(viewportWidth: number, width = cardWidth(viewportWidth)): number {
  return Math.max(1, Math.ceil(viewportWidth / (width + GAP_PX)));
}

/** Same box as a row's list (padding, scrollbar) around cards of the same height; nothing in it scrolls. */
function RowPlaceholder({ width, count }: { width: number; count: number }) {
  return (
    <div className={`${ROW} overflow-x-scroll`} aria-hidden="true" data-testid="carousel-placeholder">
      <div className="flex min-w-0 flex-1 gap-4 overflow-hidden">
        {Array.from({ length: count }, (_, i) => (
          <MediaCardSkeleton key={i} width={width} />
        ))}
      </div>
    </div>
  );
}

/** A row whose title is not known yet (its genre is still being picked): heading and cards as placeholders. */
export function CarouselPlaceholder() {
  const viewportWidth = useViewportWidth();
  const width = cardWidth(viewportWidth, useTvMode());
  return (
    <div className="mt-8" aria-hidden="true">
      <div className="mb-3 flex h-7 items-center sm:h-11">
        <div className="h-5 w-48 animate-pulse rounded bg-surface-2" />
      </div>
      <RowPlaceholder width={width} count={cardsInView(viewportWidth, width)} />
    </div>
  );
}

/** The heading's place while a row's title is not known yet: as high as the heading. */
function HeadingPlaceholder() {
  return (
    <div className="flex h-7 items-center">
      <div className="h-5 w-48 animate-pulse rounded bg-surface-2" />
    </div>
  );
}

interface CarouselProps {
  id: string;
  /** Null while it is not known yet (a genre row is titled once it is known to have enough titles). */
  title: string | null;
  items: MediaSummary[] | undefined;
  isError: boolean;
  /**
   * Whether the row is near the viewport. Until it is, only its heading renders, above a placeholder of
   * the row's final height (the page does not shift when the cards arrive).
   */
  near: boolean;
  /** Marks the row near at once: keyboard focus reached it before scrolling did. */
  onReveal(): void;
  sectionRef: Ref<HTMLElement>;
  /** How the posters on screen first load (the first rows of the page); the rest load lazily. */
  posterLoading?: PosterLoading;
  /**
   * Render the cards as soon as they are there (the first row: its posters are the page's largest
   * paint); other rows render theirs in the background.
   */
  urgent?: boolean;
}

export function Carousel({
  id,
  title,
  items: loadedItems,
  isError,
  near,
  onReveal,
  sectionRef,
  posterLoading = 'lazy',
  urgent = false,
}: CarouselProps) {
  const { t } = useTranslation(['discover']);
  const viewportWidth = useViewportWidth();
  const width = cardWidth(viewportWidth, useTvMode());
  const inView = cardsInView(viewportWidth, width);
  const scroller = useRef<HTMLUListElement>(null);
  // Cards render in the background (React yields to the browser between them): no long task per row.
  const deferred = useDeferredValue(near ? loadedItems : undefined);
  const items = urgent && near ? loadedItems : deferred;
  const loaded = items !== undefined;
  const arrows = useRowArrows(scroller, items, width);
  const shown = isError || (loaded && items.length === 0) ? FITS : (arrows ?? UNMEASURED);

  const page = (direction: 1 | -1) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollBy({ left: pageOffset(direction, readRowScroll(el)), behavior: 'smooth' });
  };

  // A vertical wheel over the row pages it sideways instead of scrolling the page, until the row's end
  // in that direction: from there the wheel scrolls the page again.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    let last = 0;
    const onWheel = (event: WheelEvent) => {
      if (Math.abs(event.deltaY) <= Math.abs(event.deltaX)) return;
      const scroll = readRowScroll(el);
      const at = rowArrows(scroll);
      const forwards = event.deltaY > 0;
      if (at.fits || (forwards ? at.atEnd : at.atStart)) return;
      event.preventDefault();
      const now = performance.now();
      if (now - last < WHEEL_THROTTLE_MS) return;
      last = now;
      el.scrollBy({ left: pageOffset(forwards ? 1 : -1, scroll), behavior: 'smooth' });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [items, loaded]);

  const headingId = `carousel-${id}`;
  return (
    <section
      ref={sectionRef}
      id={`row-${id}`}
      aria-labelledby={title === null ? undefined : headingId}
      aria-busy={!isError && !loaded}
      className="mt-8"
      data-testid="carousel"
      data-tv-row=""
      data-near={near}
      onFocusCapture={near ? undefined : onReveal}
    >
      {/* As high as the arrows even when a row that fits has none: nothing moves when they go. A remote's
          arrows pass over them once the row is rendered (its focused card scrolls it: lib/tv/). */}
      <div className={`mb-3 flex min-h-7 items-center gap-2 sm:min-h-11${loaded ? ' tv-ignore' : ''}`}>
        {title === null ? (
          <HeadingPlaceholder />
        ) : (
          <h3 id={headingId} className="text-lg font-bold text-fg">
            {title}
          </h3>
        )}
        {/* A row not rendered yet keeps its arrows: keyboard focus on one is what renders it. */}
        {!shown.fits && <RowArrowButtons arrows={shown} onPage={page} />}
      </div>
      {isError ? (
        <p className="text-sm text-fg-muted">{t('discover.loadFailed')}</p>
      ) : !loaded ? (
        <RowPlaceholder width={width} count={inView} />
      ) : items.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('discover.empty')}</p>
      ) : (
        <ul ref={scroller} className={`${ROW} snap-x overflow-x-scroll`} data-testid="carousel-items">
          {items.map((item, i) => (
            <li key={`${item.type}-${item.id}`} className="snap-start">
              <MediaCard
                media={item}
                width={width}
                titleText={truncateTitle(item.title)}
                posterLoading={i < inView ? posterLoading : 'lazy'}
              />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The arrows of a rendered row, measured once the browser has laid out a render that changes its cards or
 * their width, and on every scroll and resize; null while there is no row to measure.
 */
function useRowArrows(
  scroller: RefObject<HTMLElement | null>,
  items: MediaSummary[] | undefined,
  width: number,
): RowArrows | null {
  const [arrows, setArrows] = useState<RowArrows | null>(null);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    const update = () => {
      const next = rowArrows(readRowScroll(el));
      setArrows((prev) => (prev && sameArrows(prev, next) ? prev : next));
    };
    // Measured when the browser has laid the row out (a ResizeObserver reports right after layout, once on
    // observing and on every size change): reading the scroll box in the effect itself would force a layout
    // of the whole page in the middle of mounting it, one long task per row on a phone.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(el);
    el.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      observer?.disconnect();
      el.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [scroller, items, width]);
  return arrows;
}

/**
 * Previous and next, for pointers on wider screens (a phone swipes). An arrow with nowhere to go is
 * aria-disabled rather than disabled: it keeps keyboard focus when the row reaches its end under it.
 * Each is labelled by the way it points, which right to left is the other way round.
 */
function RowArrowButtons({ arrows, onPage }: { arrows: RowArrows; onPage(direction: 1 | -1): void }) {
  const { t, i18n } = useTranslation(['discover']);
  const rtl = isRtl(i18n.language);
  const left = t('discover.scrollLeft');
  const right = t('discover.scrollRight');
  return (
    <div className="ms-auto hidden gap-2 sm:flex">
      <ArrowButton
        label={rtl ? right : left}
        isDisabled={arrows.atStart}
        onPress={() => onPage(-1)}
        testId="carousel-prev"
        path="m15 18-6-6 6-6"
      />
      <ArrowButton
        label={rtl ? left : right}
        isDisabled={arrows.atEnd}
        onPress={() => onPage(1)}
        testId="carousel-next"
        path="m9 18 6-6-6-6"
      />
    </div>
  );
}

function ArrowButton({
  label,
  isDisabled,
  onPress,
  testId,
  path,
}: {
  label: string;
  isDisabled: boolean;
  onPress(): void;
  testId: string;
  path: string;
}) {
  return (
    <button
      type="button"
      className="flex h-11 w-11 items-center justify-center rounded-full bg-surface-2 text-fg hover:bg-surface-3 aria-disabled:cursor-default aria-disabled:opacity-40 aria-disabled:hover:bg-surface-2"
      onClick={isDisabled ? undefined : onPress}
      aria-label={label}
      aria-disabled={isDisabled}
      data-testid={testId}
    >
      <svg
        className="h-5 w-5 rtl:rotate-180"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.5"
        aria-hidden="true"
      >
        <path d={path} />
      </svg>
    </button>
  );
}
