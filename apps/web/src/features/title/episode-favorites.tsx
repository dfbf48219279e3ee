import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Episode, MediaDetails, SeasonSummary } from '@marquee/contract';
import { useLibraryStore } from '../../stores/index.ts';
import { libraryKey, type LibraryMeta } from '../../stores/library/library-rules.ts';

/*
 * Favourite episodes (decision 097): kept on the show's bookmark as `favoriteEpisodes` (p-stream's), so
 * starring an episode is a bookmark write: a show not on My List is put on it (`favoriteEpisodeOp`), and
 * the list says so before and after. Unstarring never takes the show off My List; taking the show off
 * My List clears them (a tombstone clears both lists).
 */

type Show = Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster'>;

export interface EpisodeFavorites {
  /** The show's favourite episodes, by id. */
  ids: ReadonlySet<string>;
  /** The show is on My List (it has a bookmark). */
  bookmarked: boolean;
  /** A star added the show to My List, while this list was shown. */
  addedToList: boolean;
  /** Null when the show cannot be bookmarked (its year is unknown, as the bookmark toggle has it). */
  toggle: ((episodeId: string) => void) | null;
}

const NONE: ReadonlySet<string> = new Set();

/** The show's favourites, read from its bookmark, and the star's action. */
export function useEpisodeFavorites(show: Show): EpisodeFavorites {
  const bookmark = useLibraryStore((s) => s.bookmarks[libraryKey('show', show.id)]);
  const list = bookmark?.favoriteEpisodes;
  const ids = useMemo(() => (list ? new Set(list) : NONE), [list]);
  const [addedToList, setAddedToList] = useState(false);
  const meta: LibraryMeta | null =
    show.year === null
      ? null
      : { tmdbId: show.id, type: 'show', title: show.title, year: show.year, poster: show.poster };
  const toggle = meta
    ? (episodeId: string) => {
        if (!bookmark) setAddedToList(true);
        useLibraryStore.getState().toggleFavoriteEpisode(meta, episodeId);
      }
    : null;
  return { ids, bookmarked: Boolean(bookmark), addedToList, toggle };
}

function StarIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path
        d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
        strokeLinejoin="round"
      />
    </svg>
  );
}

const TOGGLE =
  'inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-2 rounded-lg bg-surface-2 text-sm font-semibold hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent';

/** One episode's star: a toggle beside its row, named with the episode ("Favourite S1 E2 “Pilot”"). */
export function EpisodeFavoriteToggle({
  season,
  episode,
  favorite,
  onToggle,
  describedBy,
}: {
  season: Pick<SeasonSummary, 'number'>;
  episode: Pick<Episode, 'id' | 'number' | 'title'>;
  favorite: boolean;
  onToggle(episodeId: string): void;
  /** The note that starring puts the show on My List, while it is not there. */
  describedBy?: string | undefined;
}) {
  const { t } = useTranslation(['history', 'media']);
  const label = t(favorite ? 'history.favorites.remove' : 'history.favorites.add', {
    episode: t('media.seasons.seasonEpisode', { season: season.number, episode: episode.number }),
    title: episode.title,
  });
  return (
    <button
      type="button"
      aria-pressed={favorite}
      aria-label={label}
      aria-describedby={describedBy}
      title={label}
      data-testid="episode-favorite"
      onClick={() => onToggle(episode.id)}
      className={`${TOGGLE} ${favorite ? 'text-fg-accent' : 'text-fg-muted hover:text-fg'}`}
    >
      <StarIcon filled={favorite} />
    </button>
  );
}

/** "Favourites only": the season's list narrowed to its favourite episodes. */
export function FavoritesFilter({ on, onChange }: { on: boolean; onChange(on: boolean): void }) {
  const { t } = useTranslation(['history']);
  return (
    <button
      type="button"
      aria-pressed={on}
      data-testid="favorites-filter"
      onClick={() => onChange(!on)}
      className={`${TOGGLE} px-4 ${on ? 'text-fg-accent ring-1 ring-accent' : 'text-fg'}`}
    >
      <StarIcon filled={on} />
      {t('history.favorites.only')}
    </button>
  );
}

/**
 * What a star does to My List, said where the stars are: before, that it puts the show on it (the stars
 * point here with `aria-describedby`); after a star did, that it is there now (a live region).
 */
export function FavoritesNote({ id, favorites }: { id: string; favorites: EpisodeFavorites }) {
  const { t } = useTranslation(['history']);
  const text = !favorites.bookmarked
    ? t('history.favorites.addsToList')
    : favorites.addedToList
      ? t('history.favorites.addedToList')
      : '';
  return (
    <p id={id} role="status" className="mb-3 text-xs text-fg-muted empty:mb-0" data-testid="favorites-note">
      {text}
    </p>
  );
}
