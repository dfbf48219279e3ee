import { isReleased } from '@marquee/contract';
import type { ScrapeMedia } from '@marquee/providers';
import { AppError } from '../../errors.ts';
import type { MetadataService } from '../../modules/metadata/metadata.service.ts';

/** What the scrape API reads of the metadata: a title's details and a show's season. */
export type ReleaseMetadata = Pick<MetadataService, 'details' | 'season' | 'certifications'>;

/** Retry-After (seconds) of a refusal because the metadata cannot answer, when its error named none. */
export const METADATA_RETRY_AFTER_SECONDS = 30;

/**
 * The scrape requests name the media by ids only (and a title and year the caller writes): its release
 * date comes from the metadata. A movie's is its release date; a show's episode, its air date (the
 * episode is found by its number in the season; its id may be TMDB's or the embedded catalog's).
 * Answers the date (null: the metadata has none).
 *
 * The check fails closed (issue 25, item 10): a release that cannot be checked is not served.
 * - Media the metadata does not list: a movie or a show's season it answers 404 (or another verdict on
 *   the request) for, or an episode number its season does not have → 404 `media_not_found`.
 * - The metadata source cannot answer (an error of status 500 or more: TMDB down, rate limited, a bad
 *   answer) → 503 `metadata_unavailable` with a Retry-After (the metadata error's, else 30 s).
 *   `MetadataService` answers from its shared cache while TMDB fails, an expired answer included (kept
 *   7 days past its expiry, decision 082), so a title or season looked up before (these lookups are in
 *   English: by an earlier scrape, typically) keeps scraping while TMDB is down; only one not in the
 *   cache is refused. The embedded catalog (no TMDB key) has no cache and never fails this way.
 * The scrape routes run it before any source, whichever would answer, the operator's own library
 * included: a library file is no proof that a title is out, and no source is chosen at that point.
 */
export async function lookUpRelease(metadata: ReleaseMetadata, media: ScrapeMedia): Promise<string | null> {
  if (media.type === 'movie') {
    const details = await metadata.details('movie', media.tmdbId).catch(refusal('This movie'));
    return details.releaseDate;
  }
  const season = await metadata.season(media.tmdbId, media.season.number).catch(refusal('This season'));
  const episode = season.episodes.find((e) => e.number === media.episode.number);
  if (!episode) throw new AppError(404, 'media_not_found', 'This episode is not in the metadata');
  return episode.airDate;
}

/** A metadata failure as the scrape API's refusal (see lookUpRelease); errors of the server's own pass on. */
const refusal =
  (what: string) =>
  (error: unknown): never => {
    if (!(error instanceof AppError)) throw error;
    if (error.status >= 500) {
      throw new AppError(
        503,
        'metadata_unavailable',
        'The release date cannot be checked right now: the metadata source is not answering. Try again in a moment.',
        { cause: error, retryAfterSeconds: error.retryAfterSeconds ?? METADATA_RETRY_AFTER_SECONDS },
      );
    }
    throw new AppError(404, 'media_not_found', `${what} is not in the metadata`, { cause: error });
  };

/** The scrape API's refusal of a title or episode that is not out yet (release.ts's rule). */
export function assertReleased(date: string | null, now: Date): void {
  if (isReleased(date, now)) return;
  throw new AppError(
    403,
    'media_unreleased',
    date ? `Not released yet: it comes out on ${date}` : 'Not released yet: it has no release date',
  );
}
