import { useCallback, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { type MediaSummary } from '@marquee/contract';
import {
  continueWatching,
  sortBookmarks,
  type BookmarkEntry,
  type ContinueItem,
} from '../../stores/library/library-rules.ts';
import { toTmdbType } from '../../lib/media-keys.ts';
import { MediaCard } from '../../components/media-card.tsx';
import { useLibraryStore, usePreferencesStore } from '../../stores/index.ts';
import { ContinueCard, StopNoteView } from './continue-card.tsx';
import { useLastAired, useStopNote } from './stop-watching.ts';

export const GRID =
  'grid grid-cols-2 gap-x-4 gap-y-6 sm:grid-cols-3 md:grid-cols-4 lg:grid-cols-5 xl:grid-cols-6';

export const summaryOf = (
  b: Pick<BookmarkEntry, 'tmdbId' | 'type' | 'title' | 'year' | 'poster'>,
): MediaSummary => ({
  id: b.tmdbId,
  type: toTmdbType(b.type),
  title: b.title,
  year: b.year,
  releaseDate: null,
  poster: b.poster,
});

export function useBookmarks(): BookmarkEntry[] {
  const bookmarks = useLibraryStore((s) => s.bookmarks);
  const progress = useLibraryStore((s) => s.progress);
  return useMemo(() => sortBookmarks(bookmarks, progress), [bookmarks, progress]);
}

/**
 * Continue Watching's cards, without the shows the viewer stopped watching until they are watched again
 * or a new episode airs (decision 102: the air dates of stopped shows are asked for after the row shows).
 */
export function useContinueWatching(): ContinueItem[] {
  const bookmarks = useLibraryStore((s) => s.bookmarks);
  const progress = useLibraryStore((s) => s.progress);
  const hidden = usePreferencesStore((s) => s.continueHidden);
  const aired = useLastAired(progress, bookmarks, hidden);
  return useMemo(
    () => continueWatching(progress, bookmarks, hidden, aired),
    [bookmarks, progress, hidden, aired],
  );
}

/**
 * Bookmarks, most recent activity first, under the name navigation gives them: "My List".
 * `titled={false}` where the page's own heading already says "My List".
 */
export function BookmarksSection({ items, titled = true }: { items: BookmarkEntry[]; titled?: boolean }) {
  const { t } = useTranslation(['library']);
  if (items.length === 0) return null;
  return (
    <section
      id="my-list-row"
      aria-labelledby={titled ? 'bookmarks-heading' : undefined}
      aria-label={titled ? undefined : t('library.myList')}
      className="mb-10"
      data-testid="bookmarks-section"
    >
      {titled && (
        <h2 id="bookmarks-heading" className="mb-4 text-xl font-bold text-fg">
          {t('library.myList')}
        </h2>
      )}
      <ul className={GRID}>
        {items.map((b) => (
          <li key={`${b.type}:${b.tmdbId}`}>
            <MediaCard media={summaryOf(b)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * Continue Watching: worth-resuming titles, not bookmarked, most recent first; each can be removed, a
 * show also stopped (with a note to undo it, shown even once the row is empty).
 */
export function ContinueWatchingSection({ items }: { items: ContinueItem[] }) {
  const { t } = useTranslation(['library']);
  const note = useStopNote((s) => s.note);
  const heading = useRef<HTMLHeadingElement>(null);
  // A card that goes takes focus with it: the row's heading has it then.
  const focusHeading = useCallback(() => heading.current?.focus(), []);
  if (items.length === 0 && !note) return null;
  return (
    <section
      id="continue-row"
      aria-labelledby="continue-heading"
      className="mb-10"
      data-testid="continue-section"
    >
      <h2
        id="continue-heading"
        ref={heading}
        tabIndex={-1}
        className="mb-4 text-xl font-bold text-fg focus:outline-none"
      >
        {t('library.continueWatching')}
      </h2>
      <StopNoteView onClosed={focusHeading} />
      {items.length > 0 && (
        <ul className={GRID}>
          {items.map((item) => (
            <li key={`${item.entry.type}:${item.entry.tmdbId}`}>
              <ContinueCard item={item} card={summaryOf(item.entry)} onLeave={focusHeading} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The home page's library: Continue Watching, then My List; `empty` when there is neither. */
export function HomeLibrary({ empty }: { empty: React.ReactNode }) {
  const bookmarks = useBookmarks();
  const continuing = useContinueWatching();
  // A show just stopped keeps the row (and its Undo) even when it was the last thing here.
  const stopping = useStopNote((s) => s.note !== null);
  if (bookmarks.length === 0 && continuing.length === 0 && !stopping) return <>{empty}</>;
  return (
    <>
      <ContinueWatchingSection items={continuing} />
      <BookmarksSection items={bookmarks} />
    </>
  );
}
