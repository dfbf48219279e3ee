import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { type MediaSummary } from '@marquee/contract';
import { CloseIcon } from '../../components/close-icon.tsx';
import { MediaCard } from '../../components/media-card.tsx';
import { resumeOf, ROUND } from './continue-parts.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { libraryKey, type ContinueItem } from '../../stores/library/library-rules.ts';
import { useStopNote } from './stop-watching.ts';

/**
 * A Continue Watching card: the title's card, resuming where it stopped. A movie's "×" takes it off the
 * row; a show's opens a menu that also offers to stop watching it. `onLeave`: the card is going, where
 * focus should go instead.
 */
export function ContinueCard({
  item,
  card,
  onLeave,
}: {
  item: ContinueItem;
  card: MediaSummary;
  onLeave(): void;
}) {
  const { t } = useTranslation(['continueRow']);
  const { entry } = item;
  return (
    <div
      className="relative"
      data-testid="continue-card"
      data-continue-key={libraryKey(entry.type, entry.tmdbId)}
    >
      {entry.type === 'show' ? (
        <Suspense fallback={<MediaCard media={card} resume={resumeOf(item)} />}>
          <ShowCardMenu item={item} card={card} onLeave={onLeave} />
        </Suspense>
      ) : (
        <MediaCard
          media={card}
          resume={resumeOf(item)}
          action={
            <button
              type="button"
              onClick={() => useLibraryStore.getState().removeFromContinueWatching(entry.type, entry.tmdbId)}
              className={ROUND}
              aria-label={t('continueRow.remove', { title: entry.title })}
              title={t('continueRow.removeShort')}
              data-testid="continue-remove"
            >
              <CloseIcon />
            </button>
          }
        />
      )}
    </div>
  );
}

/** The menu of a show's card, loaded when one shows (continue-menu.tsx). */
const ShowCardMenu = lazy(() => import('./continue-menu.tsx'));
const StopNoteContent = lazy(() => import('./stop-note.tsx'));

/**
 * Where "You stopped watching …" appears, under the row's heading: a status region in the page from the
 * start (so the text is announced when it comes), its content loaded with the first stop.
 */
export function StopNoteView({ onClosed }: { onClosed(): void }) {
  const shown = useStopNote((s) => s.note !== null);
  return (
    <div role="status" className="empty:hidden" data-testid="stop-note">
      {shown && (
        <Suspense fallback={null}>
          <StopNoteContent onClosed={onClosed} />
        </Suspense>
      )}
    </div>
  );
}
