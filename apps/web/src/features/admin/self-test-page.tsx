import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import type { SelfTestCheck, TmdbCallStats } from '@marquee/contract';
import { Button } from '../../components/button.tsx';
import { ApiError } from '../../lib/api/index.ts';
import { adminQueries } from '../../lib/api/queries/admin.ts';
import { longDateTime } from '../../lib/membership-status.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { paths } from '../../lib/paths.ts';
import { JobsSection } from './jobs-section.tsx';
import { LibrarySection } from './library-section.tsx';

const forbidden = (e: unknown) => e instanceof ApiError && (e.status === 401 || e.status === 403);
const BADGE: Record<SelfTestCheck['status'], string> = {
  pass: 'bg-green-900/60 text-green-200',
  fail: 'bg-red-900/60 text-red-200',
  skip: 'bg-surface-3 text-fg-muted',
};

/**
 * `/admin` (decision 041, admins of either account kind): the instance self-test — configuration,
 * database, metadata source, Redis, payment gateway, every provider — each check with its result and
 * reason, and a button to run it again.
 */
export function SelfTestPage() {
  const { t, i18n } = useTranslation(['admin']);
  usePageTitle(t('admin.selfTest.pageTitle'));
  const test = useQuery(adminQueries.selfTest());
  if (test.isError && forbidden(test.error)) return <Navigate replace to={paths.home} />;
  const report = test.data;
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 py-10">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold text-fg">{t('admin.selfTest.title')}</h1>
          <p className="mt-2 text-fg-muted">{t('admin.selfTest.intro')}</p>
        </div>
        <Button onClick={() => void test.refetch()} disabled={test.isFetching} data-testid="self-test-run">
          {t('admin.selfTest.run')}
        </Button>
      </div>
      {test.isFetching && (
        <p role="status" className="flex items-center gap-3 text-fg-muted">
          <span
            className="h-5 w-5 animate-spin rounded-full border-2 border-surface-3 border-t-accent"
            aria-hidden="true"
          />
          {t('admin.selfTest.running')}
        </p>
      )}
      {test.isError && !test.isFetching && (
        <p role="alert" className="rounded-lg bg-red-900/40 px-3 py-2 text-red-200">
          {t('admin.selfTest.failed')}
        </p>
      )}
      {report && (
        <>
          <div
            className={`rounded-2xl p-5 ${report.ok ? 'bg-green-900/30' : 'bg-red-900/30'}`}
            data-testid="self-test-summary"
          >
            <p className="text-xl font-bold text-fg">
              {report.ok ? t('admin.selfTest.summaryOk') : t('admin.selfTest.summaryFail')}
            </p>
            <p className="mt-1 text-sm text-fg-muted">
              {t('admin.selfTest.ranAt', {
                date: longDateTime(new Date(report.startedAt), i18n.language),
                seconds: new Intl.NumberFormat(i18n.language, {
                  maximumFractionDigits: 1,
                  minimumFractionDigits: 1,
                }).format(report.durationMs / 1000),
              })}
            </p>
          </div>
          <section aria-labelledby="checks-title">
            <h2 id="checks-title" className="mb-3 text-xl font-bold text-fg">
              {t('admin.selfTest.checks')}
            </h2>
            <ul className="flex flex-col gap-2">
              {report.checks.map((check) => (
                <li
                  key={check.id}
                  className="flex flex-col gap-1 rounded-xl bg-surface-2 px-4 py-3 sm:flex-row sm:items-start sm:gap-4"
                  data-testid="self-test-check"
                  data-status={check.status}
                >
                  <span
                    className={`w-20 shrink-0 rounded-full px-2 py-0.5 text-center text-xs font-bold uppercase ${BADGE[check.status]}`}
                  >
                    {t(`admin.selfTest.status.${check.status}`)}
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-fg">{check.name}</p>
                    <p className="break-words text-sm text-fg-muted">{check.reason}</p>
                  </div>
                  <span className="shrink-0 font-mono text-xs text-fg-muted">
                    {t('admin.selfTest.duration', { ms: Math.round(check.durationMs) })}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          {report.tmdb && <TmdbCalls stats={report.tmdb} />}
          <section aria-labelledby="config-title">
            <h2 id="config-title" className="mb-3 text-xl font-bold text-fg">
              {t('admin.selfTest.config')}
            </h2>
            <dl className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-2xl bg-surface-2 p-5 font-mono text-sm sm:grid-cols-[max-content_1fr]">
              {Object.entries(report.config).map(([key, value]) => (
                <div key={key} className="contents">
                  <dt className="text-fg-muted">{key}</dt>
                  <dd className="break-all text-fg" dir="ltr">
                    {String(value)}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        </>
      )}
      <LibrarySection />
      <JobsSection />
    </div>
  );
}

/** How many calls the server keeps figures for (its ring of recent TMDB calls). */
const TMDB_CALLS_KEPT = 200;

/** TMDB's recent latency and errors as the answering server process saw them (decision 082). */
function TmdbCalls({ stats }: { stats: TmdbCallStats }) {
  const { t, i18n } = useTranslation(['admin']);
  const number = new Intl.NumberFormat(i18n.language);
  const ms = (value: number | null) =>
    value === null ? '—' : t('admin.selfTest.duration', { ms: number.format(value) });
  const errors = Object.entries(stats.errors);
  const rows: [string, string][] = [
    [t('admin.selfTest.tmdb.calls'), number.format(stats.calls)],
    [t('admin.selfTest.tmdb.p50'), ms(stats.p50Ms)],
    [t('admin.selfTest.tmdb.p95'), ms(stats.p95Ms)],
    [t('admin.selfTest.tmdb.fallback'), number.format(stats.fallbackAnswers)],
  ];
  return (
    <section aria-labelledby="tmdb-title" data-testid="self-test-tmdb">
      <h2 id="tmdb-title" className="mb-1 text-xl font-bold text-fg">
        {t('admin.selfTest.tmdb.title')}
      </h2>
      <p className="mb-3 text-sm text-fg-muted">
        {t('admin.selfTest.tmdb.intro', { max: number.format(TMDB_CALLS_KEPT) })}
      </p>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 rounded-2xl bg-surface-2 p-5 text-sm sm:grid-cols-[max-content_1fr]">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-fg-muted">{label}</dt>
            <dd className="font-mono text-fg">{value}</dd>
          </div>
        ))}
        <dt className="text-fg-muted">{t('admin.selfTest.tmdb.errors')}</dt>
        <dd className="font-mono text-fg" dir="ltr" data-testid="self-test-tmdb-errors">
          {errors.length === 0
            ? t('admin.selfTest.tmdb.noErrors')
            : errors.map(([code, count]) => `${code}: ${number.format(count)}`).join(', ')}
        </dd>
        {stats.lastError && (
          <>
            <dt className="text-fg-muted">{t('admin.selfTest.tmdb.lastError')}</dt>
            <dd className="text-fg" data-testid="self-test-tmdb-last-error">
              <span className="font-mono" dir="ltr">
                {stats.lastError.code}
              </span>{' '}
              <span className="text-fg-muted">
                {longDateTime(new Date(stats.lastError.at), i18n.language)}
              </span>
              <span className="block break-words font-mono text-xs text-fg-muted" dir="ltr">
                {stats.lastError.message}
              </span>
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
