import type { ResumePoint } from '../../components/media-card.tsx';
import { encodeMediaKey, toTmdbType } from '../../lib/media-keys.ts';
import { paths } from '../../lib/paths.ts';
import { progressRatio, type ContinueItem } from '../../stores/library/library-rules.ts';

/** The round button over a card's poster: 44 px, a touch target on a phone. */
export const ROUND =
  'flex h-11 w-11 items-center justify-center rounded-full bg-black/60 text-white shadow-md hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-accent';

export function resumeOf({ entry, episode, progress }: ContinueItem): ResumePoint {
  const season = episode ? entry.seasons[episode.seasonId] : undefined;
  return {
    to: paths.media(
      encodeMediaKey(toTmdbType(entry.type), entry.tmdbId, entry.title),
      episode?.seasonId,
      episode?.id,
    ),
    ratio: progressRatio(progress),
    ...(episode && season ? { episode: { season: season.number, number: episode.number } } : {}),
  };
}
