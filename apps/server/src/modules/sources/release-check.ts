import { isReleased } from '@marquee/contract';
import type { ScrapeMedia } from '@marquee/providers';
import { AppError } from '../../errors.ts';
import type { MetadataService } from '../../modules/metadata/metadata.service.ts';

/** What the scrape API reads of the metadata: a title's details and a show's season. */
export type ReleaseMetadata = Pick<MetadataService, 'details' | 'season'>;

/**
 * A scraped media's release date as the metadata source knows it: `{ known: false }` when it cannot
 * tell (a title it does not have, the metadata source down), else the date (null: none).
 */
export type ReleaseLookup = { known: false } | { known: true; date: string | null };

const UNKNOWN: ReleaseLookup = { known: false };

/**
 * The scrape requests name the media by ids only (and a title and year the caller writes): its release
 * date comes from the metadata. A movie's is its release date; a show's episode, its air date (the
 * episode is found by its number in the season; its id may be TMDB's or the embedded catalog's).
 */
export async function lookUpRelease(metadata: ReleaseMetadata, media: ScrapeMedia): Promise<ReleaseLookup> {
  try {
    if (media.type === 'movie') {
      const details = await metadata.details('movie', media.tmdbId);
      return { known: true, date: details.releaseDate };
    }
    const season = await metadata.season(media.tmdbId, media.season.number);
    const episode = season.episodes.find((e) => e.number === media.episode.number);
    return episode ? { known: true, date: episode.airDate } : UNKNOWN;
  } catch (error) {
    // Not in the metadata (404), or the metadata source failing (5xx): the providers decide, as before.
    if (error instanceof AppError) return UNKNOWN;
    throw error;
  }
}

/** The scrape API's refusal of a title or episode that is not out yet (release.ts's rule). */
export function assertReleased(lookup: ReleaseLookup, now: Date): void {
  if (!lookup.known || isReleased(lookup.date, now)) return;
  throw new AppError(
    403,
    'media_unreleased',
    lookup.date
      ? `Not released yet: it comes out on ${lookup.date}`
      : 'Not released yet: it has no release date',
  );
}
