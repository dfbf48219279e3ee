import { makePlayerMeta } from '../core/meta.ts';
import type { PlayerSource } from '../core/types.ts';

/** Titles and sources for the session hooks' tests. */
export const movie = makePlayerMeta({
  type: 'movie',
  title: 'The Matrix',
  releaseYear: 1999,
  tmdbId: '603',
  imdbId: 'tt0133093',
  poster: null,
  mediaKey: 'tmdb-movie-603-the-matrix',
});

const episodes = [1, 2].map((n) => ({
  id: `e${n}`,
  number: n,
  title: `Episode ${n}`,
  airDate: '2020-01-01',
}));

export const episode = (n: 1 | 2) =>
  makePlayerMeta({
    type: 'show',
    title: 'Show',
    releaseYear: 2020,
    tmdbId: '1',
    imdbId: null,
    poster: null,
    mediaKey: 'tmdb-tv-1-show',
    season: { id: 's1', number: 1, title: 'Season 1' },
    episode: episodes[n - 1]!,
    episodes,
    seasons: [{ id: 's1', number: 1, title: 'Season 1' }],
  });

export const hlsSource: PlayerSource = { type: 'hls', url: 'https://cdn.example/master.m3u8' };
