import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { type MediaDetails, type SeasonSummary } from '@marquee/contract';
import { isTitleReleased } from '@marquee/contract/values';
import { clock } from '../../lib/clock.ts';
import { encodeMediaKey } from '../../lib/media-keys.ts';
import { PageLoading } from '../../components/layout.tsx';
import { useMediaActions } from '../../components/media-actions.tsx';
import { isNotFound } from '../../lib/api/index.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useSeasonLabel } from '../../lib/use-season-label.ts';
import { EpisodeList } from './episode-list.tsx';
import { MediaError } from './media-error.tsx';
import {
  CastSection,
  CrewSection,
  EpisodeLine,
  MoreLikeThis,
  TrailersSection,
  WatchSection,
} from './title-sections.tsx';
import { resolveMediaKey } from './resolve-media-key.ts';
import { useShowResume } from './resume.ts';
import { detailsQuery, justWatchQuery } from './title-queries.ts';
import { paths } from '../../lib/paths.ts';
import { PosterImage } from '../../components/poster-image.tsx';
import { numberFormat, listFormat } from '../../lib/intl.ts';

/** Genres as a short list in the viewer's language ("Drama, Crime"). */
const GENRE_LIST: Intl.ListFormatOptions = { style: 'short', type: 'unit' };

/** Season 1 by default (so specials are never the default), else the first listed. */
function defaultSeason(seasons: SeasonSummary[], seasonId?: string): SeasonSummary | undefined {
  return seasons.find((s) => s.id === seasonId) ?? seasons.find((s) => s.number === 1) ?? seasons[0];
}

function SeasonPicker({
  details,
  mediaKey,
  seasonId,
  episodeId,
}: {
  details: MediaDetails;
  mediaKey: string;
  seasonId?: string | undefined;
  episodeId?: string | undefined;
}) {
  const { t } = useTranslation(['media']);
  const seasonLabel = useSeasonLabel();
  // The viewer's choice, else the default, which follows what arrives (a resume point synced in later).
  const [chosenId, setSelectedId] = useState<string | undefined>();
  const selected = details.seasons.find((s) => s.id === chosenId) ?? defaultSeason(details.seasons, seasonId);
  if (!selected) return <p className="text-fg-muted">{t('media.seasons.empty')}</p>;
  return (
    <section className="mt-10" aria-labelledby="episodes-heading">
      <div className="mb-4 flex flex-wrap items-center gap-4">
        <h2 id="episodes-heading" className="text-xl font-bold text-fg">
          {t('media.seasons.episodes')}
        </h2>
        <label className="ms-auto flex items-center gap-2 text-sm text-fg-muted">
          {t('media.seasons.label')}
          <select
            value={selected.id}
            onChange={(e) => setSelectedId(e.target.value)}
            className="rounded-lg border border-white/10 bg-surface-2 px-3 py-2 text-fg"
            data-testid="season-select"
          >
            {details.seasons.map((s) => (
              <option key={s.id} value={s.id}>
                {seasonLabel(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <EpisodeList mediaKey={mediaKey} showId={details.id} season={selected} currentEpisodeId={episodeId} />
    </section>
  );
}

/**
 * The title page: backdrop, poster, title and facts, the viewer's actions (Play where the player waits
 * behind the page), overview, seasons and episodes, cast and crew, trailers, where to watch, more like this.
 */
export function MediaPage({ onPlay }: { onPlay?: (() => void) | undefined } = {}) {
  const { media = '', season, episode } = useParams();
  const resolved = resolveMediaKey(media);
  if (resolved.kind === 'redirect')
    return <Navigate replace to={paths.media(resolved.key, season, episode)} />;
  if (resolved.kind === 'invalid') return <MediaError kind="notFound" />;
  if (resolved.kind === 'justwatch')
    return <JustWatchRedirect jwType={resolved.jwType} id={resolved.id} season={season} episode={episode} />;
  return (
    <MediaDetailsView
      key={media}
      mediaKey={media}
      type={resolved.parts.type}
      id={resolved.parts.id}
      seasonId={season}
      episodeId={episode}
      onPlay={onPlay}
    />
  );
}

/** Old `JW-…` keys: the server looks the title up, then the page moves to its current key. */
function JustWatchRedirect({
  jwType,
  id,
  season,
  episode,
}: {
  jwType: string;
  id: string;
  season?: string | undefined;
  episode?: string | undefined;
}) {
  const q = useQuery(justWatchQuery(jwType, id));
  if (q.isPending) return <PageLoading />;
  if (q.isError)
    return (
      <MediaError
        kind={isNotFound(q.error) ? 'notFound' : 'failedApi'}
        error={q.error}
        onRetry={() => void q.refetch()}
      />
    );
  return (
    <Navigate
      replace
      to={paths.media(encodeMediaKey(q.data.type, q.data.id, q.data.title), season, episode)}
    />
  );
}

function MediaDetailsView({
  mediaKey,
  type,
  id,
  seasonId,
  episodeId,
  onPlay,
}: {
  mediaKey: string;
  type: 'movie' | 'tv';
  id: string;
  seasonId?: string | undefined;
  episodeId?: string | undefined;
  /** Where the player waits behind the title page (a phone), the title page's Play brings it. */
  onPlay?: (() => void) | undefined;
}) {
  const { t, i18n } = useTranslation(['media']);
  const actions = useMediaActions();
  const q = useQuery(detailsQuery(type, id));
  // A show the viewer is watching: Play resumes at their episode (media-route's redirect) and says which.
  const resume = useShowResume(type === 'tv' ? id : '');
  const [backdropFailed, setBackdropFailed] = useState(false);
  usePageTitle(q.data?.title ?? null);
  // What is below the header renders in a second pass React may interrupt (a transition): the header
  // paints first, and a long page (cast, crew, trailers, recommendations) is no long task on a phone.
  const below = useDeferredValue(q.data, undefined);

  if (q.isPending) {
    // A screen tall, like the page it stands for: the footer stays below the fold until the title is in.
    return (
      <div className="flex min-h-dvh flex-col gap-6 py-8 sm:flex-row" aria-busy="true">
        <div className="aspect-[2/3] w-48 shrink-0 animate-pulse rounded-xl bg-surface-2" />
        <div className="flex-1 space-y-3">
          <div className="h-8 w-2/3 animate-pulse rounded bg-surface-2" />
          <div className="h-4 w-1/3 animate-pulse rounded bg-surface-2" />
        </div>
      </div>
    );
  }
  if (q.isError)
    return (
      <MediaError
        kind={isNotFound(q.error) ? 'notFound' : 'failed'}
        error={q.error}
        onRetry={() => void q.refetch()}
      />
    );

  const d = q.data;
  // Unreleased: the player's place says so; there is nothing to play.
  const play =
    onPlay && isTitleReleased({ releaseDate: d.releaseDate, year: d.year }, clock.now()) ? onPlay : undefined;
  const facts = [
    d.year === null ? t('media.yearUnknown') : String(d.year),
    d.runtime
      ? t(d.type === 'tv' ? 'media.details.episodeRuntime' : 'media.runtime', { minutes: d.runtime })
      : null,
    d.status && d.type === 'tv' ? t(`media.details.status.${d.status}`) : null,
  ].filter((fact): fact is string => fact !== null);
  return (
    <article className="pb-8" data-testid="media-page">
      <header className="relative -mx-4 overflow-hidden sm:-mx-6" data-testid="title-header">
        {d.backdrop && !backdropFailed && (
          <img
            onError={() => setBackdropFailed(true)}
            src={d.backdrop}
            alt=""
            aria-hidden="true"
            // The page's largest picture: asked for before the posters below it.
            fetchPriority="high"
            className="absolute inset-0 h-full w-full object-cover opacity-35"
            data-testid="title-backdrop"
          />
        )}
        <div className="absolute inset-0 bg-gradient-to-t from-bg via-bg/85 to-bg/40" aria-hidden="true" />
        <div className="relative flex gap-4 px-4 pb-6 pt-6 sm:gap-8 sm:px-6 sm:pt-12">
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
            <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-fg-muted sm:text-base">
              {facts.map((fact) => (
                <span key={fact}>{fact}</span>
              ))}
              {d.contentRating && (
                <span
                  className="rounded border border-fg-muted/60 px-1.5 text-xs font-semibold text-fg"
                  data-testid="title-content-rating"
                >
                  <span className="sr-only">{t('media.details.contentRating')} </span>
                  {d.contentRating}
                </span>
              )}
              {d.rating && (
                <span className="flex items-center gap-1 text-fg" data-testid="title-rating">
                  <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4 fill-amber-400">
                    <path d="M12 2l3.09 6.26L22 9.27l-5 4.87 1.18 6.88L12 17.77l-6.18 3.25L7 14.14 2 9.27l6.91-1.01z" />
                  </svg>
                  <span aria-hidden="true">
                    {numberFormat(i18n.language, {
                      minimumFractionDigits: 1,
                      maximumFractionDigits: 1,
                    }).format(d.rating.average)}
                  </span>
                  <span className="sr-only">
                    {t('media.details.rating', {
                      rating: numberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
                        d.rating.average,
                      ),
                      count: d.rating.count,
                      votes: numberFormat(i18n.language).format(d.rating.count),
                    })}
                  </span>
                </span>
              )}
            </p>
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
            {(play || actions.title) && (
              <div className="mt-4 flex flex-wrap gap-3">
                {play && (
                  <button
                    type="button"
                    onClick={play}
                    className="inline-flex min-h-11 items-center gap-2 rounded-full bg-accent px-6 py-2 font-semibold text-white hover:bg-accent-strong focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent"
                    data-testid="title-play"
                  >
                    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5 fill-current">
                      <path d="M8 5v14l11-7z" />
                    </svg>
                    {resume?.seasonNumber != null
                      ? t('media.details.resume', {
                          season: resume.seasonNumber,
                          episode: resume.episodeNumber,
                        })
                      : t('media.details.play')}
                  </button>
                )}
                {actions.title?.(d)}
              </div>
            )}
          </div>
        </div>
      </header>
      {/* An overview may be in English (no translation at the source): it keeps its own direction. */}
      <p className="max-w-3xl leading-relaxed text-fg" dir={d.overview ? 'auto' : undefined}>
        {d.overview ?? t('media.overviewMissing')}
      </p>
      {below ? (
        <>
          {below.type === 'tv' && (
            <SeasonPicker
              details={below}
              mediaKey={mediaKey}
              seasonId={seasonId ?? resume?.seasonId}
              episodeId={episodeId}
            />
          )}
          <CastSection cast={below.cast} />
          <CrewSection crew={below.crew} />
          <TrailersSection trailers={below.trailers} />
          <WatchSection providers={below.watchProviders} />
          <MoreLikeThis items={below.recommendations} />
        </>
      ) : (
        // Holds the place of what comes next, so nothing below moves when it arrives.
        <div className="min-h-dvh" aria-hidden="true" />
      )}
    </article>
  );
}
