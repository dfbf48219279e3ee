import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { Episode, MediaDetails, SeasonSummary } from '@marquee/contract';
import { clock } from '../../lib/clock.ts';
import { useLibraryStore } from '../../stores/index.ts';

/*
 * Watched marks (issue 27, decision 095): marking an episode or a season watched records a play of each
 * episode not yet watched, now; marking it unwatched removes its plays. They are plays like those the
 * player records, so they sync, show in the history and on every device.
 */

type Show = Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster'>;

/** The episodes of a show with at least one play, by episode id. */
export function useWatchedEpisodes(showId: string): ReadonlySet<string> {
  const history = useLibraryStore((s) => s.history);
  return useMemo(() => {
    const ids = new Set<string>();
    for (const play of Object.values(history))
      if (play.type === 'show' && play.tmdbId === showId && play.episode) ids.add(play.episode.id);
    return ids;
  }, [history, showId]);
}

function markWatched(show: Show, season: SeasonSummary, episodes: readonly Episode[]): void {
  const { recordPlay } = useLibraryStore.getState();
  const now = clock.now().getTime();
  for (const episode of episodes) {
    const duration = (episode.runtime ?? 0) * 60;
    recordPlay({
      tmdbId: show.id,
      type: 'show',
      title: show.title,
      year: show.year,
      poster: show.poster,
      season: { id: season.id, number: season.number, title: season.title },
      episode: { id: episode.id, number: episode.number, title: episode.title },
      watchedAt: now,
      watched: duration,
      duration,
      completed: true,
    });
  }
}

const TOGGLE =
  'inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-2 rounded-lg text-sm font-semibold focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent';

function CheckIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      aria-hidden="true"
    >
      <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/** One episode's mark: a toggle button beside its row. */
export function EpisodeWatchedToggle({
  show,
  season,
  episode,
  watched,
}: {
  show: Show;
  season: SeasonSummary;
  episode: Episode;
  watched: boolean;
}) {
  const { t } = useTranslation(['history', 'media']);
  const label = t(watched ? 'history.marks.episodeUnmark' : 'history.marks.episodeMark', {
    episode: t('media.seasons.seasonEpisode', { season: season.number, episode: episode.number }),
  });
  return (
    <button
      type="button"
      aria-pressed={watched}
      aria-label={label}
      title={label}
      data-testid="episode-watched"
      onClick={() =>
        watched
          ? useLibraryStore
              .getState()
              .removePlays({ type: 'show', tmdbId: show.id, seasonId: season.id, episodeId: episode.id })
          : markWatched(show, season, [episode])
      }
      className={`${TOGGLE} ${watched ? 'bg-accent text-white hover:bg-accent-strong' : 'bg-surface-2 text-fg-muted hover:bg-surface-3 hover:text-fg'}`}
    >
      <CheckIcon />
    </button>
  );
}

/** The season's mark: every aired episode watched, or none. */
export function SeasonWatchedToggle({
  show,
  season,
  aired,
  watched,
}: {
  show: Show;
  season: SeasonSummary;
  /** The season's episodes that have aired (only those can be watched). */
  aired: readonly Episode[];
  watched: ReadonlySet<string>;
}) {
  const { t } = useTranslation(['history', 'media']);
  if (aired.length === 0) return null;
  const all = aired.every((episode) => watched.has(episode.id));
  return (
    <button
      type="button"
      aria-pressed={all}
      data-testid="season-watched"
      onClick={() =>
        all
          ? useLibraryStore.getState().removePlays({ type: 'show', tmdbId: show.id, seasonId: season.id })
          : markWatched(
              show,
              season,
              aired.filter((episode) => !watched.has(episode.id)),
            )
      }
      className={`${TOGGLE} px-4 ${all ? 'bg-accent text-white hover:bg-accent-strong' : 'bg-surface-2 text-fg hover:bg-surface-3'}`}
    >
      <CheckIcon />
      {t(all ? 'history.marks.seasonUnmark' : 'history.marks.seasonMark')}
    </button>
  );
}
