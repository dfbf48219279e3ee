import { useDeferredValue, useEffect, useRef, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { type MediaSummary } from '@marquee/contract';
import { cardWidth, truncateTitle } from './discover-rules.ts';
import { MediaCard, MediaCardSkeleton, type PosterLoading } from '../../components/media-card.tsx';
import { useViewportWidth } from '../../lib/use-viewport-width.ts';

/** How far an arrow press scrolls, as a share of the visible width. */
const PAGE_SHARE = 0.69;
/** Wheel paging is throttled so one flick of the wheel is one page. */
const WHEEL_THROTTLE_MS = 345;
/** Space between cards (Tailwind gap-4). */
const GAP_PX = 16;
/** A row's box: the placeholder and the list share it, so both are equally high (a thin scrollbar included). */
const ROW = 'flex gap-4 pb-2 [scrollbar-width:thin]';

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
  return (
    <div className="mt-8" aria-hidden="true">
      <div className="mb-3 flex h-7 items-center sm:h-9">
        <div className="h-5 w-48 animate-pulse rounded bg-surface-2" />
      </div>
      <RowPlaceholder width={cardWidth(viewportWidth)} count={cardsInView(viewportWidth)} />
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
  const width = cardWidth(viewportWidth);
  const inView = cardsInView(viewportWidth, width);
  const scroller = useRef<HTMLUListElement>(null);
  // Cards render in the background (React yields to the browser between them): no long task per row.
  const deferred = useDeferredValue(near ? loadedItems : undefined);
  const items = urgent && near ? loadedItems : deferred;
  const loaded = items !== undefined;

  const page = (direction: 1 | -1) => {
    const el = scroller.current;
    if (!el) return;
    const rtl = getComputedStyle(el).direction === 'rtl' ? -1 : 1;
    el.scrollBy({ left: direction * rtl * el.clientWidth * PAGE_SHARE, behavior: 'smooth' });
  };

  // A vertical wheel over the row pages it sideways instead of scrolling the page.
  useEffect(() => {
    const el = scroller.current;
    if (!el) return undefined;
    let last = 0;
    const onWheel = (event: WheelEvent) => {
      if (Math.abs(event.deltaY) <= Math.abs(event.deltaX)) return;
      const canScroll = el.scrollWidth > el.clientWidth;
      if (!canScroll) return;
      event.preventDefault();
      const now = performance.now();
      if (now - last < WHEEL_THROTTLE_MS) return;
      last = now;
      el.scrollBy({ left: Math.sign(event.deltaY) * el.clientWidth * PAGE_SHARE, behavior: 'smooth' });
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [items, loaded]);

  const headingId = `carousel-${id}`;
  const arrow =
    'hidden h-9 w-9 items-center justify-center rounded-full bg-surface-2 text-fg hover:bg-surface-3 sm:flex';
  return (
    <section
      ref={sectionRef}
      aria-labelledby={title === null ? undefined : headingId}
      aria-busy={!isError && !loaded}
      className="mt-8"
      data-testid="carousel"
      data-near={near}
      onFocusCapture={near ? undefined : onReveal}
    >
      <div className="mb-3 flex items-center gap-2">
        {title === null ? (
          <HeadingPlaceholder />
        ) : (
          <h3 id={headingId} className="text-lg font-bold text-fg">
            {title}
          </h3>
        )}
        <div className="ms-auto flex gap-2">
          <button
            type="button"
            className={arrow}
            onClick={() => page(-1)}
            aria-label={t('discover.scrollLeft')}
            data-testid="carousel-left"
          >
            <svg
              className="h-4 w-4 rtl:rotate-180"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              aria-hidden="true"
            >
              <path d="m15 18-6-6 6-6" />
            </svg>
          </button>
          <button
            type="button"
            className={arrow}
            onClick={() => page(1)}
            aria-label={t('discover.scrollRight')}
            data-testid="carousel-right"
          >
            <svg
              className="h-4 w-4 rtl:rotate-180"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              aria-hidden="true"
            >
              <path d="m9 18 6-6-6-6" />
            </svg>
          </button>
        </div>
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
