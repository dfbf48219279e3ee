import { useLibraryStore } from '../../stores/index.ts';
import {
  isWorthResuming,
  libraryKey,
  resumeEpisode,
  type EpisodeProgress,
  type Progress,
} from '../../stores/library/library-rules.ts';

/** Where a show resumes for this viewer: the episode of Continue Watching (`resumeEpisode`), if any. */
export interface ShowResume {
  seasonId: string;
  episodeId: string;
  seasonNumber: number | null;
  episodeNumber: number;
}

/** The episode a show resumes at on this device's library (synced from the viewer's other devices). */
export function useShowResume(tmdbId: string): ShowResume | null {
  const entry = useLibraryStore((s) => s.progress[libraryKey('show', tmdbId)]);
  if (!entry) return null;
  const episode = resumeEpisode(entry);
  if (!episode) return null;
  return {
    seasonId: episode.seasonId,
    episodeId: episode.id,
    seasonNumber: entry.seasons[episode.seasonId]?.number ?? null,
    episodeNumber: episode.number,
  };
}

/** The progress of each episode of a show watched on this library, by episode id. */
export function useEpisodeProgress(tmdbId: string): Record<string, EpisodeProgress> {
  return useLibraryStore((s) => s.progress[libraryKey('show', tmdbId)]?.episodes) ?? NONE;
}
const NONE: Record<string, EpisodeProgress> = {};

/** Watched past this share, a title's Play offers to start over beside resuming (issue 27). */
export const ALMOST_WATCHED_SHARE = 0.8;

/**
 * The saved position of a movie, or of the episode a show resumes at, when it is past
 * ALMOST_WATCHED_SHARE and still worth resuming: the title page then offers Resume and Start over.
 */
export function useAlmostWatched(
  type: 'movie' | 'tv',
  tmdbId: string,
  resume: ShowResume | null,
): Progress | null {
  const entry = useLibraryStore((s) => s.progress[libraryKey(type === 'movie' ? 'movie' : 'show', tmdbId)]);
  const saved =
    type === 'movie' ? entry?.progress : resume ? entry?.episodes[resume.episodeId]?.progress : undefined;
  if (!saved || !isWorthResuming(saved) || saved.duration <= 0) return null;
  return saved.watched / saved.duration > ALMOST_WATCHED_SHARE ? saved : null;
}
