import { queryOptions } from '@tanstack/react-query';
import type { ListName, TmdbType } from '@marquee/contract';
import { api } from '../client.ts';

/** Curated lists, genres and genre pages. Key prefix `['discover']`. */
export const discoverQueries = {
  all: ['discover'] as const,
  list: (type: TmdbType, list: ListName) =>
    queryOptions({
      queryKey: [...discoverQueries.all, 'list', type, list] as const,
      queryFn: ({ signal }) => api.metadata.list({ params: { type, list }, signal }),
    }),
  genres: (type: TmdbType) =>
    queryOptions({
      queryKey: [...discoverQueries.all, 'genres', type] as const,
      queryFn: ({ signal }) => api.metadata.genres({ params: { type }, signal }),
      staleTime: Infinity,
    }),
  genre: (type: TmdbType, genre: number, page: number) =>
    queryOptions({
      queryKey: [...discoverQueries.all, 'genre', type, genre, page] as const,
      queryFn: ({ signal }) => api.metadata.discover({ params: { type }, query: { genre, page }, signal }),
    }),
};
