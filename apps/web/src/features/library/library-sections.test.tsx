import { render, screen } from '@testing-library/react';
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
