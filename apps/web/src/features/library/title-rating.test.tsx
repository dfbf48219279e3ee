import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore } from '../../stores/index.ts';
import { ratingOf } from '../../stores/library/ratings-view.ts';
import { ratingAt, ratingForKey, TitleRating } from './title-rating.tsx';

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ instanceName: 'Marquee', variant: 'discovery' } as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
});

const alien = { id: '348', type: 'movie' as const, title: 'Alien', year: 1979, poster: null };
const held = () => ratingOf(useLibraryStore.getState(), 'movie', '348')?.rating;

const renderIt = (language = 'en') =>
  render(
    <I18nextProvider i18n={i18next}>
      <div dir={language === 'ar' ? 'rtl' : 'ltr'}>
        <TitleRating media={alien} />
      </div>
    </I18nextProvider>,
  );

describe('where a tap or a click on the stars lands', () => {
  it("a star's first half is half a star, its second half the whole star; right to left, mirrored", () => {
    expect(ratingAt(0, 200, false)).toBe(1);
    expect(ratingAt(19, 200, false)).toBe(1);
    expect(ratingAt(21, 200, false)).toBe(2);
    expect(ratingAt(139, 200, false)).toBe(7);
    expect(ratingAt(200, 200, false)).toBe(10);
    // Outside the stars (a finger's edge): the nearest end.
    expect(ratingAt(-5, 200, false)).toBe(1);
    expect(ratingAt(230, 200, false)).toBe(10);
    expect(ratingAt(0, 200, true)).toBe(10);
    expect(ratingAt(199, 200, true)).toBe(1);
  });
});

describe('the keys a slider takes', () => {
  it('arrows move half a star (mirrored right to left), Home and End the ends, Delete clears, digits whole stars', () => {
    expect(ratingForKey('ArrowRight', 0, false)).toBe(1);
    expect(ratingForKey('ArrowRight', 10, false)).toBe(10);
    expect(ratingForKey('ArrowUp', 6, false)).toBe(7);
    // In TV mode Up and Down are the remote's, to the controls above and below.
    expect(ratingForKey('ArrowUp', 6, false, { vertical: false })).toBeUndefined();
    expect(ratingForKey('ArrowDown', 6, false, { vertical: false })).toBeUndefined();
    expect(ratingForKey('ArrowRight', 6, false, { vertical: false })).toBe(7);
    expect(ratingForKey('ArrowLeft', 6, false)).toBe(5);
    expect(ratingForKey('ArrowLeft', 1, false)).toBe(1);
    expect(ratingForKey('ArrowLeft', 0, false)).toBeNull();
    expect(ratingForKey('ArrowLeft', 6, true)).toBe(7);
    expect(ratingForKey('ArrowRight', 6, true)).toBe(5);
    expect(ratingForKey('Home', 6, false)).toBe(1);
    expect(ratingForKey('End', 6, false)).toBe(10);
    expect(ratingForKey('Delete', 6, false)).toBeNull();
    expect(ratingForKey('4', 0, false)).toBe(8);
    expect(ratingForKey('Tab', 6, false)).toBeUndefined();
  });
});

describe("the title page's rating", () => {
  it('rates by keyboard, says the value to a screen reader, and clears', () => {
    renderIt();
    const slider = screen.getByRole('slider', { name: 'Your rating' });
    expect(slider.getAttribute('aria-valuetext')).toBe('Not rated');
    fireEvent.keyDown(slider, { key: '4' });
    expect(held()).toBe(8);
    fireEvent.keyDown(slider, { key: 'ArrowLeft' });
    expect(held()).toBe(7);
    expect(slider.getAttribute('aria-valuenow')).toBe('7');
    expect(slider.getAttribute('aria-valuetext')).toBe('3.5 out of 5 stars');
    expect(screen.getByTestId('title-rating-value').textContent).toBe('3.5 out of 5 stars');
    fireEvent.click(screen.getByRole('button', { name: 'Remove rating' }));
    expect(held()).toBeUndefined();
    expect(slider.getAttribute('aria-valuetext')).toBe('Not rated');
    expect(screen.queryByRole('button', { name: 'Remove rating' })).toBeNull();
  });

  it('a title without a year (not one the library can keep) shows no rating', () => {
    render(
      <I18nextProvider i18n={i18next}>
        <TitleRating media={{ ...alien, year: null }} />
      </I18nextProvider>,
    );
    expect(screen.queryByRole('slider')).toBeNull();
  });
});
