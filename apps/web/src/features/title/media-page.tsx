import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { type MediaDetails, type SeasonSummary } from '@marquee/contract';
import { encodeMediaKey } from '../../lib/media-keys.ts';
import { PageLoading } from '../../components/layout.tsx';
import { isNotFound } from '../../lib/api/index.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { useSeasonLabel } from '../../lib/use-season-label.ts';
import { EpisodeList } from './episode-list.tsx';
import { MediaError } from './media-error.tsx';
import { CastSection, CrewSection, MoreLikeThis, TrailersSection, WatchSection } from './title-sections.tsx';
import { TitleHeader, type PlayRequest } from './title-header.tsx';
import { ShowWatchedToggle } from './watched-marks.tsx';
import { resolveMediaKey } from './resolve-media-key.ts';
import { useShowResume } from './resume.ts';
import { detailsQuery, justWatchQuery } from './title-queries.ts';
import { paths } from '../../lib/paths.ts';

/** Season 1 by default (so specials are never the default), else the first listed. */
function defaultSeason(seasons: SeasonSummary[], seasonId?: string): SeasonSummary | undefined {
  return seasons.find((s) => s.id === seasonId) ?? seasons.find((s) => s.number === 1) ?? seasons[0];
}

/** What the sections below a title's header are given: the title, its key, and the episode linked to. */
interface TitleSectionProps {
  details: MediaDetails;
  mediaKey: string;
  seasonId?: string | undefined;
  episodeId?: string | undefined;
}

function SeasonPicker({ details, mediaKey, seasonId, episodeId }: TitleSectionProps) {
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
      <div className="mb-3">
        <ShowWatchedToggle show={details} />
      </div>
      <EpisodeList mediaKey={mediaKey} show={details} season={selected} currentEpisodeId={episodeId} />
    </section>
  );
}

/**
 * The title page: backdrop, poster, title and facts, the viewer's actions (Play where the player waits
 * behind the page), overview, seasons and episodes, cast and crew, trailers, where to watch, more like this.
 */
export function MediaPage({ onPlay }: { onPlay?: PlayRequest | undefined } = {}) {
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
  onPlay?: PlayRequest | undefined;
}) {
  const { t } = useTranslation(['media']);
  const q = useQuery(detailsQuery(type, id));
  // A show the viewer is watching: Play resumes at their episode (media-route's redirect) and says which.
  const resume = useShowResume(type === 'tv' ? id : '');
  usePageTitle(q.data?.title ?? null);
  // What is below the header renders in a second pass React may interrupt (a transition): the header
  // paints first, and a long page (cast, crew, trailers, recommendations) is no long task on a phone.
  const below = useDeferredValue(q.data, undefined);

  if (q.isPending) return <MediaDetailsLoading />;
  if (q.isError)
    return (
      <MediaError
        kind={isNotFound(q.error) ? 'notFound' : 'failed'}
        error={q.error}
        onRetry={() => void q.refetch()}
      />
    );

  const d = q.data;
  return (
    <article className="pb-8" data-testid="media-page">
      <TitleHeader details={d} resume={resume} onPlay={onPlay} />
      {/* An overview may be in English (no translation at the source): it keeps its own direction. */}
      <p className="max-w-3xl leading-relaxed text-fg" dir={d.overview ? 'auto' : undefined}>
        {d.overview ?? t('media.overviewMissing')}
      </p>
      {below ? (
        <BelowHeader
          details={below}
          mediaKey={mediaKey}
          seasonId={seasonId ?? resume?.seasonId}
          episodeId={episodeId}
        />
      ) : (
        // Holds the place of what comes next, so nothing below moves when it arrives.
        <div className="min-h-dvh" aria-hidden="true" />
      )}
    </article>
  );
}

/** A screen tall, like the page it stands for: the footer stays below the fold until the title is in. */
function MediaDetailsLoading() {
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

/** Seasons and episodes (a show), cast and crew, trailers, where to watch, more like this. */
function BelowHeader({ details, mediaKey, seasonId, episodeId }: TitleSectionProps) {
  return (
    <>
      {details.type === 'tv' && (
        <SeasonPicker details={details} mediaKey={mediaKey} seasonId={seasonId} episodeId={episodeId} />
      )}
      <CastSection cast={details.cast} />
      <CrewSection crew={details.crew} />
      <TrailersSection trailers={details.trailers} />
      <WatchSection providers={details.watchProviders} />
      <MoreLikeThis items={details.recommendations} />
    </>
  );
}
