import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/button.tsx';
import { MediaGrid, MediaGridSkeleton } from '../../components/media-card.tsx';
import { searchQuery } from './search-queries.ts';
import type { SearchRoute } from './use-search-route.ts';
import { paths } from '../../lib/paths.ts';

/**
 * Results for the search's debounced query (one request per pause in typing, never one per keystroke):
 * skeleton while typing or loading, the failed and empty texts.
 */
export function SearchResults({ search }: { search: Pick<SearchRoute, 'query' | 'isDebouncing'> }) {
  const { query, isDebouncing } = search;
  const { t } = useTranslation(['home']);
  const result = useQuery({ ...searchQuery(query), enabled: query.length > 0 });
  // The grid renders in the background (React yields to the browser while it does): no long task on a phone.
  const data = useDeferredValue(result.data);

  if (isDebouncing || result.isPending || (result.isSuccess && !data)) {
    return (
      <section aria-busy="true" aria-label={t('home.search.loading')}>
        <MediaGridSkeleton />
      </section>
    );
  }
  if (result.isError) {
    return (
      <p className="py-16 text-center text-fg-muted" role="alert">
        {t('home.search.failed')}
      </p>
    );
  }
  const items = (data ?? result.data).results;
  if (items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 py-16 text-center">
        <p className="text-fg-muted">{t('home.search.noResults')}</p>
        <ButtonLink to={paths.discover} variant="secondary">
          {t('home.search.discoverMore')}
        </ButtonLink>
      </div>
    );
  }
  return (
    <section aria-label={t('home.search.sectionTitle')}>
      <h2 className="sr-only">{t('home.search.sectionTitle')}</h2>
      <MediaGrid items={items} />
      <div className="mt-10 flex flex-col items-center gap-4">
        <p className="text-sm text-fg-muted">{t('home.search.allResults')}</p>
        <ButtonLink to={paths.discover} variant="secondary">
          {t('home.search.discoverMore')}
        </ButtonLink>
      </div>
    </section>
  );
}
