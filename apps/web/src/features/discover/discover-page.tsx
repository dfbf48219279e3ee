import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  MOVIE_GENRE_PAGES,
  RANDOM_MOVIE_GENRES,
  RANDOM_TV_GENRES,
  pickRandom,
  shuffle,
  toCarousel,
  type Genre,
  type MediaSummary,
} from '@marquee/contract';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { Carousel } from './carousel.tsx';
import { discoverQuery, genresQuery, listQuery } from './discover-queries.ts';
import { WatchSomethingNew } from './watch-something-new.tsx';

/** Shuffles once per loaded answer, so rows don't reshuffle on every render. */
function useShuffled(items: MediaSummary[] | undefined): MediaSummary[] | undefined {
  return useMemo(() => (items ? toCarousel(shuffle(items)) : undefined), [items]);
}

function ListRow({ id, title, type, list }: { id: string; title: string; type: 'movie' | 'tv'; list: 'now_playing' | 'top_rated' | 'popular' }) {
  const q = useQuery(listQuery(type, list));
  return <Carousel id={id} title={title} items={useShuffled(q.data?.results)} isError={q.isError} />;
}

function useRandomGenres(type: 'movie' | 'tv', count: number): Genre[] | undefined {
  const genres = useQuery(genresQuery(type));
  // Picked once per answer: the rows stay put while the page is open.
  return useMemo(() => (genres.data ? pickRandom(genres.data.genres, count) : undefined), [genres.data, count]);
}

/** One genre row from several pages, merged, shuffled, de-duplicated, first 20. */
function useGenreRow(type: 'movie' | 'tv', genre: number, pages: number) {
  const results = useQueries({
    queries: Array.from({ length: pages }, (_, i) => discoverQuery(type, genre, i + 1)),
  });
  const done = results.every((r) => r.isSuccess || r.isError);
  const isError = results.every((r) => r.isError);
  const all = done ? results.flatMap((r) => r.data?.results ?? []) : undefined;
  const key = done ? results.map((r) => r.dataUpdatedAt).join(',') : '';
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the answers' identity
  const merged = useMemo(() => all, [key]);
  return { items: useShuffled(merged), raw: merged, isError };
}

function GenreRow({ type, genre, pages, onLoaded }: { type: 'movie' | 'tv'; genre: Genre; pages: number; onLoaded?: (items: MediaSummary[]) => void }) {
  const { t } = useTranslation();
  const { items, isError } = useGenreRow(type, genre.id, pages);
  useEffect(() => {
    if (items) onLoaded?.(items);
  }, [items, onLoaded]);
  return (
    <Carousel
      id={`${type}-genre-${genre.id}`}
      title={t(type === 'movie' ? 'discover.lists.genreMovies' : 'discover.lists.genreShows', { genre: genre.name })}
      items={items}
      isError={isError}
    />
  );
}

export function DiscoverPage() {
  const { t } = useTranslation();
  usePageTitle(t('discover.pageTitle'));
  const movieGenres = useRandomGenres('movie', RANDOM_MOVIE_GENRES);
  const tvGenres = useRandomGenres('tv', RANDOM_TV_GENRES);
  const [loaded, setLoaded] = useState<Record<number, MediaSummary[]>>({});
  const candidates = useMemo(() => {
    const seen = new Set<string>();
    return Object.values(loaded).flat().filter((m) => !seen.has(m.id) && seen.add(m.id));
  }, [loaded]);

  const onGenreLoaded = useMemo(
    () =>
      Object.fromEntries(
        (movieGenres ?? []).map((g) => [g.id, (items: MediaSummary[]) => setLoaded((prev) => (prev[g.id] === items ? prev : { ...prev, [g.id]: items }))]),
      ),
    [movieGenres],
  );

  return (
    <div className="py-8">
      <div className="flex flex-col items-center gap-6 text-center">
        <h1 className="text-3xl font-bold text-fg sm:text-4xl">{t('discover.title')}</h1>
        <WatchSomethingNew candidates={candidates} />
      </div>

      <h2 className="mt-10 border-b border-white/10 pb-2 text-2xl font-bold text-fg">{t('discover.movies')}</h2>
      <ListRow id="movie-now-playing" title={t('discover.lists.nowPlaying')} type="movie" list="now_playing" />
      <ListRow id="movie-top-rated" title={t('discover.lists.topRatedMovies')} type="movie" list="top_rated" />
      <ListRow id="movie-popular" title={t('discover.lists.popularMovies')} type="movie" list="popular" />
      {movieGenres?.map((genre) => (
        <GenreRow key={genre.id} type="movie" genre={genre} pages={MOVIE_GENRE_PAGES} onLoaded={onGenreLoaded[genre.id]} />
      ))}

      <h2 className="mt-14 border-b border-white/10 pb-2 text-2xl font-bold text-fg">{t('discover.shows')}</h2>
      <ListRow id="tv-top-rated" title={t('discover.lists.topRatedShows')} type="tv" list="top_rated" />
      <ListRow id="tv-popular" title={t('discover.lists.popularShows')} type="tv" list="popular" />
      {tvGenres?.map((genre) => (
        <GenreRow key={genre.id} type="tv" genre={genre} pages={1} />
      ))}
    </div>
  );
}
