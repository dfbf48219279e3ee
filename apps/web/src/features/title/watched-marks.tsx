import { useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Episode, MediaDetails, SeasonSummary } from '@marquee/contract';
import { isReleased } from '@marquee/contract/values';
import { clock } from '../../lib/clock.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { watchedEpisodeIds } from '../../stores/library/history-rules.ts';
import { seasonQuery } from './title-queries.ts';

/*
 * Watched marks (issue 27, decision 095): marking an episode or a season watched records a play of each
 * episode not yet watched, now; marking it unwatched removes its plays. They are plays like those the
 * player records, so they sync, show in the history and on every device.
 */

type Show = Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster'>;

/** The episodes of a show with at least one play, by episode id. */
export function useWatchedEpisodes(showId: string): ReadonlySet<string> {
  const history = useLibraryStore((s) => s.history);
  return useMemo(() => watchedEpisodeIds(history, showId), [history, showId]);
}

function markWatched(show: Show, season: SeasonSummary, episodes: readonly Episode[]): void {
  const { recordPlay } = useLibraryStore.getState();
  const now = clock.now().getTime();
  // A millisecond apart, in episode order: the last episode is the one watched last.
  episodes.forEach((episode, i) => {
    const { meta, ...play } = episodePlay(show, season, episode, now + i);
    recordPlay({ ...meta, ...play });
  });
}

/** A play of a whole episode at `at`, as a mark records it. */
function episodePlay(
  show: Show,
  season: Pick<SeasonSummary, 'id' | 'number' | 'title'>,
  episode: Episode,
  at: number,
) {
  const duration = (episode.runtime ?? 0) * 60;
  return {
    type: 'show' as const,
    tmdbId: show.id,
    meta: { title: show.title, year: show.year, poster: show.poster },
    season: { id: season.id, number: season.number, title: season.title },
    episode: { id: episode.id, number: episode.number, title: episode.title },
    watchedAt: at,
    watched: duration,
    duration,
    completed: true,
  };
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

/** A whole show's seasons, as the title page has them (specials, season 0, are not "the show"). */
type ShowWithSeasons = Show & Pick<MediaDetails, 'seasons'>;

/**
 * Every aired episode of every season of `show` not yet watched, as plays now: the seasons asked for
 * through the page's own queries (cached), written in one merge and sent to the account in one request
 * (the import's path: a long show is hundreds of plays, not hundreds of requests). Returns how many.
 */
export async function markShowWatched(
  show: ShowWithSeasons,
  fetchSeason: (
    number: number,
  ) => Promise<{ id: string; number: number; title: string; episodes: Episode[] }>,
  watched: ReadonlySet<string>,
): Promise<number> {
  const now = clock.now();
  const seasons = await Promise.all(
    show.seasons
      .filter((s) => s.number > 0)
      .sort((a, b) => a.number - b.number)
      .map((s) => fetchSeason(s.number)),
  );
  const at = now.getTime();
  const unwatched = seasons.flatMap((season) =>
    season.episodes
      .filter((episode) => isReleased(episode.airDate, now) && !watched.has(episode.id))
      .map((episode) => ({ season, episode })),
  );
  // A millisecond apart, in order: the show's last episode is the one watched last.
  const ops = unwatched.map(({ season, episode }, i) => ({
    kind: 'history-add' as const,
    ...episodePlay(show, season, episode, at + i),
    imported: true,
    at: at + i,
  }));
  if (ops.length === 0) return 0;
  const { importIntoLibrary } = await import('../../lib/sync/file-import.ts');
  return (await importIntoLibrary(ops)).plays;
}

/**
 * The whole show's mark: every aired episode of every season watched (one action for a show seen
 * elsewhere), or — when any episode is marked — none. Says what it did in a live region.
 */
export function ShowWatchedToggle({ show }: { show: ShowWithSeasons }) {
  const { t } = useTranslation(['history']);
  const queryClient = useQueryClient();
  const watched = useWatchedEpisodes(show.id);
  const [state, setState] = useState<{ busy: boolean; failed: boolean }>({ busy: false, failed: false });
  const any = watched.size > 0;
  const mark = async () => {
    setState({ busy: true, failed: false });
    try {
      await markShowWatched(show, (n) => queryClient.fetchQuery(seasonQuery(show.id, n)), watched);
      setState({ busy: false, failed: false });
    } catch {
      setState({ busy: false, failed: true });
    }
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <button
        type="button"
        disabled={state.busy}
        data-testid="show-watched"
        onClick={() =>
          any ? useLibraryStore.getState().removePlays({ type: 'show', tmdbId: show.id }) : void mark()
        }
        className={`${TOGGLE} bg-surface-2 px-4 text-fg hover:bg-surface-3 disabled:opacity-60`}
      >
        <CheckIcon />
        {t(any ? 'history.marks.showUnmark' : 'history.marks.showMark')}
      </button>
      <span role="status" className="text-sm text-fg-muted">
        {state.busy ? t('history.marks.showBusy') : state.failed ? t('history.marks.showFailed') : ''}
      </span>
    </div>
  );
}
