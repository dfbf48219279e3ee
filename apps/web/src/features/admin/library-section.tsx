import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LibraryStatusResponse } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { api } from '../../lib/api/index.ts';
import { adminQueries } from '../../lib/api/queries/admin.ts';
import { longDateTime } from '../../lib/membership-status.ts';
import { numberFormat } from '../../lib/intl.ts';

const COUNTS = [
  'movies',
  'shows',
  'videos',
  'subtitles',
] as const satisfies readonly (keyof LibraryStatusResponse)[];

/**
 * The admin page's media library (decision 085): what the last scan indexed and skipped, whether ffprobe
 * reads the files and the folders are watched, and "Scan now" — with the scan's progress, read again
 * every 2 s while it runs.
 */
export function LibrarySection() {
  const { t } = useTranslation(['admin']);
  const { library, scan } = useLibraryScan();
  const status = library.data;
  return (
    <section aria-labelledby="library-title" data-testid="admin-library">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h2 id="library-title" className="mb-1 text-xl font-bold text-fg">
            {t('admin.library.title')}
          </h2>
          <p className="text-sm text-fg-muted">{t('admin.library.intro')}</p>
        </div>
        {status?.configured && (
          <Button
            variant="secondary"
            onClick={() => scan.mutate()}
            disabled={status.scanning || scan.isPending}
            data-testid="admin-library-scan"
          >
            {t('admin.library.scanNow')}
          </Button>
        )}
      </div>
      {!status && library.isPending && <p className="text-fg-muted">{t('admin.library.loading')}</p>}
      {!status && library.isError && (
        <p role="alert" className="rounded-lg bg-red-900/40 px-3 py-2 text-red-200">
          {t('admin.library.loadFailed')}
        </p>
      )}
      {scan.isError && (
        <p role="alert" className="mb-3 rounded-lg bg-red-900/40 px-3 py-2 text-red-200">
          {t('admin.library.scanFailed')}
        </p>
      )}
      {status && !status.configured && <p className="text-fg-muted">{t('admin.library.notConfigured')}</p>}
      {status?.configured && <LibraryStatus status={status} />}
    </section>
  );
}

/** The library's status (polled while a scan runs: `adminQueries.library`), and "Scan now". */
function useLibraryScan() {
  const queryClient = useQueryClient();
  const library = useQuery(adminQueries.library());
  const scan = useMutation({
    mutationFn: () => api.membership.libraryScan(),
    // The answer is the status with the scan running: polling starts from it.
    onSuccess: (status) => queryClient.setQueryData(adminQueries.library().queryKey, status),
  });
  return { library, scan };
}

/** A configured library: the scan's progress, the counts, the last scan, ffprobe and the watcher, skips. */
function LibraryStatus({ status }: { status: LibraryStatusResponse }) {
  const { t, i18n } = useTranslation(['admin']);
  const number = numberFormat(i18n.language);
  return (
    <div className="flex flex-col gap-4">
      {/* Announced as it changes: the scan's progress, then its end. */}
      <p
        role="status"
        className="flex min-h-6 items-center gap-3 text-sm text-fg"
        data-testid="admin-library-progress"
      >
        {status.scanning && (
          <>
            <span
              className="h-4 w-4 shrink-0 animate-spin rounded-full border-2 border-surface-3 border-t-accent"
              aria-hidden="true"
            />
            {t('admin.library.scanning', {
              checked: number.format(status.checked),
              probed: number.format(status.probed),
            })}
          </>
        )}
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {COUNTS.map((count) => (
          <div key={count} className="rounded-2xl bg-surface-2 px-4 py-3">
            <dt className="text-sm text-fg-muted">{t(`admin.library.${count}`)}</dt>
            <dd
              className="font-mono text-2xl font-bold tabular-nums text-fg"
              data-testid={`admin-library-${count}`}
            >
              {number.format(status[count])}
            </dd>
          </div>
        ))}
      </dl>
      <LastScan status={status} />
      <ul className="flex flex-col gap-1 text-sm text-fg-muted">
        <li>{status.probing ? t('admin.library.probing') : t('admin.library.notProbing')}</li>
        <li>{status.watching ? t('admin.library.watching') : t('admin.library.notWatching')}</li>
      </ul>
      <SkippedFiles skipped={status.skipped} total={status.skippedCount} />
    </div>
  );
}

function LastScan({ status }: { status: LibraryStatusResponse }) {
  const { t, i18n } = useTranslation(['admin']);
  const seconds = numberFormat(i18n.language, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  });
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-2xl bg-surface-2 p-5 text-sm sm:grid-cols-[max-content_1fr]">
      <dt className="text-fg-muted">{t('admin.library.lastScan')}</dt>
      <dd className="text-fg" data-testid="admin-library-last-scan">
        {status.finishedAt
          ? t('admin.library.lastScanAt', {
              date: longDateTime(new Date(status.finishedAt), i18n.language),
              seconds: seconds.format((status.lastDurationMs ?? 0) / 1000),
            })
          : t('admin.library.never')}
      </dd>
      <dt className="text-fg-muted">{t('admin.library.probeFailures')}</dt>
      <dd className="font-mono text-fg">{numberFormat(i18n.language).format(status.probeFailures)}</dd>
    </dl>
  );
}

/** The files the last scan skipped and why (the server sends the latest few of `total`). */
function SkippedFiles({ skipped, total }: { skipped: LibraryStatusResponse['skipped']; total: number }) {
  const { t, i18n } = useTranslation(['admin']);
  const number = numberFormat(i18n.language);
  return (
    <div>
      <h3 className="mb-2 font-semibold text-fg">{t('admin.library.skipped')}</h3>
      {skipped.length === 0 ? (
        <p className="text-sm text-fg-muted">{t('admin.library.noSkipped')}</p>
      ) : (
        <>
          {total > skipped.length && (
            <p className="mb-2 text-sm text-fg-muted">
              {t('admin.library.skippedShown', {
                shown: number.format(skipped.length),
                total: number.format(total),
              })}
            </p>
          )}
          <ul className="flex flex-col gap-2">
            {skipped.map((file) => (
              <li
                key={file.path}
                className="rounded-xl bg-surface-2 px-4 py-3 text-sm"
                data-testid="admin-library-skipped"
              >
                <p className="break-all font-mono text-xs text-fg" dir="ltr">
                  {file.path}
                </p>
                <p className="text-fg-muted">
                  {t(`admin.library.reasons.${file.reason}`)}
                  {file.detail && (
                    <>
                      {' '}
                      <span className="break-words font-mono text-xs" dir="ltr">
                        {file.detail}
                      </span>
                    </>
                  )}
                </p>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
