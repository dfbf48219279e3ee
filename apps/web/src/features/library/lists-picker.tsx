import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MediaDetails } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { toMediaType } from '../../lib/media-keys.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { libraryKey, listNames } from '../../stores/library/library-rules.ts';
import { libraryMetaOf } from './bookmark-toggle.tsx';
import { ListNameForm } from './list-name-form.tsx';

/**
 * The title page's "Lists" (issue 27, named lists — p-stream's bookmark groups): which of the viewer's
 * lists the title is on, each a checkbox, and a new list made on the spot. A title on a list is on My
 * List too. A disclosure, not a dialog: it opens below the button and every control is a native one.
 */
export function ListsPicker({
  media,
}: {
  media: Pick<MediaDetails, 'id' | 'type' | 'title' | 'year' | 'poster'>;
}) {
  const { t } = useTranslation(['lists']);
  const panelId = useId();
  const [open, setOpen] = useState(false);
  const meta = libraryMetaOf({ ...media });
  const key = libraryKey(toMediaType(media.type), media.id);
  const groups = useLibraryStore((s) => s.bookmarks[key]?.groups);
  const bookmarks = useLibraryStore((s) => s.bookmarks);
  const order = useLibraryStore((s) => s.groupOrder);
  if (!meta) return null;
  const on = groups ?? [];
  const names = listNames(bookmarks, order);
  const toggle = (name: string, checked: boolean) =>
    useLibraryStore
      .getState()
      .setBookmarkLists(
        meta,
        checked ? [...on.filter((g) => g !== name), name] : on.filter((g) => g !== name),
      );
  return (
    <div className="basis-full sm:basis-auto" data-testid="lists-picker">
      <Button
        variant="secondary"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen(!open)}
        data-testid="lists-button"
      >
        <ListIcon />
        {on.length ? t('lists.onCount', { count: on.length }) : t('lists.picker')}
      </Button>
      {open && (
        <div id={panelId} className="mt-2 flex max-w-sm flex-col gap-3 rounded-xl bg-surface-2 p-4">
          <fieldset className="flex flex-col gap-1">
            <legend className="mb-1 text-sm font-semibold text-fg">
              {t('lists.pickerLabel', { title: media.title })}
            </legend>
            {names.length === 0 && <p className="text-sm text-fg-muted">{t('lists.none')}</p>}
            {names.map((name) => (
              <label key={name} className="inline-flex min-h-11 cursor-pointer items-center gap-3 text-fg">
                <input
                  type="checkbox"
                  checked={on.includes(name)}
                  onChange={(event) => toggle(name, event.currentTarget.checked)}
                  className="h-5 w-5 accent-accent"
                />
                <bdi>{name}</bdi>
              </label>
            ))}
          </fieldset>
          <ListNameForm
            onSubmit={(name) => {
              // The new list goes last in the viewer's order (kept on every device), with this title on it.
              useLibraryStore.getState().setGroupOrder([...names, name]);
              toggle(name, true);
            }}
            existing={names}
          />
        </div>
      )}
    </div>
  );
}

function ListIcon() {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01" strokeLinecap="round" />
    </svg>
  );
}
