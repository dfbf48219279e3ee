import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/button.tsx';
import { clock } from '../../../lib/clock.ts';
import { readSyncedSettings } from '../../../lib/sync/settings-sync.ts';
import { useLibraryStore } from '../../../stores/index.ts';
import { exportLetterboxdCsv, exportPStreamBackup } from '../formats/index.ts';
import { downloadBackup, downloadLetterboxd } from './download.ts';
import { backupInput, isLibraryEmpty, letterboxdInput } from './export-input.ts';

type ExportKind = 'backup' | 'letterboxd';

/**
 * Writes the library as it is now (and, in the backup, the synced settings) into `kind`'s file and saves
 * it; returns the file's name.
 */
function exportLibrary(kind: ExportKind): string {
  const library = useLibraryStore.getState();
  const now = clock.now();
  return kind === 'backup'
    ? downloadBackup(exportPStreamBackup(backupInput(library, readSyncedSettings()), { now }), now)
    : downloadLetterboxd(exportLetterboxdCsv(letterboxdInput(library)), now);
}

interface ExportChoiceProps {
  label: string;
  hint: string;
  hintId: string;
  /** Also named by the buttons when they are disabled (the empty library's note). */
  emptyId: string | null;
  variant: 'primary' | 'secondary';
  isDisabled: boolean;
  onChoose: () => void;
}

function ExportChoice({ label, hint, hintId, emptyId, variant, isDisabled, onChoose }: ExportChoiceProps) {
  return (
    <div className="flex flex-col gap-2 sm:flex-1">
      <Button
        variant={variant}
        className="w-full text-center"
        aria-describedby={emptyId ? `${hintId} ${emptyId}` : hintId}
        disabled={isDisabled}
        onClick={onChoose}
      >
        {label}
      </Button>
      <p id={hintId} className="text-sm text-fg-muted">
        {hint}
      </p>
    </div>
  );
}

/**
 * Export on the import and export page (issue 27): everything this library keeps, any time, signed in or
 * not — a p-stream backup (JSON) or Letterboxd's import files (a zip of CSVs).
 */
export function ExportSection() {
  const { t } = useTranslation(['transfer']);
  const id = useId();
  const isEmpty = useLibraryStore(isLibraryEmpty);
  const [savedName, setSavedName] = useState<string | null>(null);
  const emptyId = isEmpty ? `${id}-empty` : null;
  const choose = (kind: ExportKind) => () => setSavedName(exportLibrary(kind));

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-4" data-testid="export-section">
      <h2 id={`${id}-heading`} className="text-2xl font-bold text-fg">
        {t('transfer.export.heading')}
      </h2>
      <p className="text-fg-muted">{t('transfer.export.intro')}</p>
      {emptyId && (
        <p id={emptyId} className="text-fg" data-testid="export-empty">
          {t('transfer.export.empty')}
        </p>
      )}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <ExportChoice
          label={t('transfer.export.backup')}
          hint={t('transfer.export.backupHint')}
          hintId={`${id}-backup-hint`}
          emptyId={emptyId}
          variant="primary"
          isDisabled={isEmpty}
          onChoose={choose('backup')}
        />
        <ExportChoice
          label={t('transfer.export.letterboxd')}
          hint={t('transfer.export.letterboxdHint')}
          hintId={`${id}-letterboxd-hint`}
          emptyId={emptyId}
          variant="secondary"
          isDisabled={isEmpty}
          onChoose={choose('letterboxd')}
        />
      </div>
      {/* Always in the page, so screen readers hear what is put into it. */}
      <p role="status" aria-live="polite" className="min-h-6 text-sm text-fg" data-testid="export-done">
        {savedName ? t('transfer.export.done', { name: savedName }) : null}
      </p>
    </section>
  );
}
