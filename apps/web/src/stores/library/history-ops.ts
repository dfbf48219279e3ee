import { libraryKey, type LibraryMeta, type SeasonRef } from './library-rules.ts';
import { crossesWatched, type PlayEntry, type PlayRemoval } from './history-rules.ts';
import type { EpisodeRef, LibraryData, OutboxOpInput } from './outbox.ts';

/** A save of progress, as the player hands it to the library store. */
interface ProgressSave {
  meta: LibraryMeta;
  watched: number;
  duration: number;
  season?: SeasonRef;
  episode?: EpisodeRef;
}

/** A play to record: what `PlayEntry` holds but its change time. */
export type PlayInput = Omit<PlayEntry, 'updatedAt'>;

/** The outbox op that records a play at `at` (`imported`: kept at its own time, never folded). */
export function playOp(play: PlayInput, imported: boolean, at: number): OutboxOpInput {
  return {
    kind: 'history-add',
    type: play.type,
    tmdbId: play.tmdbId,
    meta: { title: play.title, year: play.year, poster: play.poster },
    ...(play.type === 'show' && play.season && play.episode
      ? {
          season: play.season,
          episode: { id: play.episode.id, number: play.episode.number, title: play.episode.title },
        }
      : {}),
    watchedAt: play.watchedAt,
    watched: Math.max(0, play.watched),
    duration: Math.max(0, play.duration),
    completed: play.completed,
    ...(imported ? { imported: true } : {}),
    at,
  };
}

/** The outbox op that removes the plays `removal` names, at `at`. */
export function playRemovalOp(removal: PlayRemoval, at: number): OutboxOpInput {
  return {
    kind: 'history-remove',
    type: removal.type,
    tmdbId: removal.tmdbId,
    ...(removal.seasonId ? { seasonId: removal.seasonId } : {}),
    ...(removal.episodeId ? { episodeId: removal.episodeId } : {}),
    ...(removal.watchedAt !== undefined ? { watchedAt: removal.watchedAt } : {}),
    at,
  };
}

/**
 * The play a save of progress records, if it takes the movie or episode past the watched threshold (a
 * share of its length: the viewer's setting) for the first time (a rewatch is another play, once it
 * passes it again); null otherwise.
 */
export function playPassedOp(
  data: LibraryData,
  u: ProgressSave,
  at: number,
  threshold: number,
): OutboxOpInput | null {
  const held = data.progress[libraryKey(u.meta.type, u.meta.tmdbId)];
  const before = u.episode ? held?.episodes[u.episode.id]?.progress : held?.progress;
  if (!crossesWatched(before, u.watched, u.duration, threshold)) return null;
  return playOp(
    {
      tmdbId: u.meta.tmdbId,
      type: u.meta.type,
      title: u.meta.title,
      year: u.meta.year,
      poster: u.meta.poster,
      ...(u.season && u.episode ? { season: u.season, episode: u.episode } : {}),
      watchedAt: at,
      watched: u.watched,
      duration: u.duration,
      completed: true,
    },
    false,
    at,
  );
}
