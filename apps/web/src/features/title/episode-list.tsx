import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Episode, type MediaDetails, type SeasonSummary } from '@marquee/contract';
import { isReleased, releaseDay } from '@marquee/contract/values';
import { clock } from '../../lib/clock.ts';
import { isNotFound } from '../../lib/api/index.ts';
import { seasonQuery } from './title-queries.ts';
import { progressRatio, type Progress } from '../../stores/library/library-rules.ts';
import { useEpisodeProgress } from './resume.ts';
import { WatchedBar } from '../../components/media-card.tsx';
import { usePreferencesStore } from '../../stores/index.ts';
import { paths } from '../../lib/paths.ts';
import { dateTimeFormat } from '../../lib/intl.ts';
import { EpisodeWatchedToggle, SeasonWatchedToggle, useWatchedEpisodes } from './watched-marks.tsx';
import {
  EpisodeFavoriteToggle,
  FavoritesFilter,
  FavoritesNote,
  useEpisodeFavorites,
} from './episode-favorites.tsx';

const ROW = 'flex items-start gap-3 rounded-lg p-2 text-fg sm:gap-4 sm:p-3';

const STILL_BOX = 'aspect-video w-28 shrink-0 self-start rounded-md bg-surface-3 sm:w-40';

/**
 * A still from the episode; an empty box when there is none or it cannot be loaded, and for an episode
 * not watched yet while spoilers are hidden (`hidden`: nothing of it is loaded, an eye struck out shows).
 */
function EpisodeStill({ src, hidden }: { src: string | null; hidden: boolean }) {
  const [failed, setFailed] = useState(false);
  if (hidden)
    return (
      <span
        aria-hidden="true"
        className={`${STILL_BOX} flex items-center justify-center text-fg-muted`}
        data-testid="episode-still-hidden"
      >
        <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M3 3l18 18M10.6 10.6a2 2 0 002.8 2.8M9.9 5.1A9.9 9.9 0 0112 5c5 0 9 4.5 10 7a13 13 0 01-3.2 4.2M6.6 6.6C4.4 8 2.7 10.2 2 12c1 2.5 5 7 10 7 1.7 0 3.3-.5 4.6-1.3" />
        </svg>
      </span>
    );
  if (!src || failed) return <span aria-hidden="true" className={STILL_BOX} />;
  return (
    <img
      src={src}
      alt=""
      loading="lazy"
      decoding="async"
      width={300}
      height={169}
      onError={() => setFailed(true)}
      className={`${STILL_BOX} object-cover`}
    />
  );
}

interface EpisodeListProps {
  mediaKey: string;
  /** The show (its id, and what a watched mark or a favourite records of it). */
  show: Show;
  season: SeasonSummary;
  currentEpisodeId?: string | undefined;
}

type Show = Pick<MediaDetails, 'id' | 'title' | 'year' | 'poster'>;

/** Episodes of one season; those not aired yet (the contract's release rule) are shown but disabled. */
export function EpisodeList({ mediaKey, show, season, currentEpisodeId }: EpisodeListProps) {
  const { t } = useTranslation(['media']);
  const q = useQuery(seasonQuery(show.id, season.number));
  if (q.isPending) {
    return (
      <ul className="flex flex-col gap-2" aria-hidden="true">
        {Array.from({ length: 4 }, (_, i) => (
          <li key={i} className="h-14 animate-pulse rounded-lg bg-surface-2" />
        ))}
      </ul>
    );
  }
  // A season the metadata does not have has no episodes to list; any other failure can be retried.
  if (q.isError && isNotFound(q.error)) return <p className="text-fg-muted">{t('media.seasons.empty')}</p>;
  if (q.isError)
    return (
      <div className="flex flex-wrap items-center gap-3" role="alert">
        <p className="text-fg-muted">{t('media.seasons.loadFailed')}</p>
        <button
          type="button"
          onClick={() => void q.refetch()}
          className="min-h-11 rounded-full bg-surface-2 px-4 text-sm font-semibold text-fg hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
        >
          {t('media.tryAgain')}
        </button>
      </div>
    );
  if (q.data.episodes.length === 0) return <p className="text-fg-muted">{t('media.seasons.empty')}</p>;
  return (
    <SeasonEpisodes
      mediaKey={mediaKey}
      show={show}
      season={season}
      episodes={q.data.episodes}
      currentEpisodeId={currentEpisodeId}
    />
  );
}

/**
 * A loaded season: its marks (watched, for the season; "Favourites only"), the note on what a star does
 * to My List, and its episodes, each with its watched mark and its star once aired.
 */
function SeasonEpisodes({
  mediaKey,
  show,
  season,
  episodes,
  currentEpisodeId,
}: EpisodeListProps & { episodes: Episode[] }) {
  // What the viewer watched of each episode (this device's library, synced from their others).
  const progress = useEpisodeProgress(show.id);
  const marked = useWatchedEpisodes(show.id);
  const favorites = useEpisodeFavorites(show);
  // Spoilers hidden (decision 115): an episode not watched yet shows no still and no overview.
  const hideSpoilers = usePreferencesStore((s) => s.hideSpoilers);
  const [onlyFavorites, setOnlyFavorites] = useState(false);
  const noteId = useId();
  const now = clock.now();
  const aired = episodes.filter((episode) => isReleased(episode.airDate, now));
  const starred = episodes.filter((episode) => favorites.ids.has(episode.id));
  // The filter goes with the last favourite of the season: never an empty list.
  const filtering = onlyFavorites && starred.length > 0;
  const canStar = favorites.toggle !== null && aired.length > 0;
  // Stills only where the source has them (the embedded catalog has none): no column of empty boxes.
  const hasStills = episodes.some((episode) => episode.still);
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center justify-end gap-2">
        {starred.length > 0 && <FavoritesFilter on={filtering} onChange={setOnlyFavorites} />}
        <SeasonWatchedToggle show={show} season={season} aired={aired} watched={marked} />
      </div>
      {canStar && <FavoritesNote id={noteId} favorites={favorites} />}
      <ol className="flex flex-col gap-2" data-testid="episode-list">
        {(filtering ? starred : episodes).map((episode) => {
          const isAired = isReleased(episode.airDate, now);
          return (
            <li key={episode.id} className="flex items-stretch gap-2">
              <EpisodeRow
                to={isAired ? paths.media(mediaKey, season.id, episode.id) : null}
                episode={episode}
                hasStills={hasStills}
                spoilersHidden={hideSpoilers && !marked.has(episode.id)}
                current={episode.id === currentEpisodeId}
                progress={progress[episode.id]?.progress}
              />
              {isAired && (
                // Stacked on a phone, so the row keeps its width; side by side from `sm` on.
                <div className="flex shrink-0 flex-col gap-1 sm:flex-row">
                  <EpisodeWatchedToggle
                    show={show}
                    season={season}
                    episode={episode}
                    watched={marked.has(episode.id)}
                  />
                  {favorites.toggle && (
                    <EpisodeFavoriteToggle
                      season={season}
                      episode={episode}
                      favorite={favorites.ids.has(episode.id)}
                      onToggle={favorites.toggle}
                      describedBy={favorites.bookmarked ? undefined : noteId}
                    />
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}

interface EpisodeRowProps {
  /** Where it plays; null until it has aired. */
  to: string | null;
  episode: Episode;
  hasStills: boolean;
  /** Not watched yet, and spoilers are hidden: no still, no overview. */
  spoilersHidden: boolean;
  current: boolean;
  progress: Progress | undefined;
}

/** An episode's row: a link to it once aired, else a disabled row with its air date. */
function EpisodeRow({ to, episode, hasStills, spoilersHidden, current, progress }: EpisodeRowProps) {
  const { t, i18n } = useTranslation(['media']);
  const day = releaseDay(episode.airDate);
  const formatDate = (date: string) =>
    dateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' }).format(
      new Date(`${date}T00:00:00Z`),
    );
  const label = (
    <>
      {hasStills && <EpisodeStill src={episode.still} hidden={spoilersHidden} />}
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="flex items-baseline gap-2">
          <span className="shrink-0 font-mono text-sm text-fg-muted">
            {t('media.seasons.episodeNumber', { number: episode.number })}
          </span>
          <bdi className="truncate font-medium">{episode.title}</bdi>
        </span>
        <span className="flex flex-wrap gap-x-3 text-xs text-fg-muted">
          {episode.runtime ? <span>{t('media.runtime', { minutes: episode.runtime })}</span> : null}
          {!to && (
            <span>
              {day ? t('media.seasons.airsOn', { date: formatDate(day) }) : t('media.seasons.unaired')}
            </span>
          )}
        </span>
        {episode.overview &&
          (spoilersHidden ? (
            <span className="text-sm italic text-fg-muted" data-testid="episode-overview-hidden">
              {t('media.seasons.spoilerHidden')}
            </span>
          ) : (
            <span className="line-clamp-2 text-sm text-fg-muted" dir="auto">
              {episode.overview}
            </span>
          ))}
        {progress && <WatchedBar ratio={progressRatio(progress)} />}
      </span>
    </>
  );
  if (!to)
    return (
      <div
        className={`${ROW} min-w-0 flex-1 cursor-not-allowed bg-surface-2 opacity-50`}
        aria-disabled="true"
        data-testid="episode"
        data-unaired="true"
      >
        {label}
      </div>
    );
  return (
    <Link
      to={to}
      className={`${ROW} min-w-0 flex-1 ${current ? 'bg-accent/25 ring-1 ring-accent' : 'bg-surface-2 hover:bg-surface-3'}`}
      aria-current={current ? 'true' : undefined}
      data-testid="episode"
    >
      {label}
    </Link>
  );
}
