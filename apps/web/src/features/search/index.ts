export { SearchBar } from './search-bar.tsx';
export { useSearchRoute } from './use-search-route.ts';
export { searchQuery } from './search-queries.ts';
