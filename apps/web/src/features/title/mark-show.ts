import type { QueryClient } from '@tanstack/react-query';
import type { MediaSummary } from '@marquee/contract';
import { useLibraryStore } from '../../stores/index.ts';
import { watchedEpisodeIds } from '../../stores/library/history-rules.ts';
import { detailsQuery, seasonQuery } from './title-queries.ts';
import { markShowWatched } from './watched-marks.tsx';

/**
 * A whole show marked watched from its card: its details and seasons read through the same queries as
 * its page (cached for both), then every aired episode not yet watched becomes a play (decision 095).
 */
export async function markWholeShow(show: MediaSummary, client: QueryClient): Promise<void> {
  const details = await client.fetchQuery(detailsQuery('tv', show.id));
  const watched = watchedEpisodeIds(useLibraryStore.getState().history, show.id);
  await markShowWatched(details, (number) => client.fetchQuery(seasonQuery(show.id, number)), watched);
}
