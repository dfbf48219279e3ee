import { discoverQueries } from '../../lib/api/queries/discover.ts';

export const listQuery = discoverQueries.list;
export const genresQuery = discoverQueries.genres;
export const discoverQuery = discoverQueries.genre;
