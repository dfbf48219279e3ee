import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { MediaDetails } from '@marquee/contract';
import { isTitleReleased } from '@marquee/contract/values';
import { useMediaActions } from '../../components/media-actions.tsx';
import { PosterImage } from '../../components/poster-image.tsx';
import { clock } from '../../lib/clock.ts';
import { listFormat, numberFormat } from '../../lib/intl.ts';
import { formatTime } from '../../lib/timestamp.ts';
import { useAlmostWatched, type ShowResume } from './resume.ts';
import { EpisodeLine } from './title-sections.tsx';

/** Play pressed on the title page; `fromStart`: from the beginning, not from where the viewer was. */
export type PlayRequest = (options?: { fromStart?: boolean }) => void;

/** Genres as a short list in the viewer's language ("Drama, Crime"). */
const GENRE_LIST: Intl.ListFormatOptions = { style: 'short', type: 'unit' };

/** The facts line's texts: the year, the runtime (per episode for a show) and a show's status. */
function titleFacts(d: MediaDetails, t: TFunction<readonly ['media', 'title']>): string[] {
  return [
    d.year === null ? t('media.yearUnknown') : String(d.year),
    d.runtime
      ? t(d.type === 'tv' ? 'title.details.episodeRuntime' : 'media.runtime', { minutes: d.runtime })
      : null,
    d.status && d.type === 'tv' ? t(`title.details.status.${d.status}`) : null,
  ].filter((fact): fact is string => fact !== null);
}

/**
 * The title page's header: backdrop, poster, kind, title and tagline, facts, genres, the next episode, and
 * the viewer's actions (Play where the player waits behind the page).
 */
export function TitleHeader({
  details: d,
  resume,
  onPlay,
}: {
  details: MediaDetails;
  resume: ShowResume | null;
  onPlay?: PlayRequest | undefined;
}) {
  const { t, i18n } = useTranslation(['media', 'title']);
  // Unreleased: the player's place says so; there is nothing to play.
  const play =
    onPlay && isTitleReleased({ releaseDate: d.releaseDate, year: d.year }, clock.now()) ? onPlay : undefined;
  return (
    <header className="relative -mx-4 overflow-hidden sm:-mx-6 tv:-mx-overscan-x" data-testid="title-header">
      {d.backdrop && <TitleBackdrop src={d.backdrop} />}
      <div className="absolute inset-0 bg-gradient-to-t from-bg via-bg/85 to-bg/40" aria-hidden="true" />
      <div className="relative flex gap-4 px-4 pb-6 pt-6 sm:gap-8 sm:px-6 sm:pt-12 tv:px-overscan-x">
        <PosterImage
          src={d.poster}
          alt={t('media.posterAlt', { title: d.title })}
          width={342}
          height={513}
          className="aspect-[2/3] w-28 shrink-0 self-start rounded-xl object-cover shadow-xl sm:w-56"
        />
        <div className="min-w-0 flex-1">
          <p className="text-xs font-semibold uppercase tracking-wider text-fg-accent sm:text-sm">
            {t(`media.types.${d.type}`)}
          </p>
          <h1 className="mt-1 text-2xl font-bold text-fg sm:text-4xl" dir="auto">
            {d.title}
          </h1>
          {d.tagline && (
            <p className="mt-1 italic text-fg-muted" dir="auto" data-testid="title-tagline">
              {d.tagline}
            </p>
          )}
          <TitleFacts details={d} />
          {d.genres.length > 0 && (
            <p className="mt-1 text-sm text-fg-muted">
              {listFormat(i18n.language, GENRE_LIST).format(d.genres.map((g) => g.name))}
            </p>
          )}
          {d.nextEpisode && (
            <div className="mt-2">
              <EpisodeLine label="next" episode={d.nextEpisode} />
            </div>
          )}
          <TitleActions details={d} play={play} resume={resume} />
        </div>
      </div>
    </header>
  );
}

/** Hidden for good once it fails to load: the gradient alone stands behind the header. */
function TitleBackdrop({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      onError={() => setFailed(true)}
      src={src}
      alt=""
      aria-hidden="true"
      // The page's largest picture: asked for before the posters below it.
      fetchPriority="high"
      className="absolute inset-0 h-full w-full object-cover opacity-35"
      data-testid="title-backdrop"
    />
  );
}

function TitleFacts({ details: d }: { details: MediaDetails }) {
  const { t } = useTranslation(['media', 'title']);
  return (
    <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted sm:text-base">
      {titleFacts(d, t).map((fact) => (
        <span key={fact}>{fact}</span>
      ))}
      {d.contentRating && (
        <span
          className="rounded border border-fg-muted/60 px-1.5 text-xs font-semibold text-fg"
          data-testid="title-content-rating"
        >
          <span className="sr-only">{t('title.details.contentRating')} </span>
          {d.contentRating}
        </span>
      )}
      {d.rating && <TitleRating rating={d.rating} />}
    </p>
  );
}

/** The star and the average for the eye; the full sentence (average and votes) for a screen reader. */
function TitleRating({ rating }: { rating: NonNullable<MediaDetails['rating']> }) {
  const { t, i18n } = useTranslation(['media', 'title']);
  return (
    <span className="flex items-center gap-1 text-fg" data-testid="title-rating">
      <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 fill-amber-400">
        <path d="M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z" />
      </svg>
      <span aria-hidden="true">
        {numberFormat(i18n.language, {
          minimumFractionDigits: 1,
          maximumFractionDigits: 1,
        }).format(rating.average)}
      </span>
      <span className="sr-only">
        {t('title.details.rating', {
          rating: numberFormat(i18n.language, { maximumFractionDigits: 1 }).format(rating.average),
          count: rating.count,
          votes: numberFormat(i18n.language).format(rating.count),
        })}
      </span>
    </span>
  );
}

/**
 * Play (or Resume, naming the episode) and what the app puts on titles (the bookmark toggle). A title
 * watched past ALMOST_WATCHED_SHARE offers both: resume where the viewer was, or start over.
 */
function TitleActions({
  details,
  play,
  resume,
}: {
  details: MediaDetails;
  play: PlayRequest | undefined;
  resume: ShowResume | null;
}) {
  const { t } = useTranslation(['media', 'title']);
  const actions = useMediaActions();
  const almost = useAlmostWatched(details.type, details.id, resume);
  if (!play && !actions.title) return null;
  const label =
    resume?.seasonNumber != null
      ? t('title.details.resume', { season: resume.seasonNumber, episode: resume.episodeNumber })
      : almost
        ? t('title.details.resumeAt', { time: formatTime(almost.watched) })
        : t('title.details.play');
  return (
    <div className="mt-4 flex flex-wrap gap-3">
      {play && (
        <button
          type="button"
          onClick={() => play()}
          className="inline-flex min-h-11 items-center gap-2 rounded-full bg-accent px-6 py-2 font-semibold text-white hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
          data-testid="title-play"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 fill-current">
            <path d="M8 5v14l11-7z" />
          </svg>
          {label}
        </button>
      )}
      {play && almost && (
        <button
          type="button"
          onClick={() => play({ fromStart: true })}
          className="inline-flex min-h-11 items-center gap-2 rounded-full bg-surface-2 px-6 py-2 font-semibold text-fg hover:bg-surface-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
          data-testid="title-start-over"
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="h-5 w-5 fill-none stroke-current"
            strokeWidth="2"
          >
            <path d="M4 12a8 8 0 1 0 2.3-5.6M4 4v4h4" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          {t('title.details.startOver')}
        </button>
      )}
      {actions.title?.(details)}
    </div>
  );
}
