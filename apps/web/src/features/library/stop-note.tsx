import { useEffect, useRef } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { dismissStopNote, undoStop, useStopNote } from './stop-watching.ts';

/*
 * The "You stopped watching …" note's content (decision 102), loaded once a show is stopped; its status
 * region (continue-card.tsx) is in the page from the start, so screen readers announce the text.
 */

/**
 * "You stopped watching …" with Undo, under the row's heading while the stop can be undone (until it is
 * undone, dismissed, another show is stopped or the page is left). Its status region stays in the page,
 * so screen readers announce the text when it appears; focus moves to Undo, as the card it was on is gone.
 * `onClosed`: where focus goes when the note goes without bringing the card back.
 */
export default function StopNoteContent({ onClosed }: { onClosed(): void }) {
  const { t } = useTranslation(['continueRow', 'global']);
  const note = useStopNote((s) => s.note);
  const undoButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (note) undoButton.current?.focus();
  }, [note]);
  // Leaving the page ends the chance to undo.
  useEffect(() => dismissStopNote, []);
  const undo = () => {
    if (!note) return;
    flushSync(() => undoStop(note));
    const card = [...document.querySelectorAll<HTMLElement>('[data-continue-key]')].find(
      (el) => el.dataset.continueKey === note.key,
    );
    const trigger = card?.querySelector<HTMLElement>('[data-continue-trigger]');
    if (trigger) trigger.focus();
    else onClosed();
  };
  return (
    note && (
      <div className="mb-4 flex flex-wrap items-center gap-x-2 gap-y-1 rounded-lg bg-surface-2 py-1 ps-4 pe-1 text-sm text-fg">
        <p className="min-w-0 flex-1 basis-48">{t('continueRow.stopped', { title: note.title })}</p>
        <button
          ref={undoButton}
          type="button"
          onClick={undo}
          className="min-h-11 rounded-md px-3 font-semibold text-fg underline hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-accent"
        >
          {t('continueRow.undo')}
        </button>
        <button
          type="button"
          onClick={() => {
            dismissStopNote();
            onClosed();
          }}
          className="min-h-11 rounded-md px-3 text-fg-muted hover:bg-surface-3 hover:text-fg focus-visible:outline-2 focus-visible:outline-accent"
        >
          {t('global.dismiss')}
        </button>
      </div>
    )
  );
}
