import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cardWidth, truncateTitle, type MediaSummary } from '@marquee/contract';
import { MediaCard } from '../../components/media-card.tsx';
import { useViewportWidth } from '../../lib/use-viewport-width.ts';

/** How far an arrow press scrolls, as a share of the visible width. */
const PAGE_SHARE = 0.69;
/** Wheel paging is throttled so one flick of the wheel is one page. */
const WHEEL_THROTTLE_MS = 345;

interface CarouselProps {
  id: string;
  title: string;
  items: MediaSummary[] | undefined;
  isError: boolean;
}

export function Carousel({ id, title, items, isError }: CarouselProps) {
  const { t } = useTranslation();
  const width = cardWidth(useViewportWidth());
  const scroller = useRef<HTMLUListElement>(null);

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
  }, [items]);

  const headingId = `carousel-${id}`;
  const arrow = 'hidden h-9 w-9 items-center justify-center rounded-full bg-surface-2 text-fg hover:bg-surface-3 sm:flex';
  return (
    <section aria-labelledby={headingId} className="mt-8" data-testid="carousel">
      <div className="mb-3 flex items-center gap-2">
        <h3 id={headingId} className="text-lg font-bold text-fg">{title}</h3>
        <div className="ms-auto flex gap-2">
          <button type="button" className={arrow} onClick={() => page(-1)} aria-label={t('discover.scrollLeft')} data-testid="carousel-left">
            <svg className="h-4 w-4 rtl:rotate-180" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true"><path d="m15 18-6-6 6-6" /></svg>
          </button>
          <button type="button" className={arrow} onClick={() => page(1)} aria-label={t('discover.scrollRight')} data-testid="carousel-right">
            <svg className="h-4 w-4 rtl:rotate-180" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" aria-hidden="true"><path d="m9 18 6-6-6-6" /></svg>
          </button>
        </div>
      </div>
      {isError ? (
        <p className="text-sm text-fg-muted">{t('discover.loadFailed')}</p>
      ) : !items ? (
        <div className="flex gap-4 overflow-hidden" aria-hidden="true">
          {Array.from({ length: 8 }, (_, i) => (
            <div key={i} className="aspect-[2/3] shrink-0 animate-pulse rounded-lg bg-surface-2" style={{ width }} />
          ))}
        </div>
      ) : items.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('discover.empty')}</p>
      ) : (
        <ul ref={scroller} className="flex snap-x gap-4 overflow-x-auto pb-2 [scrollbar-width:thin]" data-testid="carousel-items">
          {items.map((item) => (
            <li key={`${item.type}-${item.id}`} className="snap-start">
              <MediaCard media={item} width={width} titleText={truncateTitle(item.title)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
