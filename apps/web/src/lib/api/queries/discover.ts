import { queryOptions } from '@tanstack/react-query';
import type { ListName, TmdbType } from '@marquee/contract';
import { contentLanguage } from '../../i18n.ts';
import { api } from '../client.ts';

/** Curated lists, genres and genre pages, in the UI's language. Key prefix `['discover']`. */
export const discoverQueries = {
  all: ['discover'] as const,
  list: (type: TmdbType, list: ListName, language = contentLanguage()) =>
    queryOptions({
      queryKey: [...discoverQueries.all, 'list', type, list, language] as const,
      queryFn: ({ signal }) => api.metadata.list({ params: { type, list }, query: { language }, signal }),
    }),
  genres: (type: TmdbType, language = contentLanguage()) =>
    queryOptions({
      queryKey: [...discoverQueries.all, 'genres', type, language] as const,
      queryFn: ({ signal }) => api.metadata.genres({ params: { type }, query: { language }, signal }),
      staleTime: Infinity,
    }),
  genre: (type: TmdbType, genre: number, page: number, language = contentLanguage()) =>
    queryOptions({
      queryKey: [...discoverQueries.all, 'genre', type, genre, page, language] as const,
      queryFn: ({ signal }) =>
        api.metadata.discover({ params: { type }, query: { genre, page, language }, signal }),
    }),
};
