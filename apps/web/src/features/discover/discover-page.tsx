import { useQueries, useQuery } from '@tanstack/react-query';
import { memo, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Genre, type MediaSummary } from '@marquee/contract';
import {
  MOVIE_GENRE_PAGES,
  RANDOM_MOVIE_GENRES,
  RANDOM_TV_GENRES,
  genreRowTitle,
  isFullGenreRow,
  shuffle,
  toCarousel,
  visibleGenres,
} from './discover-rules.ts';
import type { PosterLoading } from '../../components/media-card.tsx';
import { watchedMovies } from '../../components/movie-watched.ts';
import { useLibraryStore, usePreferencesStore } from '../../stores/index.ts';
import { useNearViewport } from '../../lib/use-near-viewport.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { Carousel, CarouselPlaceholder } from './carousel.tsx';
import { discoverQuery, genresQuery, listQuery, OPENING_LISTS } from './discover-queries.ts';
import { WatchSomethingNew } from './watch-something-new.tsx';

/** The movies to leave out: those watched, while the viewer chose so (decision 116); else none. */
function useHiddenMovies(): ReadonlySet<string> | null {
  const hide = usePreferencesStore((s) => s.hideWatchedInDiscover);
  return useLibraryStore((s) => (hide ? watchedMovies(s.history) : null));
}

/**
 * Shuffles once per loaded answer, so rows don't reshuffle on every render; leaves out the watched
 * movies the viewer hides before a row takes its first 20.
 */
function useShuffled(items: MediaSummary[] | undefined): MediaSummary[] | undefined {
  const shuffled = useMemo(() => (items ? shuffle(items) : undefined), [items]);
  const hidden = useHiddenMovies();
  return useMemo(
    () =>
      shuffled &&
      toCarousel(hidden ? shuffled.filter((m) => !(m.type === 'movie' && hidden.has(m.id))) : shuffled),
    [shuffled, hidden],
  );
}

/** Posters of the first row are the page's largest paint: they load first; the second row's load at once too. */
const posterLoadingOfRow = (index: number): PosterLoading =>
  index === 0 ? 'priority' : index === 1 ? 'eager' : 'lazy';

interface RowProps {
  /** Position on the page (0 = first row). */
  index: number;
  /** Movies of a loaded movie row are the candidates of Watch Something New. */
  onLoaded?: ((items: MediaSummary[]) => void) | undefined;
}

/** A row's data loads, and its cards render, only once it comes near the viewport. */
function useLazyRow(index: number) {
  const ref = useRef<HTMLElement>(null);
  // The first two rows are on (or just below) the first screen of every device: no need to ask.
  const [near, reveal] = useNearViewport(ref, { initiallyNear: index < 2 });
  return { sectionRef: ref, near, onReveal: reveal, urgent: index === 0 };
}

function useReportLoaded(items: MediaSummary[] | undefined, onLoaded: RowProps['onLoaded']) {
  useEffect(() => {
    if (items) onLoaded?.(items);
  }, [items, onLoaded]);
}

// Rows are memoised: the page re-renders whenever a movie row loads (Watch Something New's candidates).
const ListRow = memo(function ListRow({
  id,
  title,
  type,
  list,
  index,
  onLoaded,
}: RowProps & {
  id: string;
  title: string;
  type: 'movie' | 'tv';
  list: 'now_playing' | 'top_rated' | 'popular';
}) {
  const row = useLazyRow(index);
  const q = useQuery({ ...listQuery(type, list), enabled: row.near });
  const items = useShuffled(q.data?.results);
  useReportLoaded(items, onLoaded);
  return (
    <Carousel
      {...row}
      id={id}
      title={title}
      items={items}
      isError={q.isError}
      posterLoading={posterLoadingOfRow(index)}
    />
  );
});

/**
 * `count` random genres of a kind. The order is shuffled once per answer (the rows stay put while the page
 * is open); a genre whose row turns out too small (`skip`) gives its place to the next one of that order.
 */
function useRandomGenres(type: 'movie' | 'tv', count: number) {
  const genres = useQuery(genresQuery(type));
  const shuffled = useMemo(() => (genres.data ? shuffle(genres.data.genres) : undefined), [genres.data]);
  const [tooSmall, setTooSmall] = useState<ReadonlySet<number>>(() => new Set());
  const skip = useCallback(
    (id: number) => setTooSmall((prev) => (prev.has(id) ? prev : new Set(prev).add(id))),
    [],
  );
  const visible = useMemo(
    () => (shuffled ? visibleGenres(shuffled, tooSmall, count) : undefined),
    [shuffled, tooSmall, count],
  );
  return { genres: visible, skip };
}

/** One genre row from several pages, merged, shuffled, de-duplicated, first 20. */
function useGenreRow(type: 'movie' | 'tv', genre: number, pages: number, enabled: boolean) {
  const results = useQueries({
    queries: Array.from({ length: pages }, (_, i) => ({ ...discoverQuery(type, genre, i + 1), enabled })),
  });
  const done = results.every((r) => r.isSuccess || r.isError);
  const isError = results.every((r) => r.isError);
  const all = done ? results.flatMap((r) => r.data?.results ?? []) : undefined;
  const key = done ? results.map((r) => r.dataUpdatedAt).join(',') : '';
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `key` stands for the answers' identity
  const merged = useMemo(() => all, [key]);
  return { items: useShuffled(merged), isError };
}

/** A genre row; one with fewer than 8 titles is not shown (`onTooSmall`: the next genre takes its place). */
const GenreRow = memo(function GenreRow({
  type,
  genre,
  pages,
  index,
  onLoaded,
  onTooSmall,
}: RowProps & { type: 'movie' | 'tv'; genre: Genre; pages: number; onTooSmall(id: number): void }) {
  const { t } = useTranslation(['discover']);
  const row = useLazyRow(index);
  const { items, isError } = useGenreRow(type, genre.id, pages, row.near);
  const tooSmall = !!items && !isError && !isFullGenreRow(items);
  useReportLoaded(tooSmall ? undefined : items, onLoaded);
  useEffect(() => {
    if (tooSmall) onTooSmall(genre.id);
  }, [tooSmall, onTooSmall, genre.id]);
  // Its place stays taken until the next genre's row replaces it: the page does not jump.
  if (tooSmall) return <CarouselPlaceholder />;
  const heading = genreRowTitle(type, genre);
  // Titled once its titles are in: a genre about to give way is never shown by name.
  const title =
    !items && !isError
      ? null
      : 'genre' in heading
        ? t(heading.key, { genre: heading.genre })
        : t(heading.key);
  return (
    <Carousel
      {...row}
      id={`${type}-genre-${genre.id}`}
      title={title}
      items={items}
      isError={isError}
      posterLoading={posterLoadingOfRow(index)}
    />
  );
});

export function DiscoverPage() {
  const { t } = useTranslation(['discover']);
  usePageTitle(t('discover.pageTitle'));
  // Ten rows appear at once when the genres are picked: they render in the background (React yields to
  // the browser meanwhile) while placeholders of their height stand in.
  const movieRows = useRandomGenres('movie', RANDOM_MOVIE_GENRES);
  const tvRows = useRandomGenres('tv', RANDOM_TV_GENRES);
  const movieGenres = useDeferredValue(movieRows.genres);
  const tvGenres = useDeferredValue(tvRows.genres);
  // Movies of every movie row loaded so far (rows load as they come near the screen).
  const [loaded, setLoaded] = useState<Record<string, MediaSummary[]>>({});
  const candidates = useMemo(() => {
    const seen = new Set<string>();
    return Object.values(loaded)
      .flat()
      .filter((m) => !seen.has(m.id) && seen.add(m.id));
  }, [loaded]);
  const onMoviesLoaded = useCallback(
    (rowId: string, items: MediaSummary[]) =>
      setLoaded((prev) => (prev[rowId] === items ? prev : { ...prev, [rowId]: items })),
    [],
  );
  const movieRowCallbacks = useMemo(() => {
    const ids = [
      'movie-now-playing',
      'movie-top-rated',
      'movie-popular',
      ...(movieGenres ?? []).map((g) => `movie-genre-${g.id}`),
    ];
    return Object.fromEntries(
      ids.map((rowId) => [rowId, (items: MediaSummary[]) => onMoviesLoaded(rowId, items)]),
    );
  }, [movieGenres, onMoviesLoaded]);

  const movieGenreCount = movieGenres?.length ?? RANDOM_MOVIE_GENRES;
  return (
    <div className="py-8">
      <div className="flex flex-col items-center gap-6 text-center">
        <h1 className="text-3xl font-bold text-fg sm:text-4xl">{t('discover.title')}</h1>
        <WatchSomethingNew candidates={candidates} />
      </div>

      <h2 className="mt-10 border-b border-white/10 pb-2 text-2xl font-bold text-fg">
        {t('discover.movies')}
      </h2>
      <ListRow
        index={0}
        id="movie-now-playing"
        title={t('discover.lists.nowPlaying')}
        type="movie"
        list={OPENING_LISTS[0]}
        onLoaded={movieRowCallbacks['movie-now-playing']}
      />
      <ListRow
        index={1}
        id="movie-top-rated"
        title={t('discover.lists.topRatedMovies')}
        type="movie"
        list={OPENING_LISTS[1]}
        onLoaded={movieRowCallbacks['movie-top-rated']}
      />
      <ListRow
        index={2}
        id="movie-popular"
        title={t('discover.lists.popularMovies')}
        type="movie"
        list="popular"
        onLoaded={movieRowCallbacks['movie-popular']}
      />
      {movieGenres
        ? movieGenres.map((genre, i) => (
            <GenreRow
              key={genre.id}
              index={3 + i}
              type="movie"
              genre={genre}
              pages={MOVIE_GENRE_PAGES}
              onLoaded={movieRowCallbacks[`movie-genre-${genre.id}`]}
              onTooSmall={movieRows.skip}
            />
          ))
        : Array.from({ length: RANDOM_MOVIE_GENRES }, (_, i) => <CarouselPlaceholder key={i} />)}

      <h2 className="mt-14 border-b border-white/10 pb-2 text-2xl font-bold text-fg">
        {t('discover.shows')}
      </h2>
      <ListRow
        index={3 + movieGenreCount}
        id="tv-top-rated"
        title={t('discover.lists.topRatedShows')}
        type="tv"
        list="top_rated"
      />
      <ListRow
        index={4 + movieGenreCount}
        id="tv-popular"
        title={t('discover.lists.popularShows')}
        type="tv"
        list="popular"
      />
      {tvGenres
        ? tvGenres.map((genre, i) => (
            <GenreRow
              key={genre.id}
              index={5 + movieGenreCount + i}
              type="tv"
              genre={genre}
              pages={1}
              onTooSmall={tvRows.skip}
            />
          ))
        : Array.from({ length: RANDOM_TV_GENRES }, (_, i) => <CarouselPlaceholder key={i} />)}
    </div>
  );
}
