import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaSummary } from '@marquee/contract';
import { clock } from '../lib/clock.ts';
import { initI18n } from '../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../lib/storage.ts';
import { initStores, useLibraryStore } from '../stores/index.ts';
import { MediaCard, type MediaCardProps } from './media-card.tsx';

const realNow = clock.now;
let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', ['media', 'library']);
  clock.now = () => new Date('2026-04-20T10:00:00Z');
  setAppStorage(memoryStorage());
  await initStores();
});
afterEach(() => {
  clock.now = realNow;
});

const card = (media: Partial<MediaSummary>, props: Partial<MediaCardProps> = {}) => {
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <MediaCard
            {...props}
            media={{
              id: '1',
              type: 'movie',
              title: 'A Film',
              year: null,
              releaseDate: null,
              poster: null,
              ...media,
            }}
          />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return screen.getByTestId('media-card');
};

describe('a card and the release rule', () => {
  it('links a released title, from its release day on', () => {
    const el = card({ releaseDate: '2026-04-20', year: 2026 });
    expect(el.tagName).toBe('A');
    expect(el.textContent).not.toContain('Unreleased');
  });

  it('labels a title that comes out later Unreleased, without a link', () => {
    const el = card({ releaseDate: '2026-07-15', year: 2026 });
    expect(el.tagName).not.toBe('A');
    expect(el.getAttribute('data-unreleased')).toBe('true');
    expect(el.textContent).toContain('Unreleased');
  });

  it('labels a title without any date Unreleased (unknown is not released)', () => {
    const el = card({ releaseDate: '', year: null });
    expect(el.getAttribute('data-unreleased')).toBe('true');
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('reads a library entry by its year when it has no date', () => {
    expect(card({ releaseDate: null, year: 1999 }).tagName).toBe('A');
  });
});

describe('a card’s anatomy', () => {
  it('names the type and the year under the title', () => {
    expect(card({ title: 'Inception', year: 2010, releaseDate: '2010-07-16' }).textContent).toContain(
      'Movie · 2010',
    );
  });

  it('names the type alone when the year is unknown', () => {
    expect(card({ type: 'tv', year: null, releaseDate: '2008-01-20' }).textContent).toMatch(/Show$/);
  });
});

describe('a Continue Watching card', () => {
  const resume = { to: '/media/tmdb-tv-1396-breaking-bad/3572/62086', ratio: 0.45 };

  it('shows how much is watched, as a progress bar a screen reader names', () => {
    card({ type: 'tv', title: 'Breaking Bad', year: 2008 }, { resume });
    const bar = screen.getByRole('progressbar', { name: '45% watched' });
    expect(bar.getAttribute('aria-valuenow')).toBe('45');
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('45%');
  });

  it('still shows a sliver of bar for a title barely started', () => {
    card({ year: 2010 }, { resume: { ...resume, ratio: 0.002 } });
    const bar = screen.getByRole('progressbar', { name: '0% watched' });
    expect((bar.firstElementChild as HTMLElement).style.width).toBe('4%');
  });

  it('leads to where it resumes and names the episode beside type and year', () => {
    const el = card(
      { type: 'tv', title: 'Breaking Bad', year: 2008 },
      { resume: { ...resume, episode: { season: 1, number: 3 } } },
    );
    expect(el.getAttribute('href')).toBe(resume.to);
    expect(el.textContent).toContain('Show · 2008 · S1 E3');
  });

  it('is a link even when the library kept no date or year (it has been playing)', () => {
    expect(card({ year: null, releaseDate: null }, { resume }).tagName).toBe('A');
  });

  it('carries its own action in place of the app’s', () => {
    card({ year: 2010 }, { resume, action: <button type="button">Remove</button> });
    expect(screen.getByRole('button', { name: 'Remove' })).toBeTruthy();
  });
});

describe('a movie marked watched from its card', () => {
  const alien = { id: '348', title: 'Alien', year: 1979, releaseDate: '1979-05-25' };
  const plays = () => Object.values(useLibraryStore.getState().history);
  const menuButton = () => screen.getByRole('button', { name: 'More options for Alien' });
  /** The ⋯ button loads with the first card (media-card-more.tsx). */
  const loaded = () => screen.findByRole('button', { name: 'More options for Alien' });

  it('leaves the link the card’s first stop, then the menu button, then the card’s action', async () => {
    card(alien, { action: <button type="button">Remove</button> });
    await loaded();
    const stops = document.querySelectorAll('a[href], button');
    expect(stops[0]).toBe(screen.getByTestId('media-card'));
    expect(stops[1]).toBe(menuButton());
    expect(stops[2]).toBe(screen.getByRole('button', { name: 'Remove' }));
    expect(menuButton().getAttribute('aria-haspopup')).toBe('menu');
    expect(menuButton().getAttribute('aria-expanded')).toBe('false');
  });

  it('marks it watched (a play now) and not watched (its plays gone), and shows the Watched badge', async () => {
    const user = userEvent.setup();
    card(alien);
    await loaded();
    expect(screen.queryByText('Watched')).toBeNull();
    await user.click(menuButton());
    const mark = await screen.findByRole('menuitem', { name: 'Mark as watched' });
    expect(document.activeElement).toBe(mark);
    expect(screen.getByRole('menu', { name: 'More options for Alien' })).toBeTruthy();
    await user.click(mark);
    expect(plays()).toMatchObject([
      { type: 'movie', tmdbId: '348', title: 'Alien', completed: true, watchedAt: clock.now().getTime() },
    ]);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(menuButton());
    // The badge is part of the link: its name says so too.
    expect(within(screen.getByTestId('media-card')).getByText('Watched')).toBeTruthy();

    await user.click(menuButton());
    await user.click(await screen.findByRole('menuitem', { name: 'Mark as not watched' }));
    expect(plays()).toEqual([]);
    expect(screen.queryByText('Watched')).toBeNull();
  });

  it('opens by Enter on its item, closes by Escape with focus back on its button', async () => {
    const user = userEvent.setup();
    card(alien);
    await loaded();
    menuButton().focus();
    await user.keyboard('{Enter}');
    const mark = await screen.findByRole('menuitem', { name: 'Mark as watched' });
    expect(document.activeElement).toBe(mark);
    expect(menuButton().getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(menuButton());
    expect(plays()).toEqual([]);
    // Space opens it too; Enter on the item marks the movie.
    await user.keyboard(' ');
    await screen.findByRole('menuitem', { name: 'Mark as watched' });
    await user.keyboard('{Enter}');
    expect(plays()).toHaveLength(1);
    expect(document.activeElement).toBe(menuButton());
  });

  it('closes by Tab, which moves on from its button', async () => {
    const user = userEvent.setup();
    card(alien);
    await loaded();
    await user.click(menuButton());
    await screen.findByRole('menu');
    await user.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).not.toBe(screen.getByTestId('media-card'));
  });

  it('closes when the viewer presses elsewhere, leaving focus where they pressed', async () => {
    const user = userEvent.setup();
    card(alien);
    await loaded();
    await user.click(menuButton());
    await screen.findByRole('menu');
    await user.click(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(plays()).toEqual([]);
  });

  it('offers a show’s card the whole show’s mark, and a title not out yet no menu', async () => {
    const user = userEvent.setup();
    card({ id: '95396', type: 'tv', title: 'Severance', year: 2022, releaseDate: '2022-02-18' });
    await user.click(await screen.findByRole('button', { name: 'More options for Severance' }));
    expect(await screen.findByRole('menuitem', { name: 'Mark the whole show as watched' })).toBeTruthy();
    await user.keyboard('{Escape}');
    // One episode watched: the item takes every play of the show away.
    useLibraryStore.getState().recordPlay({
      type: 'show',
      tmdbId: '95396',
      title: 'Severance',
      year: 2022,
      poster: null,
      season: { id: 's1', number: 1, title: 'Season 1' },
      episode: { id: 'e1', number: 1, title: 'Good News About Hell' },
      watchedAt: Date.UTC(2026, 0, 1),
      watched: 3300,
      duration: 3300,
      completed: true,
    });
    await user.click(screen.getByRole('button', { name: 'More options for Severance' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Mark the whole show as not watched' }));
    expect(Object.values(useLibraryStore.getState().history)).toEqual([]);
    cleanup();
    card({ type: 'tv', title: 'Next Year', year: 2099, releaseDate: '2099-01-01' });
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows the badge of a movie watched elsewhere (a play synced in), not of another title', () => {
    useLibraryStore.getState().recordPlay({
      type: 'movie',
      tmdbId: '348',
      title: 'Alien',
      year: 1979,
      poster: null,
      watchedAt: Date.UTC(2026, 0, 1),
      watched: 7020,
      duration: 7020,
      completed: true,
    });
    card(alien);
    expect(screen.getByText('Watched')).toBeTruthy();
  });
});
