import { useMemo } from 'react';
import { CloseIcon } from '../../components/close-icon.tsx';
import { useTranslation } from 'react-i18next';
import { type MediaSummary } from '@marquee/contract';
import {
  continueWatching,
  progressRatio,
  sortBookmarks,
  type BookmarkEntry,
  type ContinueItem,
} from '../../stores/library/library-rules.ts';
import { encodeMediaKey, toTmdbType } from '../../lib/media-keys.ts';
import { MediaCard, type ResumePoint } from '../../components/media-card.tsx';
import { useLibraryStore } from '../../stores/index.ts';
import { paths } from '../../lib/paths.ts';
import { useLibraryRefreshOnOpen } from '../../lib/library-refresh.ts';

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

export function useContinueWatching(): ContinueItem[] {
  const bookmarks = useLibraryStore((s) => s.bookmarks);
  const progress = useLibraryStore((s) => s.progress);
  return useMemo(() => continueWatching(progress, bookmarks), [bookmarks, progress]);
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

/** A Continue Watching card: the title's card, resuming where it stopped, with a button that takes it off the row. */
function ContinueCard({ item }: { item: ContinueItem }) {
  const { t } = useTranslation(['library']);
  const remove = useLibraryStore((s) => s.removeFromContinueWatching);
  const { entry, episode } = item;
  const season = episode ? entry.seasons[episode.seasonId] : undefined;
  const resume: ResumePoint = {
    to: paths.media(
      encodeMediaKey(toTmdbType(entry.type), entry.tmdbId, entry.title),
      episode?.seasonId,
      episode?.id,
    ),
    ratio: progressRatio(item.progress),
    ...(episode && season ? { episode: { season: season.number, number: episode.number } } : {}),
  };
  return (
    <div data-testid="continue-card">
      <MediaCard
        media={summaryOf(entry)}
        resume={resume}
        action={
          <button
            type="button"
            onClick={() => remove(entry.type, entry.tmdbId)}
            className="flex h-11 w-11 items-center justify-center rounded-full bg-black/60 text-white shadow-md hover:bg-black/80 focus-visible:outline-2 focus-visible:outline-accent"
            aria-label={t('library.continue.remove', { title: entry.title })}
            title={t('library.continue.removeShort')}
            data-testid="continue-remove"
          >
            <CloseIcon />
          </button>
        }
      />
    </div>
  );
}

/** Continue Watching: worth-resuming titles, not bookmarked, most recent first; each can be removed. */
export function ContinueWatchingSection({ items }: { items: ContinueItem[] }) {
  const { t } = useTranslation(['library']);
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="continue-heading" className="mb-10" data-testid="continue-section">
      <h2 id="continue-heading" className="mb-4 text-xl font-bold text-fg">
        {t('library.continueWatching')}
      </h2>
      <ul className={GRID}>
        {items.map((item) => (
          <li key={`${item.entry.type}:${item.entry.tmdbId}`}>
            <ContinueCard item={item} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The home page's library: Continue Watching, then My List; `empty` when there is neither. */
export function HomeLibrary({ empty }: { empty: React.ReactNode }) {
  useLibraryRefreshOnOpen();
  const bookmarks = useBookmarks();
  const continuing = useContinueWatching();
  if (bookmarks.length === 0 && continuing.length === 0) return <>{empty}</>;
  return (
    <>
      <ContinueWatchingSection items={continuing} />
      <BookmarksSection items={bookmarks} />
    </>
  );
}
