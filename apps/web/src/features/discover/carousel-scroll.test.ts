import { describe, expect, it } from 'vitest';
import { PAGE_SHARE, pageOffset, rowArrows } from './carousel-scroll.ts';

const row = { scrollWidth: 2000, clientWidth: 800 };

describe('a row’s arrows, from its scroll position', () => {
  it('left to right: previous has nowhere to go at the start, next at the end', () => {
    expect(rowArrows({ ...row, scrollLeft: 0, rtl: false })).toEqual({
      fits: false,
      atStart: true,
      atEnd: false,
    });
    expect(rowArrows({ ...row, scrollLeft: 600, rtl: false })).toEqual({
      fits: false,
      atStart: false,
      atEnd: false,
    });
    expect(rowArrows({ ...row, scrollLeft: 1200, rtl: false })).toEqual({
      fits: false,
      atStart: false,
      atEnd: true,
    });
  });

  it('right to left: scrollLeft runs from 0 at the start to minus the overflow at the end', () => {
    expect(rowArrows({ ...row, scrollLeft: 0, rtl: true })).toMatchObject({ atStart: true, atEnd: false });
    expect(rowArrows({ ...row, scrollLeft: -600, rtl: true })).toMatchObject({
      atStart: false,
      atEnd: false,
    });
    expect(rowArrows({ ...row, scrollLeft: -1200, rtl: true })).toMatchObject({
      atStart: false,
      atEnd: true,
    });
  });

  it('a fraction of a pixel short of an end (zoom, fractional widths) is at it', () => {
    expect(rowArrows({ ...row, scrollLeft: 1199.4, rtl: false }).atEnd).toBe(true);
    expect(rowArrows({ ...row, scrollLeft: -0.5, rtl: true }).atStart).toBe(true);
    expect(rowArrows({ ...row, scrollLeft: 1195, rtl: false }).atEnd).toBe(false);
  });

  it('an elastic overscroll past an end still counts as that end', () => {
    expect(rowArrows({ ...row, scrollLeft: -20, rtl: false }).atStart).toBe(true);
    expect(rowArrows({ ...row, scrollLeft: 20, rtl: true }).atStart).toBe(true);
    expect(rowArrows({ ...row, scrollLeft: 1230, rtl: false }).atEnd).toBe(true);
  });

  it('a row whose cards all fit has no arrows', () => {
    expect(rowArrows({ scrollLeft: 0, scrollWidth: 800, clientWidth: 800, rtl: false }).fits).toBe(true);
    expect(rowArrows({ scrollLeft: 0, scrollWidth: 800.6, clientWidth: 800, rtl: true }).fits).toBe(true);
    expect(rowArrows({ scrollLeft: 0, scrollWidth: 810, clientWidth: 800, rtl: false }).fits).toBe(false);
  });
});

describe('paging a row', () => {
  it('forwards is rightwards left to right and leftwards right to left', () => {
    expect(pageOffset(1, { clientWidth: 1000, rtl: false })).toBeCloseTo(1000 * PAGE_SHARE);
    expect(pageOffset(-1, { clientWidth: 1000, rtl: false })).toBeCloseTo(-1000 * PAGE_SHARE);
    expect(pageOffset(1, { clientWidth: 1000, rtl: true })).toBeCloseTo(-1000 * PAGE_SHARE);
    expect(pageOffset(-1, { clientWidth: 1000, rtl: true })).toBeCloseTo(1000 * PAGE_SHARE);
  });
});
