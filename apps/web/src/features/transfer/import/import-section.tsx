import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UiLanguage } from '@marquee/contract';
import { MATCH_MAX_ITEMS } from '@marquee/contract/values';
import { LANGUAGES } from '../../../lib/languages.ts';
import { Button, ButtonLink } from '../../../components/button.tsx';
import { api, ApiError } from '../../../lib/api/index.ts';
import { numberFormat } from '../../../lib/intl.ts';
import { paths } from '../../../lib/paths.ts';
import { importIntoLibrary } from '../../../lib/sync/file-import.ts';
import { changeSyncedSettings } from '../../../lib/sync/settings-sync.ts';
import { useAccountStore } from '../../../stores/account-store.ts';
import { DropZone } from './drop-zone.tsx';
import { ImportReview } from './import-review.tsx';
import { matchTitles } from './match-titles.ts';
import { readFiles } from './read-files.ts';
import { useImport, type ImportStep, type ImportWork, type Refusal } from './use-import.ts';

const DATE_ORDERS = ['mdy', 'dmy'] as const;

/** The language titles are matched in: the viewer's, where the API has it, else English. */
const matchLanguage = (language: string): UiLanguage =>
  (LANGUAGES as readonly string[]).includes(language) ? (language as UiLanguage) : 'en';

/**
 * The real work of each step: the worker that reads, the server that matches, the library that keeps,
 * and the synced settings (applied and sent as a change made in Settings).
 */
export function importWork(language: string): ImportWork {
  return {
    read: readFiles,
    match: (queries, onProgress, signal) =>
      matchTitles(queries, {
        batchSize: MATCH_MAX_ITEMS,
        onProgress,
        signal,
        isRateLimited: (error) => error instanceof ApiError && error.status === 429,
        call: async (items) =>
          (
            await api.metadata.match({
              query: { language: matchLanguage(language) },
              body: { items },
              signal,
              // A batch may take the server up to its deadline (decision 098).
              timeoutMs: 30_000,
            })
          ).results,
      }),
    save: (ops, onProgress) => importIntoLibrary(ops, { onProgress }),
    applySettings: changeSyncedSettings,
  };
}

/** Settings → Import: a file in, matched, reviewed, into the library (signed in or not). */
export function ImportSection({ work }: { work?: ImportWork }) {
  const { t, i18n } = useTranslation(['transfer']);
  const real = useMemo(() => work ?? importWork(i18n.language), [work, i18n.language]);
  const { state, read, save, restart } = useImport(real);
  const signedIn = useAccountStore((s) => s.account !== null);

  return (
    <section aria-labelledby="import-heading" className="flex flex-col gap-4" data-testid="import-section">
      <h2 id="import-heading" className="text-2xl font-bold text-fg">
        {t('transfer.import.heading')}
      </h2>
      {state.step === 'pick' && (
        <>
          <p className="text-fg-muted">{t('transfer.import.formats')}</p>
          {!signedIn && <p className="text-sm text-fg-muted">{t('transfer.import.signedOut')}</p>}
          <DropZone onFiles={(files) => void read(files)} />
        </>
      )}
      <div aria-live="polite">
        <StepView state={state} onRead={read} onSave={save} onRestart={restart} />
      </div>
    </section>
  );
}

function StepView({
  state,
  onRead,
  onSave,
  onRestart,
}: {
  state: ImportStep;
  onRead: ReturnType<typeof useImport>['read'];
  onSave: ReturnType<typeof useImport>['save'];
  onRestart(): void;
}) {
  const { t, i18n } = useTranslation(['transfer']);
  const count = (n: number) => numberFormat(i18n.language).format(n);
  switch (state.step) {
    case 'pick':
      return null;
    case 'reading':
      return (
        <p role="status" className="text-fg" data-testid="import-reading">
          {state.names.length === 1
            ? t('transfer.import.reading', { name: state.names[0] })
            : t('transfer.import.readingMany', { count: state.names.length })}
        </p>
      );
    case 'refused':
      return <RefusedView refusal={state.refusal} onRestart={onRestart} />;
    case 'date-order':
      return (
        <DateOrder
          example={state.example}
          onChoose={(dateOrder) => void onRead(state.files, { dateOrder })}
        />
      );
    case 'matching':
      return (
        <Progress
          heading={t('transfer.import.matching.heading')}
          value={state.progress.done}
          max={state.progress.total}
          text={t('transfer.import.matching.progress', {
            done: count(state.progress.done),
            total: count(state.progress.total),
          })}
          waiting={state.progress.waitingUntil ? t('transfer.import.matching.waiting') : null}
          testId="import-matching"
        >
          <Button variant="secondary" onClick={onRestart}>
            {t('transfer.import.matching.cancel')}
          </Button>
        </Progress>
      );
    case 'review':
      return (
        <ImportReview
          reviewed={state}
          onImport={(ops, settings) => void onSave(ops, settings)}
          onCancel={onRestart}
        />
      );
    case 'saving':
      return (
        <Progress
          heading={t('transfer.import.saving.heading')}
          value={state.progress.sent}
          max={state.progress.total}
          text={t('transfer.import.saving.progress', {
            sent: count(state.progress.sent),
            total: count(state.progress.total),
          })}
          waiting={state.progress.waitingUntil ? t('transfer.import.saving.waiting') : null}
          testId="import-saving"
        />
      );
    case 'done':
      return (
        <DoneView outcome={state.outcome} settingsApplied={state.settingsApplied} onRestart={onRestart} />
      );
  }
}

function Progress({
  heading,
  value,
  max,
  text,
  waiting,
  testId,
  children,
}: {
  heading: string;
  value: number;
  max: number;
  text: string;
  waiting: string | null;
  testId: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-col gap-2" data-testid={testId}>
      <h3 className="text-lg font-semibold text-fg" id={`${testId}-heading`}>
        {heading}
      </h3>
      <progress
        className="h-2 w-full accent-accent"
        value={value}
        max={Math.max(1, max)}
        aria-labelledby={`${testId}-heading`}
        aria-valuetext={text}
      />
      <p className="text-sm text-fg-muted">{text}</p>
      {waiting && <p className="text-sm text-fg-muted">{waiting}</p>}
      {children && <div>{children}</div>}
    </div>
  );
}

function RefusedView({ refusal, onRestart }: { refusal: Refusal | null; onRestart(): void }) {
  const { t } = useTranslation(['transfer']);
  return (
    <div
      role="alert"
      className="flex flex-col gap-2 rounded-lg bg-surface-2 p-4"
      data-testid="import-refused"
    >
      <h3 className="font-semibold text-fg">{t('transfer.import.refused.heading')}</h3>
      {refusal ? (
        <p className="text-fg" data-code={refusal.code}>
          {refusal.file && (
            <span className="block text-sm text-fg-muted">
              {t('transfer.import.refused.inFile', { file: refusal.file })}
            </span>
          )}
          {t(`transfer.import.refused.codes.${refusal.code}`, {
            row: refusal.row ?? '',
            column: refusal.column ?? '',
            columns: (refusal.columns ?? []).join(', '),
          })}
        </p>
      ) : (
        <p className="text-fg">{t('transfer.import.refused.unreadable')}</p>
      )}
      <p className="text-sm text-fg-muted">{t('transfer.import.refused.nothingWritten')}</p>
      <div>
        <Button onClick={onRestart}>{t('transfer.import.refused.tryAnother')}</Button>
      </div>
    </div>
  );
}

/** "03/04/2024": how the file's ambiguous dates read as written (month first, as they were read). */
function asWritten(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-');
  return `${month}/${day}/${year}`;
}

function DateOrder({ example, onChoose }: { example: string; onChoose(order: 'mdy' | 'dmy'): void }) {
  const { t } = useTranslation(['transfer']);
  const [order, setOrder] = useState<'mdy' | 'dmy'>('mdy');
  return (
    <form
      className="flex flex-col gap-3"
      data-testid="import-date-order"
      onSubmit={(event) => {
        event.preventDefault();
        onChoose(order);
      }}
    >
      <fieldset className="flex flex-col">
        <legend className="font-semibold text-fg">{t('transfer.import.dateOrder.legend')}</legend>
        <p className="text-sm text-fg-muted">
          {t('transfer.import.dateOrder.hint', { example: asWritten(example) })}
        </p>
        {DATE_ORDERS.map((value) => (
          <label key={value} className="inline-flex min-h-11 items-center gap-2 text-fg">
            <input
              type="radio"
              name="date-order"
              checked={order === value}
              onChange={() => setOrder(value)}
            />
            {t(`transfer.import.dateOrder.${value}`)}
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit">{t('transfer.import.dateOrder.continue')}</Button>
      </div>
    </form>
  );
}

function DoneView({
  outcome,
  settingsApplied,
  onRestart,
}: {
  outcome: Extract<ImportStep, { step: 'done' }>['outcome'];
  settingsApplied: boolean;
  onRestart(): void;
}) {
  const { t } = useTranslation(['transfer']);
  const ratings = outcome.ratings ?? 0;
  const nothingNew = outcome.plays + outcome.bookmarks + outcome.progress + outcome.lists + ratings === 0;
  return (
    <div className="flex flex-col gap-3" data-testid="import-done">
      <h3 className="text-lg font-semibold text-fg">{t('transfer.import.done.heading')}</h3>
      {nothingNew ? (
        <p className="text-fg">{t('transfer.import.done.nothingNew')}</p>
      ) : (
        <ul className="list-inside list-disc text-fg">
          {outcome.plays > 0 && <li>{t('transfer.import.review.plays', { count: outcome.plays })}</li>}
          {outcome.bookmarks > 0 && (
            <li>{t('transfer.import.review.myList', { count: outcome.bookmarks })}</li>
          )}
          {outcome.progress > 0 && (
            <li>{t('transfer.import.review.progress', { count: outcome.progress })}</li>
          )}
          {outcome.lists > 0 && <li>{t('transfer.import.review.lists', { count: outcome.lists })}</li>}
          {ratings > 0 && <li>{t('transfer.import.review.ratings', { count: ratings })}</li>}
        </ul>
      )}
      {settingsApplied && (
        <p className="text-fg" data-testid="import-settings-applied">
          {t('transfer.import.done.settingsApplied')}
        </p>
      )}
      {outcome.savedTo === 'device' && (
        <p className="text-sm text-fg-muted">{t('transfer.import.done.savedToDevice')}</p>
      )}
      {outcome.savedTo === 'queued' && (
        <p className="text-sm text-fg-muted">{t('transfer.import.done.queued')}</p>
      )}
      {outcome.historyStaysOnDevice && (
        <p className="text-sm text-fg-muted">{t('transfer.import.done.historyOnDevice')}</p>
      )}
      {outcome.ratingsStayOnDevice && (
        <p className="text-sm text-fg-muted">{t('transfer.import.done.ratingsOnDevice')}</p>
      )}
      <div className="flex flex-col gap-3 sm:flex-row">
        <ButtonLink to={paths.history}>{t('transfer.import.done.openHistory')}</ButtonLink>
        <ButtonLink variant="secondary" to={paths.myList}>
          {t('transfer.import.done.openMyList')}
        </ButtonLink>
        <Button variant="ghost" onClick={onRestart}>
          {t('transfer.import.done.another')}
        </Button>
      </div>
    </div>
  );
}
