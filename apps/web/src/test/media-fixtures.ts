import type { MediaDetails } from '@marquee/contract';

/** A movie's details as the API answers them, every field filled as a title without extras has it. */
export function movieDetails(overrides: Partial<MediaDetails> = {}): MediaDetails {
  return {
    id: '603',
    type: 'movie',
    title: 'The Matrix',
    year: 1999,
    releaseDate: '1999-03-31',
    poster: null,
    overview: null,
    backdrop: null,
    genres: [],
    runtime: 136,
    imdbId: 'tt0133093',
    seasons: [],
    tagline: null,
    rating: null,
    contentRating: null,
    status: 'released',
    cast: [],
    crew: [],
    trailers: [],
    watchProviders: null,
    nextEpisode: null,
    lastEpisode: null,
    recommendations: [],
    ...overrides,
  };
}
