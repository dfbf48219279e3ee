/** Where a row's arrows stand and how far they scroll it: pure, from the row's scroll box. */

/** How far an arrow press (or a wheel flick) scrolls, as a share of the visible width. */
export const PAGE_SHARE = 0.69;

/** Sub-pixel slack: zoom and fractional widths leave a row scrolled "to the end" a fraction short of it. */
const SLACK_PX = 1;

/** A row's scroll box, as the element reports it. */
export interface RowScroll {
  scrollLeft: number;
  scrollWidth: number;
  clientWidth: number;
  rtl: boolean;
}

export interface RowArrows {
  /** Every card is in view: there is nothing to scroll, so no arrows. */
  fits: boolean;
  /** Nothing before the first card in view: "previous" has nowhere to go. */
  atStart: boolean;
  /** Nothing after the last card in view: "next" has nowhere to go. */
  atEnd: boolean;
}

/** Before a row's cards are measured (its placeholder): it starts at its start and is taken to overflow. */
export const UNMEASURED: RowArrows = { fits: false, atStart: true, atEnd: false };
/** A row without cards (failed, empty). */
export const FITS: RowArrows = { fits: true, atStart: true, atEnd: true };

export function rowArrows({ scrollLeft, scrollWidth, clientWidth, rtl }: RowScroll): RowArrows {
  const overflow = scrollWidth - clientWidth;
  if (overflow <= SLACK_PX) return FITS;
  // Right to left, scrollLeft runs from 0 at the start to −overflow at the end (the CSSOM rule Chromium,
  // Firefox and Safari follow). An elastic overscroll can briefly go past either end.
  const offset = rtl ? -scrollLeft : scrollLeft;
  return { fits: false, atStart: offset <= SLACK_PX, atEnd: offset >= overflow - SLACK_PX };
}

export const sameArrows = (a: RowArrows, b: RowArrows) =>
  a.fits === b.fits && a.atStart === b.atStart && a.atEnd === b.atEnd;

/** The `left` to scroll by to page one step forwards (+1) or back (−1): forwards is leftwards right to left. */
export function pageOffset(direction: 1 | -1, { clientWidth, rtl }: Pick<RowScroll, 'clientWidth' | 'rtl'>) {
  return direction * (rtl ? -1 : 1) * clientWidth * PAGE_SHARE;
}

export function readRowScroll(el: HTMLElement): RowScroll {
  return {
    scrollLeft: el.scrollLeft,
    scrollWidth: el.scrollWidth,
    clientWidth: el.clientWidth,
    rtl: getComputedStyle(el).direction === 'rtl',
  };
}
