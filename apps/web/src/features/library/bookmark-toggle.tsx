import { useTranslation } from 'react-i18next';
import { type MediaSummary } from '@marquee/contract';
import { libraryKey, type LibraryMeta } from '../../stores/library/library-rules.ts';
import { toMediaType } from '../../lib/media-keys.ts';
import { useLibraryStore } from '../../stores/index.ts';

/** A card or title as library metadata; null when the year is unknown (such titles cannot be bookmarked). */
export function libraryMetaOf(
  media: Pick<MediaSummary, 'id' | 'type' | 'title' | 'year' | 'poster'>,
): LibraryMeta | null {
  if (media.year === null) return null;
  return {
    tmdbId: media.id,
    type: toMediaType(media.type),
    title: media.title,
    year: media.year,
    poster: media.poster,
  };
}

function BookmarkIcon({ filled }: { filled: boolean }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill={filled ? 'currentColor' : 'none'}
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M6 3h12v18l-6-4-6 4z" strokeLinejoin="round" />
    </svg>
  );
}

export function useIsBookmarked(media: Pick<MediaSummary, 'id' | 'type'>): boolean {
  return useLibraryStore((s) => Boolean(s.bookmarks[libraryKey(toMediaType(media.type), media.id)]));
}

/** The bookmark toggle; disabled (with a hint) when the year is unknown. `variant="title"` is the title page's labelled button. */
export function BookmarkToggle({
  media,
  variant = 'card',
}: {
  media: MediaSummary;
  variant?: 'card' | 'title';
}) {
  const { t } = useTranslation(['library']);
  const meta = libraryMetaOf(media);
  const bookmarked = useIsBookmarked(media);
  const toggle = useLibraryStore((s) => s.toggleBookmark);
  const label = !meta
    ? t('library.bookmark.unavailable')
    : bookmarked
      ? t('library.bookmark.remove')
      : t('library.bookmark.add');
  const onClick = () => meta && toggle(meta);

  if (variant === 'title') {
    return (
      <button
        type="button"
        onClick={onClick}
        disabled={!meta}
        aria-pressed={bookmarked}
        title={!meta ? label : undefined}
        data-testid="bookmark-toggle"
        className="inline-flex min-h-11 items-center gap-2 rounded-lg bg-surface-2 px-4 py-2 text-sm font-semibold text-fg hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-50"
      >
        <BookmarkIcon filled={bookmarked} />
        {bookmarked ? t('library.bookmark.inList') : t('library.bookmark.add')}
      </button>
    );
  }
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={!meta}
      aria-pressed={bookmarked}
      aria-label={`${label}: ${media.title}`}
      title={label}
      data-testid="bookmark-toggle"
      className={`flex h-11 w-11 items-center justify-center rounded-full shadow-md backdrop-blur transition-colors focus-visible:outline-2 focus-visible:outline-accent disabled:cursor-not-allowed disabled:opacity-40 ${bookmarked ? 'bg-accent text-white' : 'bg-black/60 text-white hover:bg-black/80'}`}
    >
      <BookmarkIcon filled={bookmarked} />
    </button>
  );
}
