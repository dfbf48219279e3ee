import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { JobKindStatus } from '@marquee/contract';
import { adminQueries } from '../../lib/api/queries/admin.ts';
import { longDateTime } from '../../lib/membership-status.ts';
import { numberFormat } from '../../lib/intl.ts';

/** Job kinds the page names in the viewer's language (others show as the server names them). */
const KNOWN_KINDS = ['thumbnails'] as const;
const isKnownKind = (kind: string): kind is (typeof KNOWN_KINDS)[number] =>
  (KNOWN_KINDS as readonly string[]).includes(kind);

const COUNTS = [
  'queued',
  'running',
  'done',
  'failed',
  'concurrency',
] as const satisfies readonly (keyof JobKindStatus)[];

/**
 * The admin page's background jobs (decision 086): where the queue lives, each kind's waiting, running,
 * finished and failed jobs, and the last failures. Read again every few seconds while the page is open.
 */
export function JobsSection() {
  const { t, i18n } = useTranslation(['admin']);
  const jobs = useQuery(adminQueries.jobs());
  const number = numberFormat(i18n.language);
  const status = jobs.data;
  return (
    <section aria-labelledby="jobs-title" data-testid="admin-jobs">
      <h2 id="jobs-title" className="mb-1 text-xl font-bold text-fg">
        {t('admin.jobs.title')}
      </h2>
      <p className="mb-3 text-sm text-fg-muted">{t('admin.jobs.intro')}</p>
      {!status && jobs.isPending && <p className="text-fg-muted">{t('admin.jobs.loading')}</p>}
      {!status && jobs.isError && (
        <p role="alert" className="rounded-lg bg-red-900/40 px-3 py-2 text-red-200">
          {t('admin.jobs.loadFailed')}
        </p>
      )}
      {status && (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-fg" data-testid="admin-jobs-backend" data-backend={status.backend}>
            {status.backend === 'redis' ? t('admin.jobs.backendRedis') : t('admin.jobs.backendProcess')}
          </p>
          {status.kinds.length === 0 ? (
            <p className="text-fg-muted">{t('admin.jobs.none')}</p>
          ) : (
            <div className="overflow-x-auto rounded-2xl bg-surface-2">
              <table className="w-full text-start text-sm">
                <thead className="text-fg-muted">
                  <tr>
                    <th scope="col" className="px-4 py-2 text-start font-semibold">
                      {t('admin.jobs.kind')}
                    </th>
                    {COUNTS.map((count) => (
                      <th key={count} scope="col" className="px-4 py-2 text-end font-semibold">
                        {t(`admin.jobs.${count}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {status.kinds.map((kind) => (
                    <tr key={kind.kind} className="border-t border-surface-3" data-testid="admin-jobs-kind">
                      <th scope="row" className="px-4 py-2 text-start font-normal text-fg">
                        {isKnownKind(kind.kind) ? t(`admin.jobs.kinds.${kind.kind}`) : kind.kind}
                      </th>
                      {COUNTS.map((count) => (
                        <td key={count} className="px-4 py-2 text-end font-mono tabular-nums text-fg">
                          {number.format(kind[count])}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <div>
            <h3 className="mb-2 font-semibold text-fg">{t('admin.jobs.failures')}</h3>
            {status.failures.length === 0 ? (
              <p className="text-sm text-fg-muted">{t('admin.jobs.noFailures')}</p>
            ) : (
              <ul className="flex flex-col gap-2">
                {status.failures.map((failure) => (
                  <li
                    key={`${failure.kind}:${failure.id}`}
                    className="rounded-xl bg-surface-2 px-4 py-3 text-sm"
                    data-testid="admin-jobs-failure"
                  >
                    <p className="text-fg">
                      {isKnownKind(failure.kind) ? t(`admin.jobs.kinds.${failure.kind}`) : failure.kind}{' '}
                      <span className="font-mono text-xs text-fg-muted" dir="ltr">
                        {failure.id}
                      </span>
                    </p>
                    <p className="text-fg-muted">
                      {t('admin.jobs.failedAt', {
                        date: longDateTime(new Date(failure.at), i18n.language),
                        attempts: number.format(failure.attempts),
                      })}
                    </p>
                    <p className="break-words font-mono text-xs text-fg-muted" dir="ltr">
                      {failure.error}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}
    </section>
  );
}
