import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type Genre, type ListName, type MediaList, type TmdbType } from '@marquee/contract';
import { apiGet } from '../../lib/api.ts';

export const listQuery = (type: TmdbType, list: ListName) =>
  queryOptions({
    queryKey: ['list', type, list],
    queryFn: ({ signal }) => apiGet<MediaList>(apiPaths.list, { params: { type, list }, signal }),
  });

export const genresQuery = (type: TmdbType) =>
  queryOptions({
    queryKey: ['genres', type],
    queryFn: ({ signal }) => apiGet<{ genres: Genre[] }>(apiPaths.genres, { params: { type }, signal }),
    staleTime: Infinity,
  });

export const discoverQuery = (type: TmdbType, genre: number, page: number) =>
  queryOptions({
    queryKey: ['discover', type, genre, page],
    queryFn: ({ signal }) =>
      apiGet<MediaList>(apiPaths.discover, { params: { type }, query: { genre, page }, signal }),
  });
