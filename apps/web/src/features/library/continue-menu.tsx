import { useCallback, useEffect, useId, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { type MediaSummary } from '@marquee/contract';
import { CloseIcon } from '../../components/close-icon.tsx';
import { MediaCard } from '../../components/media-card.tsx';
import { MENU_ITEMS, useMenuKeys } from '../../components/use-menu-keys.ts';
import { useLibraryStore } from '../../stores/index.ts';
import { type ContinueItem } from '../../stores/library/library-rules.ts';
import { resumeOf, ROUND } from './continue-parts.ts';
import { stopWatching } from './stop-watching.ts';

/*
 * A show's Continue Watching menu (decision 102), loaded when a show's card first shows: the menu's code
 * and its keyboard hook stay out of the first view of the home page.
 */

const ITEM =
  'flex min-h-11 w-full flex-col justify-center rounded-md px-3 py-2 text-start text-sm text-fg hover:bg-surface-3 focus-visible:bg-surface-3 focus-visible:outline-none';

/** Closes an open menu on a press outside it and its button (the button toggles it), or on Escape anywhere. */
function useDismiss(
  open: boolean,
  button: RefObject<HTMLElement | null>,
  menu: RefObject<HTMLElement | null>,
  close: () => void,
) {
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!button.current?.contains(target) && !menu.current?.contains(target)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, button, menu, close]);
}

/** A menu row: its label names it, the line under it describes it. */
function MenuRow({
  label,
  hint,
  onSelect,
  testId,
}: {
  label: string;
  hint: string;
  onSelect(): void;
  testId: string;
}) {
  const id = useId();
  return (
    <button
      type="button"
      role="menuitem"
      className={ITEM}
      onClick={onSelect}
      aria-labelledby={`${id}-label`}
      aria-describedby={`${id}-hint`}
      data-testid={testId}
    >
      <span id={`${id}-label`} className="font-semibold">
        {label}
      </span>
      <span id={`${id}-hint`} className="text-xs text-fg-muted">
        {hint}
      </span>
    </button>
  );
}

/**
 * A show's "×": a menu button (the WAI-ARIA pattern of `useMenuKeys`) offering to remove the show from
 * Continue Watching (its progress is deleted) or to stop watching it (hidden, everything kept; decision
 * 102). The menu spans the card, under the button, so it fits the narrow cards of a phone.
 */
export default function ShowCardMenu({
  item,
  card,
  onLeave,
}: {
  item: ContinueItem;
  card: MediaSummary;
  onLeave(): void;
}) {
  const { t } = useTranslation(['continueRow']);
  const [open, setOpen] = useState(false);
  const { triggerProps, menuProps } = useMenuKeys({
    button: { open, setOpen },
    initialFocus: (menu) => menu.querySelector<HTMLElement>(MENU_ITEMS),
  });
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, triggerProps.ref, menuProps.ref, close);
  const { entry } = item;
  return (
    <>
      <MediaCard
        media={card}
        resume={resumeOf(item)}
        action={
          <button
            type="button"
            {...triggerProps}
            onClick={() => setOpen(!open)}
            className={ROUND}
            aria-label={t('continueRow.options', { title: entry.title })}
            title={t('continueRow.optionsShort')}
            data-testid="continue-options"
            data-continue-trigger
            // The card's own menu here, before its ⋯ (watched marks): what OK held opens on a TV.
            data-card-menu="first"
          >
            <CloseIcon />
          </button>
        }
      />
      {open && (
        <div
          {...menuProps}
          className="absolute inset-x-1 top-13 z-10 flex flex-col gap-1 rounded-xl border border-white/10 bg-surface-2 p-1 shadow-2xl"
        >
          <MenuRow
            label={t('continueRow.removeShort')}
            hint={t('continueRow.removeHint')}
            testId="continue-remove"
            onSelect={() => {
              setOpen(false);
              useLibraryStore.getState().removeFromContinueWatching(entry.type, entry.tmdbId);
              onLeave();
            }}
          />
          <MenuRow
            label={t('continueRow.stop')}
            hint={t('continueRow.stopHint')}
            testId="continue-stop"
            onSelect={() => {
              setOpen(false);
              stopWatching(entry);
            }}
          />
        </div>
      )}
    </>
  );
}
