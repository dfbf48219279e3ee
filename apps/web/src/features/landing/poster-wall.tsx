import { useQuery } from '@tanstack/react-query';
import type { MediaSummary } from '@marquee/contract';
import { PosterImage } from '../../components/poster-image.tsx';
import { discoverQueries } from '../../lib/api/queries/discover.ts';

/**
 * Enough tiles to cover the hero at every width (4 columns on a phone … 10 on a desktop); the rows that
 * fall outside it are clipped and, lazily loaded, never fetched.
 */
export const WALL_TILES = 60;

/**
 * The posters of the wall: popular movies and shows alternating (titles without a poster left out),
 * repeated when the catalog has fewer than the wall has tiles.
 */
export function wallPosters(
  movies: readonly MediaSummary[],
  shows: readonly MediaSummary[],
  count = WALL_TILES,
): string[] {
  const mixed: string[] = [];
  for (let i = 0; i < Math.max(movies.length, shows.length); i++) {
    for (const title of [movies[i], shows[i]]) if (title?.poster) mixed.push(title.poster);
  }
  if (mixed.length === 0) return [];
  return Array.from({ length: count }, (_, i) => mixed[i % mixed.length] as string);
}

/**
 * The landing hero's background: a tilted wall of what is popular in the catalog. Decorative (hidden
 * from assistive technology); every tile has its poster's shape before the poster arrives, so nothing
 * moves as they load, and a list that fails leaves the empty tiles.
 */
export function PosterWall() {
  const movies = useQuery({ ...discoverQueries.list('movie', 'popular'), staleTime: 60 * 60_000 });
  const shows = useQuery({ ...discoverQueries.list('tv', 'popular'), staleTime: 60 * 60_000 });
  const posters = wallPosters(movies.data?.results ?? [], shows.data?.results ?? []);
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-0" data-testid="poster-wall">
      {/* Wider and twice as tall as the hero, so the tilted grid leaves no corner bare. */}
      <div className="absolute -inset-x-1/5 -inset-y-1/2 grid -rotate-6 grid-cols-4 content-center gap-2 sm:grid-cols-6 sm:gap-3 md:grid-cols-8 lg:-inset-x-[10%] lg:grid-cols-10 rtl:rotate-6">
        {Array.from({ length: WALL_TILES }, (_, i) => (
          <div key={i} className="aspect-[2/3] overflow-hidden rounded-lg bg-surface-2">
            {posters[i] && (
              <PosterImage
                src={posters[i]}
                alt=""
                loading="lazy"
                decoding="async"
                className="h-full w-full object-cover"
                data-testid="hero-poster"
              />
            )}
          </div>
        ))}
      </div>
    </div>
  );
}
