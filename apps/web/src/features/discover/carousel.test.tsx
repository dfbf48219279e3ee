import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { createRef } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaSummary } from '@marquee/contract';
import { clock } from '../../lib/clock.ts';
import { initI18n } from '../../lib/i18n.ts';
import { Carousel } from './carousel.tsx';
import { setTvModeSetting } from '../../lib/tv/tv-mode.ts';

const realNow = clock.now;
beforeEach(() => {
  clock.now = () => new Date('2026-04-20T10:00:00Z');
});
afterEach(() => {
  clock.now = realNow;
});

const items = Array.from({ length: 20 }, (_, i): MediaSummary => ({
  id: String(i),
  type: 'movie',
  title: `Film ${i}`,
  year: 2001,
  releaseDate: '2001-01-01',
  poster: null,
}));

/** A row of 20 titles, or (`loaded: false`) one that has not come near the screen yet. */
async function renderRow(language: string, { loaded = true } = {}) {
  const rowItems = loaded ? items : undefined;
  const i18next: i18n = await initI18n(language, ['discover', 'media']);
  const props = {
    id: 'row',
    title: 'Row',
    isError: false,
    near: loaded,
    onReveal: () => undefined,
    sectionRef: createRef<HTMLElement>(),
    urgent: true,
  };
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>
        <div dir={language === 'ar' ? 'rtl' : 'ltr'} style={{ direction: language === 'ar' ? 'rtl' : 'ltr' }}>
          <Carousel {...props} items={rowItems} />
        </div>
      </MemoryRouter>
    </I18nextProvider>,
  );
}

/** The row's scroll box as a browser would report it, then the scroll event that reports it. */
function scrollRow(box: { scrollLeft: number; scrollWidth?: number; clientWidth?: number }) {
  const list = screen.getByTestId('carousel-items');
  const { scrollWidth = 2000, clientWidth = 800, scrollLeft } = box;
  Object.defineProperties(list, {
    scrollWidth: { configurable: true, value: scrollWidth },
    clientWidth: { configurable: true, value: clientWidth },
    scrollLeft: { configurable: true, value: scrollLeft },
  });
  act(() => {
    fireEvent.scroll(list);
  });
  return list;
}

const prev = () => screen.getByTestId('carousel-prev');
const next = () => screen.getByTestId('carousel-next');

describe('carousel arrows', () => {
  it('previous is disabled at the start, next at the end, both in between are not', async () => {
    await renderRow('en');
    scrollRow({ scrollLeft: 0 });
    expect(prev().getAttribute('aria-disabled')).toBe('true');
    expect(next().getAttribute('aria-disabled')).toBe('false');
    expect(prev().getAttribute('aria-label')).toBe('Scroll left');
    expect(next().getAttribute('aria-label')).toBe('Scroll right');

    scrollRow({ scrollLeft: 500 });
    expect(prev().getAttribute('aria-disabled')).toBe('false');
    expect(next().getAttribute('aria-disabled')).toBe('false');

    scrollRow({ scrollLeft: 1200 });
    expect(prev().getAttribute('aria-disabled')).toBe('false');
    expect(next().getAttribute('aria-disabled')).toBe('true');
  });

  it('a disabled arrow does not scroll; an enabled one pages the row forwards', async () => {
    await renderRow('en');
    const list = scrollRow({ scrollLeft: 0 });
    const scrollBy = vi.fn();
    list.scrollBy = scrollBy;
    fireEvent.click(prev());
    expect(scrollBy).not.toHaveBeenCalled();
    fireEvent.click(next());
    expect(scrollBy).toHaveBeenCalledWith(expect.objectContaining({ left: expect.any(Number) }));
    expect((scrollBy.mock.calls[0]?.[0] as ScrollToOptions).left).toBeGreaterThan(0);
  });

  it('a row whose cards all fit has no arrows, and gets them back when the window narrows', async () => {
    await renderRow('en');
    scrollRow({ scrollLeft: 0, scrollWidth: 800, clientWidth: 800 });
    expect(screen.queryByTestId('carousel-prev')).toBeNull();
    expect(screen.queryByTestId('carousel-next')).toBeNull();

    const list = screen.getByTestId('carousel-items');
    Object.defineProperty(list, 'clientWidth', { configurable: true, value: 500 });
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
    expect(next().getAttribute('aria-disabled')).toBe('false');
  });

  it('right to left: the end is at negative scrollLeft, arrows are named the way they point', async () => {
    await renderRow('ar');
    const list = scrollRow({ scrollLeft: 0 });
    expect(prev().getAttribute('aria-disabled')).toBe('true');
    // The previous arrow sits on the right and points right.
    expect(prev().getAttribute('aria-label')).toBe(
      (await initI18n('ar', ['discover'])).t('discover.scrollRight'),
    );
    const scrollBy = vi.fn();
    list.scrollBy = scrollBy;
    fireEvent.click(next());
    expect((scrollBy.mock.calls[0]?.[0] as ScrollToOptions).left).toBeLessThan(0);

    scrollRow({ scrollLeft: -1200 });
    expect(next().getAttribute('aria-disabled')).toBe('true');
    expect(prev().getAttribute('aria-disabled')).toBe('false');
  });

  it('a row not rendered yet keeps focusable arrows (focus renders it), previous disabled', async () => {
    await renderRow('en', { loaded: false });
    expect(prev().getAttribute('aria-disabled')).toBe('true');
    expect(next().getAttribute('aria-disabled')).toBe('false');
  });
});

describe('in TV mode (docs/decisions/114-tv-mode.md)', () => {
  afterEach(() => {
    setTvModeSetting('auto');
    vi.unstubAllGlobals();
  });
  const firstCardWidth = () =>
    screen.getByTestId('carousel-items').querySelector<HTMLElement>('li > *')!.style.width;

  it('a card is the same share of the screen at 1920 and 1280 (13 %), not a laptop’s 200 px', async () => {
    vi.stubGlobal('innerWidth', 1920);
    setTvModeSetting('on');
    await renderRow('en');
    expect(firstCardWidth()).toBe('250px');
    cleanup();
    vi.stubGlobal('innerWidth', 1280);
    await renderRow('en');
    expect(firstCardWidth()).toBe('166px');
  });

  it('off, the cards keep their width', async () => {
    vi.stubGlobal('innerWidth', 1920);
    setTvModeSetting('off');
    await renderRow('en');
    expect(firstCardWidth()).toBe('200px');
  });
});
