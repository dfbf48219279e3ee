import { useEffect, useState, type RefObject } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MediaSummary } from '@marquee/contract';
import { clock } from '../lib/clock.ts';
import { useLibraryStore } from '../stores/index.ts';
import { useMediaActions } from './media-actions.tsx';
import { useMovieWatched } from './movie-watched.ts';
import { MENU_ITEMS, useMenuKeys } from './use-menu-keys.ts';

/*
 * The menu of a movie's or a show's card (its ⋯ button is in media-card-more.tsx): mark it watched or not
 * watched (a show: every aired episode, through the title page's code, or none). Loaded on
 * its first opening, outside the first view of `/` (decision 062's budget). A mark is a play, as on the
 * title page (decision 095): "watched" records one now, "not watched" removes every play of the movie.
 */

const ITEM =
  'flex min-h-11 w-full items-center rounded-md px-3 py-2 text-start text-sm text-fg hover:bg-surface-3 focus-visible:bg-surface-3 focus-visible:outline-none';

export interface MediaCardMenuProps {
  /** Its button's id (the button names the menu), and the button (focus goes back to it). */
  labelledBy: string;
  button: RefObject<HTMLButtonElement | null>;
  media: MediaSummary;
  /** Closes it; `refocus`: focus goes back to its button (not when the viewer pressed elsewhere). */
  close(refocus: boolean): void;
}

/** A movie never watched gets a play now; a watched one loses all of its plays. */
function toggleWatched(media: MediaSummary, watched: boolean): void {
  const library = useLibraryStore.getState();
  if (watched) return library.removePlays({ type: 'movie', tmdbId: media.id });
  // A card does not know the runtime: the play's length is unknown (0), as on a title page without one.
  library.recordPlay({
    type: 'movie',
    tmdbId: media.id,
    title: media.title,
    year: media.year,
    poster: media.poster,
    watchedAt: clock.now().getTime(),
    watched: 0,
    duration: 0,
    completed: true,
  });
}

/** A press outside the menu and its button closes it, leaving focus where the press put it. */
function usePressOutside(
  root: RefObject<HTMLDivElement | null>,
  button: RefObject<HTMLButtonElement | null>,
  close: (refocus: boolean) => void,
) {
  useEffect(() => {
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      // A press on the button toggles the menu, through its click.
      if (!root.current?.contains(target) && !button.current?.contains(target)) close(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [root, button, close]);
}

/** Whether any episode of the show has a play. */
const useShowStarted = (id: string) =>
  useLibraryStore((s) => Object.values(s.history).some((p) => p.type === 'show' && p.tmdbId === id));

/**
 * A show's item: "Mark whole show as watched" (its seasons are read first: the item says so, and says
 * when it could not), or, once any episode is watched, "Mark as not watched" (every play of the show).
 */
function ShowItem({ media, close }: Pick<MediaCardMenuProps, 'media' | 'close'>) {
  const { t } = useTranslation(['history']);
  const started = useShowStarted(media.id);
  const { markShow } = useMediaActions();
  const client = useQueryClient();
  const [state, setState] = useState<'idle' | 'busy' | 'failed'>('idle');
  const select = () => {
    if (started) {
      useLibraryStore.getState().removePlays({ type: 'show', tmdbId: media.id });
      return close(true);
    }
    if (!markShow || state === 'busy') return;
    setState('busy');
    markShow(media, client).then(
      () => close(true),
      () => setState('failed'),
    );
  };
  return (
    <button
      type="button"
      role="menuitem"
      aria-disabled={state === 'busy'}
      className={`${ITEM} flex-col items-start`}
      data-testid="card-watched-toggle"
      onClick={select}
    >
      {t(started ? 'history.marks.showUnmark' : 'history.marks.showMark')}
      {state !== 'idle' && (
        <span role="status" className="text-xs text-fg-muted">
          {t(state === 'busy' ? 'history.marks.showBusy' : 'history.marks.showFailed')}
        </span>
      )}
    </button>
  );
}

/**
 * The WAI-ARIA menu button's menu (docs/decisions/084-accessibility-bar.md, `useMenuKeys`): it opens on its
 * item, Escape closes it and focus goes back to the button, Tab closes it and moves on from the button.
 */
export function MediaCardMenu({ labelledBy, button, media, close }: MediaCardMenuProps) {
  const { t } = useTranslation(['history']);
  const watched = useMovieWatched(media.id, media.type === 'movie');
  const { keyProps } = useMenuKeys({
    button: {
      open: true,
      setOpen: (open) => {
        if (!open) close(true);
      },
    },
    initialFocus: (root) => root.querySelector<HTMLElement>(MENU_ITEMS),
  });
  usePressOutside(keyProps.ref, button, close);
  return (
    <div
      {...keyProps}
      role="menu"
      aria-labelledby={labelledBy}
      data-testid="card-menu"
      className="absolute inset-x-1 top-12 z-10 rounded-lg border border-white/10 bg-surface-2 p-1 shadow-2xl"
    >
      {media.type === 'movie' ? (
        <button
          type="button"
          role="menuitem"
          className={ITEM}
          data-testid="card-watched-toggle"
          onClick={() => {
            toggleWatched(media, watched);
            close(true);
          }}
        >
          {t(watched ? 'history.marks.movieUnmark' : 'history.marks.movieMark')}
        </button>
      ) : (
        <ShowItem media={media} close={close} />
      )}
    </div>
  );
}
