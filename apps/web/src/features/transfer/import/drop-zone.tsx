import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';

const ACCEPT = '.zip,.csv,.json,application/zip,text/csv,application/json';

/**
 * Where the viewer gives the page their export: a drop area on a laptop, and everywhere a "Choose files"
 * control (a native file input, so keyboards, screen readers and phones' pickers all work).
 */
export function DropZone({ onFiles }: { onFiles(files: File[]): void }) {
  const { t } = useTranslation(['transfer']);
  const [over, setOver] = useState(false);

  const drop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const files = [...event.dataTransfer.files];
    if (files.length) onFiles(files);
  };

  return (
    <div
      data-testid="import-drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`flex flex-col items-center gap-3 rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors ${
        over ? 'border-accent bg-surface-2' : 'border-surface-3'
      }`}
    >
      <p className="hidden text-fg sm:block" aria-hidden="true">
        {t('transfer.import.drop')}
      </p>
      <p className="hidden text-sm text-fg-muted sm:block" aria-hidden="true">
        {t('transfer.import.or')}
      </p>
      <label className="inline-flex min-h-11 cursor-pointer items-center justify-center rounded-lg bg-accent px-4 py-2 text-sm font-semibold text-white hover:bg-accent-strong has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent">
        {t('transfer.import.choose')}
        <input
          type="file"
          multiple
          accept={ACCEPT}
          data-testid="import-file-input"
          className="sr-only"
          onChange={(event) => {
            const files = [...(event.currentTarget.files ?? [])];
            event.currentTarget.value = '';
            if (files.length) onFiles(files);
          }}
        />
      </label>
    </div>
  );
}
