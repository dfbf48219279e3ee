import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore } from '../../stores/index.ts';
import { HomeLibrary } from './library-sections.tsx';
import { MyListPage } from './my-list-page.tsx';

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ instanceName: 'Marquee', variant: 'discovery' } as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  useLibraryStore
    .getState()
    .addBookmark({ tmdbId: '603', type: 'movie', title: 'The Matrix', year: 1999, poster: null });
});

const renderIt = (ui: React.ReactNode) =>
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>{ui}</MemoryRouter>
    </I18nextProvider>,
  );

describe('one name for the bookmarked titles: "My List", as navigation calls them', () => {
  it('the home page shows them under "My List"', () => {
    renderIt(<HomeLibrary empty={null} />);
    const section = screen.getByRole('region', { name: 'My List' });
    expect(section.querySelector('h2')?.textContent).toBe('My List');
    expect(screen.queryByText('Bookmarks')).toBeNull();
  });

  it('the My List page names them once, in its own heading', () => {
    renderIt(<MyListPage />);
    expect(screen.getAllByRole('heading', { name: 'My List' }).map((h) => h.tagName)).toEqual(['H1']);
    expect(screen.getByRole('region', { name: 'My List' }).textContent).toContain('The Matrix');
  });
});

describe('Continue Watching cards have the anatomy of every card', () => {
  it('type and year, the episode a show resumes at, how much is watched, and a way off the row', () => {
    useLibraryStore.getState().saveProgress({
      meta: { tmdbId: '1396', type: 'show', title: 'Breaking Bad', year: 2008, poster: null },
      season: { id: '3572', number: 1, title: 'Season 1' },
      episode: { id: '62087', number: 3, title: '...And the Bag’s in the River' },
      watched: 1305,
      duration: 2900,
    });
    renderIt(<HomeLibrary empty={null} />);
    const cont = screen.getByTestId('continue-card');
    expect(cont.textContent).toContain('Show · 2008 · S1 E3');
    const link = cont.querySelector('a');
    expect(link?.getAttribute('href')).toMatch(/\/media\/tmdb-tv-1396-breaking-bad\/3572\/62087$/);
    expect(screen.getByRole('progressbar', { name: '45% watched' }).getAttribute('aria-valuenow')).toBe('45');

    fireEvent.click(screen.getByRole('button', { name: 'Remove Breaking Bad from Continue Watching' }));
    expect(screen.queryByTestId('continue-card')).toBeNull();
  });
});
