import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Episode, SeasonDetails } from '@marquee/contract';
import { clock } from '../../lib/clock.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore, usePreferencesStore } from '../../stores/index.ts';
import { EpisodeList } from './episode-list.tsx';
import { seasonQuery } from './title-queries.ts';

const realNow = clock.now;
let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  await initStores();
  clock.now = () => new Date('2026-04-20T10:00:00Z');
});
afterEach(() => {
  clock.now = realNow;
});

const show = { id: '1396', title: 'Breaking Bad', year: 2008, poster: null };
const season = { id: '3572', number: 1, title: 'Season 1', episodeCount: 3, airDate: '2008-01-20' };
const episode = (number: number, title: string, airDate = '2008-01-20'): Episode => ({
  id: `10${number}`,
  number,
  title,
  airDate,
  overview: null,
  runtime: 47,
  still: null,
});
const seasonOne: SeasonDetails = {
  id: '3572',
  number: 1,
  title: 'Season 1',
  episodes: [episode(1, 'Pilot'), episode(2, 'Cat’s in the Bag…'), episode(3, 'Not yet', '2999-01-01')],
};

function renderList(
  of: { id: string; title: string; year: number | null; poster: null } = show,
  data: SeasonDetails = seasonOne,
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(seasonQuery(of.id, season.number).queryKey, data);
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <EpisodeList mediaKey="tmdb-tv-1396-breaking-bad" show={of} season={season} />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const bookmark = () => useLibraryStore.getState().bookmarks['show:1396'];
const titles = () => screen.getAllByTestId('episode').map((row) => row.querySelector('bdi')?.textContent);

describe('favourite episodes in the episode list', () => {
  it('a star per aired episode, named with it, that favourites it and takes it back', async () => {
    const user = userEvent.setup();
    renderList();
    // The episode not aired yet has no star (nor a watched mark).
    expect(screen.getAllByTestId('episode-favorite')).toHaveLength(2);
    const star = screen.getByRole('button', { name: 'Favourite S1 E1 “Pilot”' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    await user.click(star);
    expect(bookmark()?.favoriteEpisodes).toEqual(['101']);
    const pressed = screen.getByRole('button', { name: 'Remove S1 E1 “Pilot” from favourite episodes' });
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    await user.click(pressed);
    expect(bookmark()?.favoriteEpisodes).toEqual([]);
    // Taking the last favourite back leaves the show on My List.
    expect(bookmark()).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Favourite S1 E1 “Pilot”' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it('says a star puts a show not on My List there, before and after', async () => {
    const user = userEvent.setup();
    renderList();
    const note = screen.getByTestId('favorites-note');
    expect(note.textContent).toBe('Favouriting an episode adds the show to My List.');
    const star = screen.getByRole('button', { name: 'Favourite S1 E2 “Cat’s in the Bag…”' });
    expect(star.getAttribute('aria-describedby')).toBe(note.id);
    await user.click(star);
    expect(bookmark()).toMatchObject({ type: 'show', tmdbId: '1396', title: 'Breaking Bad', year: 2008 });
    expect(note.getAttribute('role')).toBe('status');
    expect(note.textContent).toBe('The show is on My List now, with your favourite episodes.');
    expect(
      screen
        .getByRole('button', { name: 'Remove S1 E2 “Cat’s in the Bag…” from favourite episodes' })
        .getAttribute('aria-describedby'),
    ).toBeNull();
  });

  it('says nothing of My List for a show already on it, and reads the favourites it holds', () => {
    useLibraryStore.getState().toggleBookmark({ tmdbId: '1396', type: 'show', ...show });
    useLibraryStore.getState().toggleFavoriteEpisode({ tmdbId: '1396', type: 'show', ...show }, '102');
    renderList();
    expect(screen.getByTestId('favorites-note').textContent).toBe('');
    const pressed = screen
      .getAllByTestId('episode-favorite')
      .map((star) => star.getAttribute('aria-pressed'));
    expect(pressed).toEqual(['false', 'true']);
  });

  it('"Favourites only" narrows the season to its favourites, and goes with the last of them', async () => {
    const user = userEvent.setup();
    renderList();
    expect(screen.queryByTestId('favorites-filter')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Favourite S1 E2 “Cat’s in the Bag…”' }));
    const filter = screen.getByRole('button', { name: 'Favourites only' });
    expect(filter.getAttribute('aria-pressed')).toBe('false');
    expect(titles()).toEqual(['Pilot', 'Cat’s in the Bag…', 'Not yet']);
    await user.click(filter);
    expect(filter.getAttribute('aria-pressed')).toBe('true');
    expect(titles()).toEqual(['Cat’s in the Bag…']);
    // Keyboard: the star is a button like any other.
    const star = within(screen.getByTestId('episode-list')).getByRole('button', {
      name: 'Remove S1 E2 “Cat’s in the Bag…” from favourite episodes',
    });
    star.focus();
    await user.keyboard('{Enter}');
    expect(bookmark()?.favoriteEpisodes).toEqual([]);
    expect(screen.queryByTestId('favorites-filter')).toBeNull();
    expect(titles()).toEqual(['Pilot', 'Cat’s in the Bag…', 'Not yet']);
  });

  it('offers no star for a show whose year is unknown (it cannot be put on My List)', () => {
    renderList({ ...show, year: null });
    expect(screen.queryByTestId('episode-favorite')).toBeNull();
    expect(screen.queryByTestId('favorites-note')).toBeNull();
    // Its watched marks are still there.
    expect(screen.getAllByTestId('episode-watched')).toHaveLength(2);
  });
});

describe('spoilers hidden (decision 115)', () => {
  const told = (number: number): Episode => ({
    ...episode(number, `Episode ${number}`),
    overview: `What happens in episode ${number}.`,
    still: `https://image.tmdb.org/t/p/w300/still-${number}.jpg`,
  });
  const seasonWithStills: SeasonDetails = { ...seasonOne, episodes: [told(1), told(2)] };
  const row = (name: string) => screen.getAllByTestId('episode').find((r) => r.textContent?.includes(name))!;

  it('shows every still and overview while spoilers are shown (the default)', () => {
    const { container } = renderList(show, seasonWithStills);
    expect(container.querySelectorAll('img')).toHaveLength(2);
    expect(screen.getByText('What happens in episode 2.')).toBeTruthy();
    expect(screen.queryByTestId('episode-overview-hidden')).toBeNull();
  });

  it('hides what an episode not watched yet shows, and shows it again once it is marked watched', async () => {
    usePreferencesStore.getState().setPreferences({ hideSpoilers: true });
    const user = userEvent.setup();
    const { container } = renderList(show, seasonWithStills);
    // Nothing of either episode is loaded or told.
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect(screen.queryByText(/What happens in episode/)).toBeNull();
    expect(within(row('Episode 1')).getByTestId('episode-overview-hidden').textContent).toBe(
      'Summary hidden until you watch it',
    );
    expect(within(row('Episode 1')).getByTestId('episode-still-hidden')).toBeTruthy();
    // The titles stay: the viewer still finds the episode.
    expect(titles()).toEqual(['Episode 1', 'Episode 2']);

    await user.click(screen.getByRole('button', { name: 'Mark S1 E1 as watched' }));
    expect(within(row('Episode 1')).getByText('What happens in episode 1.')).toBeTruthy();
    expect(within(row('Episode 1')).getByRole('presentation')).toBeTruthy();
    expect(within(row('Episode 2')).getByTestId('episode-overview-hidden')).toBeTruthy();
  });
});
