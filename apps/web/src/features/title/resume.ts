import { useLibraryStore } from '../../stores/index.ts';
import { libraryKey, resumeEpisode, type EpisodeProgress } from '../../stores/library/library-rules.ts';

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
