import { mediaQueries } from '../../lib/api/queries/media.ts';

/** The title page's queries: the shared factories (the player's episode picker uses the same season query). */
export const detailsQuery = mediaQueries.details;
export const seasonQuery = mediaQueries.season;
export const justWatchQuery = mediaQueries.justWatch;
