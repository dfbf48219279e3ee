import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

// Names of projects are proper nouns, not translatable text.
const PROJECTS = [
  ['React', 'https://react.dev'],
  ['React Router', 'https://reactrouter.com'],
  ['TanStack Query', 'https://tanstack.com/query'],
  ['i18next', 'https://www.i18next.com'],
  ['Tailwind CSS', 'https://tailwindcss.com'],
  ['Vite', 'https://vite.dev'],
  ['Fastify', 'https://fastify.dev'],
  ['Kysely', 'https://kysely.dev'],
  ['Zod', 'https://zod.dev'],
  ['SQLite', 'https://sqlite.org'],
  ['PostgreSQL', 'https://www.postgresql.org'],
  ['movie-web', 'https://github.com/movie-web/movie-web'],
] as const;

/** Credits: the open-source projects Marquee stands on, and TMDB's required attribution. */
export function CreditsPage() {
  const { t } = useTranslation(['jip']);
  usePageTitle(t('jip.pageTitle'));
  const embedded = runtimeConfig().metadataSource === 'catalog';
  return (
    <div className="mx-auto max-w-3xl py-10">
      <h1 className="text-3xl font-bold text-fg">{t('jip.title')}</h1>
      <p className="mt-4 text-fg-muted">{t('jip.intro')}</p>
      <h2 className="mt-8 text-xl font-bold text-fg">{t('jip.projects')}</h2>
      <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
        {PROJECTS.map(([name, url]) => (
          <li key={name}>
            <a className="text-fg-accent hover:underline" href={url} target="_blank" rel="noreferrer">
              {name}
            </a>
          </li>
        ))}
      </ul>
      <h2 className="mt-8 text-xl font-bold text-fg">{t('jip.tmdbTitle')}</h2>
      <div
        className="mt-3 flex items-center gap-4 rounded-lg bg-surface-2 p-4"
        data-testid="tmdb-attribution"
      >
        <svg viewBox="0 0 120 40" className="h-8 w-24 shrink-0" role="img" aria-label="TMDB">
          <defs>
            <linearGradient id="tmdb" x1="0" x2="1">
              <stop offset="0" stopColor="#90cea1" />
              <stop offset="1" stopColor="#01b4e4" />
            </linearGradient>
          </defs>
          <rect width="120" height="40" rx="8" fill="#0d253f" />
          <text
            x="60"
            y="27"
            textAnchor="middle"
            fontFamily="system-ui,sans-serif"
            fontWeight="800"
            fontSize="20"
            fill="url(#tmdb)"
          >
            TMDB
          </text>
        </svg>
        <div>
          <p className="text-fg">{t('jip.tmdbNotice')}</p>
          {embedded && <p className="mt-1 text-sm text-fg-muted">{t('jip.tmdbEmbedded')}</p>}
        </div>
      </div>
    </div>
  );
}
