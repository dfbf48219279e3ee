import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/button.tsx';
import { useLibraryRefreshOnOpen } from '../../lib/library-refresh.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { NamedLists } from './named-lists.tsx';
import { RejectedChanges } from './rejected-changes.tsx';
import {
  BookmarksSection,
  ContinueWatchingSection,
  useBookmarks,
  useContinueWatching,
} from './library-sections.tsx';
import { paths } from '../../lib/paths.ts';

/** `/mylist`: everything the user keeps, or a way to discover titles when there is nothing yet. */
export function MyListPage() {
  const { t } = useTranslation(['home', 'library', 'history']);
  usePageTitle(t('library.myList'));
  useLibraryRefreshOnOpen();
  const bookmarks = useBookmarks();
  const continuing = useContinueWatching();
  return (
    <div className="py-8">
      <div className="mb-8 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold text-fg">{t('library.myList')}</h1>
        <ButtonLink to={paths.history} variant="secondary" data-testid="history-link">
          {t('history.title')}
        </ButtonLink>
      </div>
      <RejectedChanges variant="panel" />
      {bookmarks.length === 0 && continuing.length === 0 ? (
        <div className="flex flex-col items-center gap-4 py-12 text-center" data-testid="mylist-empty">
          <p className="max-w-md text-fg-muted">{t('library.empty')}</p>
          <ButtonLink to={paths.discover}>{t('home.empty.discover')}</ButtonLink>
        </div>
      ) : (
        <>
          <BookmarksSection items={bookmarks} titled={false} />
          <NamedLists />
          <ContinueWatchingSection items={continuing} />
        </>
      )}
    </div>
  );
}
