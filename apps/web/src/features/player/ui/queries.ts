import { mediaQueries } from '../../../lib/api/queries/media.ts';

/** The title page's season query itself (lib/api/queries/media.ts): one cache for both. */
export const seasonEpisodesQuery = mediaQueries.season;
