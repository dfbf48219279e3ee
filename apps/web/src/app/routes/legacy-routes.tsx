import { useQuery } from '@tanstack/react-query';
import { Navigate, useParams } from 'react-router';
import { encodeMediaKey } from '../../lib/media-keys.ts';
import { PageLoading } from '../../components/layout.tsx';
import { searchQuery } from '../../features/search/index.ts';
import { paths } from '../../lib/paths.ts';

/** `/s/{query}`: open the first movie or show the search finds, or go home when none (or it fails). */
export function QuickSearchRoute() {
  const { query = '' } = useParams();
  const q = useQuery({ ...searchQuery(query), enabled: query.trim().length > 0 });
  if (!query.trim() || q.isError) return <Navigate replace to={paths.home} />;
  if (q.isPending) return <PageLoading page />;
  const first = q.data.results[0];
  return (
    <Navigate
      replace
      to={first ? paths.media(encodeMediaKey(first.type, first.id, first.title)) : paths.home}
    />
  );
}

/** `/search/{type}/{query?}` (old links) → `/browse/{query}`, or `/` without a query. */
export function LegacySearchRoute() {
  const { query } = useParams();
  return <Navigate replace to={paths.browse(query ?? '')} />;
}
