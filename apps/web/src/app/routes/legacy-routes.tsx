import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { encodeMediaKey, mediaPath } from '@marquee/contract';
import { PageLoading } from '../../components/layout.tsx';
import { searchQuery } from '../../features/search/index.ts';

/** `/s/{query}`: open the first movie or show the search finds, or go home when none (or it fails). */
export function QuickSearchRoute() {
  const { query = '' } = useParams();
  const q = useQuery({ ...searchQuery(query), enabled: query.trim().length > 0 });
  if (!query.trim() || q.isError) return <Navigate replace to="/" />;
  if (q.isPending) return <PageLoading />;
  const first = q.data.results[0];
  return <Navigate replace to={first ? mediaPath(encodeMediaKey(first.type, first.id, first.title)) : '/'} />;
}

/** `/search/{type}/{query?}` (old links) → `/browse/{query}`, or `/` without a query. */
export function LegacySearchRoute() {
  const { query } = useParams();
  return <Navigate replace to={query ? `/browse/${encodeURIComponent(query)}` : '/'} />;
}
