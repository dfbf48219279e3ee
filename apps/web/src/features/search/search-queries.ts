import { searchQueries } from '../../lib/api/queries/search.ts';

export const searchQuery = searchQueries.results;
