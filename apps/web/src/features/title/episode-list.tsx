import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type SeasonSummary } from '@marquee/contract';
import { isReleased } from '../../lib/media-keys.ts';
import { clock } from '../../lib/clock.ts';
import { seasonQuery } from './title-queries.ts';
import { paths } from '../../app/paths.ts';

const ROW = 'flex items-center gap-3 rounded-lg px-4 py-3 text-fg';

interface EpisodeListProps {
  mediaKey: string;
  showId: string;
  season: SeasonSummary;
  currentEpisodeId?: string | undefined;
}

/** Episodes of one season; those not aired yet are shown but disabled. */
export function EpisodeList({ mediaKey, showId, season, currentEpisodeId }: EpisodeListProps) {
  const { t, i18n } = useTranslation(['media']);
  const q = useQuery(seasonQuery(showId, season.number));
  if (q.isPending) {
    return (
      <ul className="flex flex-col gap-2" aria-hidden="true">
        {Array.from({ length: 4 }, (_, i) => (
          <li key={i} className="h-14 animate-pulse rounded-lg bg-surface-2" />
        ))}
      </ul>
    );
  }
  if (q.isError)
    return (
      <p className="text-fg-muted" role="alert">
        {t('media.seasons.loadFailed')}
      </p>
    );
  if (q.data.episodes.length === 0) return <p className="text-fg-muted">{t('media.seasons.empty')}</p>;

  const formatDate = (date: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${date}T00:00:00Z`),
    );

  return (
    <ol className="flex flex-col gap-2" data-testid="episode-list">
      {q.data.episodes.map((episode) => {
        const aired = episode.airDate ? isReleased({ releaseDate: episode.airDate }, clock.now()) : false;
        const label = (
          <>
            <span className="w-12 shrink-0 font-mono text-sm text-fg-muted">
              {t('media.seasons.episodeNumber', { number: episode.number })}
            </span>
            <bdi className="flex-1 truncate font-medium">{episode.title}</bdi>
            {!aired && (
              <span className="shrink-0 text-xs text-fg-muted">
                {episode.airDate
                  ? t('media.seasons.airsOn', { date: formatDate(episode.airDate) })
                  : t('media.seasons.unaired')}
              </span>
            )}
          </>
        );
        return (
          <li key={episode.id}>
            {aired ? (
              <Link
                to={paths.media(mediaKey, season.id, episode.id)}
                className={`${ROW} ${episode.id === currentEpisodeId ? 'bg-accent/25 ring-1 ring-accent' : 'bg-surface-2 hover:bg-surface-3'}`}
                aria-current={episode.id === currentEpisodeId ? 'true' : undefined}
                data-testid="episode"
              >
                {label}
              </Link>
            ) : (
              <div
                className={`${ROW} cursor-not-allowed bg-surface-2 opacity-50`}
                aria-disabled="true"
                data-testid="episode"
                data-unaired="true"
              >
                {label}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
