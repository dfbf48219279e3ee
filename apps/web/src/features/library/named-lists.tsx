import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { MediaCard } from '../../components/media-card.tsx';
import { useLibraryStore } from '../../stores/index.ts';
import { listNames, type BookmarkEntry } from '../../stores/library/library-rules.ts';
import { GRID, summaryOf, useBookmarks } from './library-sections.tsx';
import { ListNameForm } from './list-name-form.tsx';

/**
 * My List's named lists ("Halloween", "With the kids"; p-stream's bookmark groups), in the viewer's
 * order: each with its titles, renamed, deleted (its titles stay on My List) or moved up and down with
 * buttons (a keyboard, a remote, a screen reader: no dragging needed); a new list made here.
 */
export function NamedLists() {
  const { t } = useTranslation(['lists']);
  const all = useBookmarks();
  const bookmarks = useLibraryStore((s) => s.bookmarks);
  const order = useLibraryStore((s) => s.groupOrder);
  const names = useMemo(() => listNames(bookmarks, order), [bookmarks, order]);
  const move = (from: number, to: number) => {
    const next = [...names];
    const [name] = next.splice(from, 1);
    next.splice(to, 0, name!);
    useLibraryStore.getState().setGroupOrder(next);
  };
  return (
    <section aria-labelledby="lists-heading" className="mb-10" data-testid="named-lists">
      <h2 id="lists-heading" className="mb-4 text-xl font-bold text-fg">
        {t('lists.heading')}
      </h2>
      <div className="mb-6 max-w-md">
        <ListNameForm
          existing={names}
          onSubmit={(name) => useLibraryStore.getState().setGroupOrder([...names, name])}
        />
      </div>
      {names.map((name, i) => (
        <NamedList
          key={name}
          name={name}
          items={all.filter((b) => b.groups?.includes(name))}
          names={names}
          onUp={i > 0 ? () => move(i, i - 1) : undefined}
          onDown={i < names.length - 1 ? () => move(i, i + 1) : undefined}
        />
      ))}
    </section>
  );
}

function NamedList({
  name,
  items,
  names,
  onUp,
  onDown,
}: {
  name: string;
  items: BookmarkEntry[];
  names: readonly string[];
  onUp: (() => void) | undefined;
  onDown: (() => void) | undefined;
}) {
  const { t } = useTranslation(['lists']);
  const [mode, setMode] = useState<'view' | 'rename' | 'delete'>('view');
  const headingId = `list-${encodeURIComponent(name)}`;
  return (
    <section aria-labelledby={headingId} className="mb-8" data-testid="named-list">
      <div className="mb-3 flex flex-wrap items-center gap-x-4 gap-y-2">
        <h3 id={headingId} className="text-lg font-semibold text-fg">
          <bdi>{name}</bdi>
          <span className="ms-2 text-sm font-normal text-fg-muted">
            {t('lists.count', { count: items.length })}
          </span>
        </h3>
        <div className="flex flex-wrap gap-2">
          <Button variant="ghost" disabled={!onUp} onClick={onUp} aria-label={t('lists.moveUp', { name })}>
            ↑
          </Button>
          <Button
            variant="ghost"
            disabled={!onDown}
            onClick={onDown}
            aria-label={t('lists.moveDown', { name })}
          >
            ↓
          </Button>
          <Button variant="ghost" onClick={() => setMode('rename')} aria-label={t('lists.rename', { name })}>
            {t('lists.renameShort')}
          </Button>
          <Button variant="ghost" onClick={() => setMode('delete')} aria-label={t('lists.delete', { name })}>
            {t('lists.deleteShort')}
          </Button>
        </div>
      </div>
      {mode === 'rename' && (
        <div className="mb-4 sm:max-w-sm">
          <ListNameForm
            current={name}
            existing={names}
            onSubmit={(to) => {
              if (to !== name) useLibraryStore.getState().renameList(name, to);
              setMode('view');
            }}
            onCancel={() => setMode('view')}
          />
        </div>
      )}
      {mode === 'delete' && (
        <div
          role="alertdialog"
          aria-labelledby={`${headingId}-delete`}
          className="mb-4 flex flex-wrap items-center gap-3 rounded-lg bg-surface-2 p-3"
        >
          <p id={`${headingId}-delete`} className="text-fg">
            {t('lists.deleteConfirm', { name })}
          </p>
          <Button onClick={() => useLibraryStore.getState().deleteList(name)}>{t('lists.deleteYes')}</Button>
          <Button variant="ghost" onClick={() => setMode('view')}>
            {t('lists.cancel')}
          </Button>
        </div>
      )}
      {items.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('lists.empty')}</p>
      ) : (
        <ul className={GRID}>
          {items.map((b) => (
            <li key={`${b.type}:${b.tmdbId}`}>
              <MediaCard media={summaryOf(b)} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
