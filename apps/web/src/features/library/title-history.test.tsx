import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { clock } from '../../lib/clock.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore } from '../../stores/index.ts';
import { TitleHistory } from './title-history.tsx';

const NOW = new Date(2026, 10, 30, 21, 15);
const realNow = clock.now;
let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ instanceName: 'Marquee', variant: 'discovery' } as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  clock.now = () => NOW;
});
afterEach(() => {
  clock.now = realNow;
});

const alien = { id: '348', type: 'movie' as const, title: 'Alien', year: 1979, poster: null, runtime: 117 };

const renderIt = () =>
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>
        <TitleHistory media={alien} />
      </MemoryRouter>
    </I18nextProvider>,
  );

const plays = () =>
  Object.values(useLibraryStore.getState().history).map((p) => new Date(p.watchedAt).toString());

describe('"I watched it on…": a play on a day the viewer picks', () => {
  it('a day in the past is a play at its noon, where the viewer is; today is now', () => {
    renderIt();
    fireEvent.click(screen.getByRole('button', { name: 'I watched it on…' }));
    const day = screen.getByLabelText('Day you watched it') as HTMLInputElement;
    expect(day.value).toBe('2026-11-30');
    expect(day.max).toBe('2026-11-30');
    fireEvent.change(day, { target: { value: '1999-05-02' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to history' }));
    expect(plays()).toEqual([new Date(1999, 4, 2, 12).toString()]);
    // Watched now: the line says so and offers another viewing, today at the time it is.
    expect(screen.getByTestId('title-history').textContent).toBe('Watched on May 2, 1999');
    fireEvent.click(screen.getByRole('button', { name: 'Add another viewing…' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add to history' }));
    expect(plays().sort()).toEqual([NOW.toString(), new Date(1999, 4, 2, 12).toString()].sort());
    expect(screen.getByTestId('title-history').textContent).toBe(
      'Watched 2 times, last on November 30, 2026',
    );
  });

  it('a day after today or before films were shown is refused with words, and nothing is added', () => {
    renderIt();
    fireEvent.click(screen.getByRole('button', { name: 'I watched it on…' }));
    const day = screen.getByLabelText('Day you watched it');
    for (const value of ['2027-01-01', '1850-01-01']) {
      fireEvent.change(day, { target: { value } });
      expect(screen.getByRole('alert').textContent).toBe('Choose a day from 1888 to today.');
      expect((screen.getByRole('button', { name: 'Add to history' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
    }
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(plays()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Mark as watched' })).toBeTruthy();
  });
});
